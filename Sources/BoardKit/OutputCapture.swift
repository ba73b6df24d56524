import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// While the screen is up, whatever the learner's code prints (a debugging `print`, or the Swift runtime's
/// "Fatal error: …" line just before a crash) would scribble over it. So standard output and error go into a pipe,
/// drained here: the screen is drawn on a copy of the terminal's descriptor, the last lines printed are shown after
/// the board quits, and a fatal error's words go into the crash note.
enum OutputCapture {
    /// [0]: where the screen is drawn, [1]: the real standard error. Plain memory: signal handlers read it.
    private static let descriptors: UnsafeMutablePointer<Int32> = {
        let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        pointer[0] = STDOUT_FILENO
        pointer[1] = STDERR_FILENO
        return pointer
    }()
    static var terminal: Int32 { descriptors[0] }
    static var errors: Int32 { descriptors[1] }

    private static let lock = NSLock()
    private static var printed: [String] = []
    private static var partial = Data()
    private static let kept = 20
    private static var drain: DispatchSourceRead?

    /// Moves standard output and error into the pipe. False (and nothing changed) when the system refuses.
    static func start() -> Bool {
        var ends: [Int32] = [0, 0]
        let terminalCopy = dup(STDOUT_FILENO), errorsCopy = dup(STDERR_FILENO)
        guard terminalCopy >= 0, errorsCopy >= 0, pipe(&ends) == 0 else { return false }
        fflush(stdout)
        fflush(stderr)
        dup2(ends[1], STDOUT_FILENO)
        dup2(ends[1], STDERR_FILENO)
        close(ends[1])
        descriptors[0] = terminalCopy
        descriptors[1] = errorsCopy
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: DispatchQueue(label: "board.output"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 { take(Data(buffer.prefix(count))) }
        }
        source.resume()
        drain = source
        return true
    }

    /// The last lines the learner's code printed, oldest first.
    static var lastLines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return printed + (partial.isEmpty ? [] : [String(decoding: partial, as: UTF8.self)])
    }

    static func take(_ data: Data) {
        lock.lock()
        partial.append(data)
        var complete: [String] = []
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
        }
        printed = Array((printed + complete).suffix(kept))
        let lines = (printed + (partial.isEmpty ? [] : [String(decoding: partial, as: UTF8.self)])).filter { !$0.isEmpty }
        lock.unlock()
        printedBeforeCrash.set(lines.isEmpty ? "" : "\nYour code printed (the last lines before the crash):\n" + tail(of: lines) + "\n")
        complete.compactMap(fatalError(in:)).last.map(CrashGuard.runtimeSaid)
    }

    /// The same lines for a crash, which cannot `replay()`: its signal handler may only copy bytes that exist.
    static let printedBeforeCrash = SignalSafeText(capacity: 4096)

    /// The end of `lines` that fits the crash note, cut at a character's start.
    private static func tail(of lines: [String]) -> String {
        var bytes = Array(lines.joined(separator: "\n").utf8.suffix(3_900))
        while let first = bytes.first, first & 0xC0 == 0x80 { bytes.removeFirst() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "…/Exercises/Lesson1/X.swift:36: Fatal error: Unexpectedly found nil…" → "X.swift:36: Unexpectedly found nil…"
    static func fatalError(in line: String) -> String? {
        guard let marker = line.range(of: ": Fatal error: ") else { return nil }
        let place = line[..<marker.lowerBound].split(separator: "/").last.map(String.init) ?? ""
        return place + ": " + line[marker.upperBound...]
    }

    /// After the screen is gone: what the learner's code printed, so no debugging output is lost.
    static func replay() {
        let lines = lastLines.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return }
        Terminal.write("Your code printed (the last \(lines.count) lines):\n" + lines.joined(separator: "\n") + "\n")
    }
}
