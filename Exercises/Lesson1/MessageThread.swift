// Given: already written for you. Lesson 1 is about the requests; the model is ready to encode.
// (Lesson 2 is where you write a model like this one yourself.)
import Foundation

/// A thread on the message board, e.g. "REST APIs", and the messages posted to it.
public final class MessageThread: Codable, Equatable {
    public let title: String
    /// The thread's key in the database, chosen by the client: a UUID string.
    public let identifier: String
    public var messages: [MessageThread.Message]

    public init(title: String, identifier: String = UUID().uuidString, messages: [MessageThread.Message] = []) {
        self.title = title
        self.identifier = identifier
        self.messages = messages
    }

    /// One message in a thread. Its key in the database is a push ID the server chooses.
    public struct Message: Codable, Equatable {
        public let text: String
        public let sender: String
        /// Encoded with JSONEncoder's default strategy: seconds since 1 January 2001, as the recorded data holds it.
        public let timestamp: Date

        public init(text: String, sender: String, timestamp: Date = Date()) {
            self.text = text
            self.sender = sender
            self.timestamp = timestamp
        }
    }

    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages
    }
}
