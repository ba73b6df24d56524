// Lesson 2 — Codable nesting. You write the message board's model: the parts marked EXERCISE. LESSONS.md §2 explains them.
import Foundation
import LabSupport

/// A thread on the message board, e.g. "REST APIs", and the messages posted to it.
///
/// One model per layer of JSON (§2.1): this class is the thread's layer,
/// `{"identifier": "695398C4-…", "title": "REST APIs", "messages": [ … ]}`, and `Message` (below) is the layer inside
/// `"messages"`. It is a **class** so that code holding a thread sees messages appended to it elsewhere (§2.3).
public final class MessageThread: Codable, Equatable {
    // EXERCISE 2.3 (part 1) — The thread's stored properties, one per key of its JSON layer. Codable names each JSON
    // key after its property, so the names must be the data's keys exactly (§2.1). Make them `public`:
    //   1. `title`, a String constant.
    //   2. `identifier`, a String constant: the thread's key in the database, a UUID string.
    //   3. `messages`, a variable array of `MessageThread.Message` (a `var`: new messages are appended to it).
    // BEGIN SOLUTION
    public let title: String
    public let identifier: String
    public var messages: [MessageThread.Message]
    // END SOLUTION

    /// EXERCISE 2.3 (part 2) — Stores the three values. The defaults are already in the signature: a new thread gets
    /// a new UUID string as its identifier, and no messages.
    ///
    /// 1. Set each property from the parameter of the same name (`self.title = title`, …).
    /// 2. Delete the `NotImplemented` line.
    public init(title: String, identifier: String = UUID().uuidString, messages: [MessageThread.Message] = []) {
        // BEGIN SOLUTION
        self.title = title
        self.identifier = identifier
        self.messages = messages
        // END SOLUTION
        // STUB: _ = NotImplemented("MessageThread.init(title:identifier:messages:)", section: "2.3")
    }

    /// One message in a thread: the layer of JSON inside the thread's `"messages"`,
    /// `{"sender": "Spencer", "text": "This is a test to make sure the API works!", "timestamp": 5.55405872056162E8}`.
    /// A struct: a message is a value, and the compiler writes its `==` for you.
    public struct Message: Codable, Equatable {
        // EXERCISE 2.2 (part 1) — The message's stored properties, named exactly as the data's keys. Make them `public`:
        //   1. `text`, a String constant.
        //   2. `sender`, a String constant.
        //   3. `timestamp`, a `Date` constant — a Date, not a String or a Double: JSONEncoder writes a Date as seconds
        //      since 1 January 2001, which is how the recorded data holds it (§2.5).
        // BEGIN SOLUTION
        public let text: String
        public let sender: String
        public let timestamp: Date
        // END SOLUTION

        /// EXERCISE 2.2 (part 2) — Stores the three values. `timestamp` defaults to now (`Date()`, in the signature).
        ///
        /// 1. Set each property from the parameter of the same name.
        /// 2. Delete the `NotImplemented` line.
        public init(text: String, sender: String, timestamp: Date = Date()) {
            // BEGIN SOLUTION
            self.text = text
            self.sender = sender
            self.timestamp = timestamp
            // END SOLUTION
            // STUB: _ = NotImplemented("MessageThread.Message.init(text:sender:timestamp:)", section: "2.2")
        }
    }

    /// EXERCISE 2.4 — Two threads are equal when their values are: same title, same identifier, same messages.
    /// Swift writes `==` for a struct, not for a class: write it yourself (§2.4).
    ///
    /// 1. Compare `title`, `identifier` and `messages` of `lhs` and `rhs` with `==`, joined by `&&`, and return that.
    ///    (`messages == …` works because `Message` is Equatable.)
    /// 2. Compare values, not identity: `lhs === rhs` asks "the same object?", which two equal threads need not be.
    /// 3. Delete the two stub lines.
    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        // BEGIN SOLUTION
        return lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages
        // END SOLUTION
        // STUB: _ = NotImplemented("MessageThread.==(lhs:rhs:)", section: "2.4")
        // STUB: return false
    }
}
