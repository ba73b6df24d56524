// Given: already written for you. A message, and how two threads compare; Lesson 3 is about the thread's own coding.
import Foundation

extension MessageThread {
    /// One message in a thread. Its key in the database is a push ID the server chooses when the app POSTs it.
    ///
    /// Its `Codable` is synthesised: its JSON object has exactly the keys `text`, `sender` and `timestamp`.
    public struct Message: Codable, Equatable {
        public let text: String
        public let sender: String
        /// Encoded with JSONEncoder's default strategy: seconds since 1 January 2001 (`5.55405872056162E8`).
        public let timestamp: Date

        public init(text: String, sender: String, timestamp: Date = Date()) {
            self.text = text
            self.sender = sender
            self.timestamp = timestamp
        }
    }
}

extension MessageThread: Equatable {
    /// Same title, same identifier, same messages in the same order.
    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages
    }
}
