// Lesson 2 — Codable nesting. You write the message board's model: the parts marked EXERCISE. LESSONS.md §2 explains them.
import Foundation
import LabSupport

/// A thread on the message board, e.g. "REST APIs", and the messages posted to it.
///
/// One model per layer of JSON (§2.1): this class is the thread's layer,
/// `{"identifier": "695398C4-…", "title": "REST APIs", "messages": [ … ]}`, and `Message` (below) is the layer inside
/// `"messages"`. It is a **class** so that code holding a thread sees messages appended to it elsewhere (§2.3).
public final class MessageThread: Codable, Equatable {
    // EXERCISE 2.3 (part 1) — The thread's stored properties: one `public` property per key of the thread's JSON
    // layer (`title`, `identifier`, `messages`, named exactly as the keys: §2.1), none optional. `messages` nests the
    // message layer, and the app appends new messages to it (§2.3); the title and the identifier never change.

    /// EXERCISE 2.3 (part 2) — A thread holds exactly what it was given, unchanged and in order. The defaults are in
    /// the signature: left out, the identifier is a new UUID string (a different one for every thread) and there are
    /// no messages. Replace the `NotImplemented` line.
    public init(title: String, identifier: String = UUID().uuidString, messages: [MessageThread.Message] = []) {
        _ = NotImplemented("MessageThread.init(title:identifier:messages:)", section: "2.3")
    }

    /// One message in a thread: the layer of JSON inside the thread's `"messages"`,
    /// `{"sender": "Spencer", "text": "This is a test to make sure the API works!", "timestamp": 5.55405872056162E8}`.
    /// A struct: a message is a value, and the compiler writes its `==` for you.
    public struct Message: Codable, Equatable {
        // EXERCISE 2.2 (part 1) — The message's stored properties: one `public` property per key of the message's
        // JSON layer (`text`, `sender`, `timestamp`, named exactly as the keys: §2.1), none optional. The timestamp is
        // a point in time; §2.5 explains which type writes the number the data holds.

        /// EXERCISE 2.2 (part 2) — A message holds exactly what it was given, unchanged. Left out, the timestamp is
        /// now (the default in the signature). Replace the `NotImplemented` line.
        public init(text: String, sender: String, timestamp: Date = Date()) {
            _ = NotImplemented("MessageThread.Message.init(text:sender:timestamp:)", section: "2.2")
        }
    }

    /// EXERCISE 2.4 — Two threads are equal when their values are: the same title, the same identifier and the same
    /// messages, in the same order. Swift writes `==` for a struct, not for a class, so this one is yours (§2.4): it
    /// compares values, not identity — two separate objects holding the same values are equal. Replace the two stub
    /// lines.
    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        _ = NotImplemented("MessageThread.==(lhs:rhs:)", section: "2.4")
        return false
    }
}
