#if canImport(EmulatorCore)
import EmulatorCore
#endif
import Foundation

/// One Server-Sent Event as Firebase sends it: `event: <name>` and `data: <text>`.
public struct ServerSentEvent: Equatable, CustomStringConvertible {
    public let name: String
    public let data: String
    /// The event's text as it arrived, blank line included.
    public let raw: String

    public init(name: String, data: String, raw: String? = nil) {
        self.name = name
        self.data = data
        self.raw = raw ?? "event: \(name)\ndata: \(data)\n\n"
    }

    public var description: String { "event: \(name) / data: \(data)" }

    /// Splits a stream's text into events (blank-line separated; `event:` and `data:` fields).
    public static func parse(_ text: String) -> [ServerSentEvent] {
        text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.compactMap { block in
            var name = "message", data: [String] = []
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("data:") { data.append(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) }
            }
            return data.isEmpty && !block.contains("event:")
                ? nil : ServerSentEvent(name: name, data: data.joined(separator: "\n"), raw: block + "\n\n")
        }
    }
}

/// Reads a chunked event stream event by event, whichever way the server cut it into chunks.
public final class EventStreamReader {
    private let connection: LoopbackConnection
    private var pending = ""
    public private(set) var ended = false

    public init(_ connection: LoopbackConnection) { self.connection = connection }

    /// The next complete event; throws on time-out or when the stream ended first.
    public func next(timeout: TimeInterval = 2) throws -> ServerSentEvent {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.upperBound])
                pending.removeSubrange(..<range.upperBound)
                if let event = ServerSentEvent.parse(block).first { return event }
                continue
            }
            guard !ended else { throw LoopbackConnection.ReadError.streamEnded }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw LoopbackConnection.ReadError.timedOut(timeout) }
            guard let chunk = try connection.readChunk(timeout: left) else {
                ended = true
                continue
            }
            pending += String(decoding: chunk, as: UTF8.self)
        }
    }
}
