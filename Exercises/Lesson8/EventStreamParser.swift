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

    public init() {}

    /// The events that `piece` completes, in the order they were sent.
    public mutating func parse(_ piece: Data) -> [ServerSentEvent] {
        _ = NotImplemented("EventStreamParser.parse(_:)", section: "8.2")
        return []
    }
}
