// Lesson 8 — reading an event stream. Your exercise is marked EXERCISE. LESSONS.md §8.2 explains it.
import Foundation
import LabSupport

/// EXERCISE 8.2 — Turns the bytes of a Server-Sent Events stream, in whatever pieces they arrive, into events
/// (LESSONS.md §8.2).
///
/// - A line ends at `\n`; a `\r` just before it belongs to the line ending (`\r\n`), not to the text.
/// - `event: <name>` sets the next event's name; `data: <text>` its data (one space after the colon is not part of
///   the value; several `data:` lines join with `\n`). Other lines (comments starting with `:`, unknown fields) are
///   skipped.
/// - A blank line ends the event: hand it on, then start the next one afresh. A blank line with no name and no data
///   before it (the second of two in a row) hands on nothing.
/// - A piece may end in the middle of a line — even in the middle of a character — or hold several events: keep
///   what is not finished yet for the next call. So one parser reads one stream, from its first piece to its last.
public struct EventStreamParser {
    // BEGIN SOLUTION
    /// Bytes of a line not ended yet (bytes, not text: a piece may end inside a UTF-8 character).
    private var pending = Data()
    private var name = ""
    private var dataLines: [String] = []
    // END SOLUTION

    public init() {}

    /// The events that `piece` completes, in the order they were sent.
    public mutating func parse(_ piece: Data) -> [ServerSentEvent] {
        // BEGIN SOLUTION
        pending.append(piece)
        var events: [ServerSentEvent] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending[pending.startIndex..<newline]
            pending = pending[(newline + 1)...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
        }
        pending = Data(pending)  // start indices at 0 again
        return events
        // END SOLUTION
        // STUB: _ = NotImplemented("EventStreamParser.parse(_:)", section: "8.2")
        // STUB: return []
    }
    // BEGIN SOLUTION

    /// Reads one line; returns the event a blank line ends.
    private mutating func take(_ line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer { name = ""; dataLines = [] }
            guard !name.isEmpty || !dataLines.isEmpty else { return nil }
            return ServerSentEvent(name: name, data: dataLines.joined(separator: "\n"))
        }
        let field = line.prefix { $0 != ":" }
        var value = line.dropFirst(field.count).dropFirst()
        if value.first == " " { value = value.dropFirst() }
        switch field {
        case "event": name = String(value)
        case "data": dataLines.append(String(value))
        default: break
        }
        return nil
    }
    // END SOLUTION
}
