import Foundation

/// The results stream of a test process that `lab` runs: one JSON object a line, written to descriptor 3 (opened by
/// `lab`, with no name in the test process's file system), in the order things happen:
/// `{"started":"Class/test"}` as a test starts, `{"result":{…}}` (a sealed `TestResult`) as it ends. A line is
/// written with one `write`, so a crash leaves whole lines behind; `lab` reads the stream after the process ended
/// and skips what it cannot read.
public enum ResultsStream {
    public struct Line: Codable {
        public var started: String?
        public var result: TestResult?

        public init(started: String? = nil, result: TestResult? = nil) {
            self.started = started
            self.result = result
        }
    }

    /// The line's bytes, newline included.
    public static func encode(_ line: Line) -> Data {
        var data = (try? JSONEncoder().encode(line)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// Every readable line of `data`, in order.
    public static func decode(_ data: Data) -> [Line] {
        data.split(separator: 0x0A).compactMap { try? JSONDecoder().decode(Line.self, from: Data($0)) }
    }
}
