// Given: already written for you. This is Lesson 3's answer: the model decodes a thread exactly as Firebase stores it.
import Foundation

/// A thread on the message board, e.g. "REST APIs", and the messages posted to it.
///
/// In the database a thread looks like this — its messages are an object keyed by push IDs, not an array, and a
/// thread without messages has no `messages` key at all (Firebase does not store empty collections):
/// ```
/// "695398C4-498C-40A8-AA76-CB2B20DFD9FA" : {
///   "identifier" : "695398C4-498C-40A8-AA76-CB2B20DFD9FA",
///   "messages" : {
///     "-LJNQ2zNeL4bwG1qpwYB" : { "sender" : "Spencer", "text" : "…", "timestamp" : 5.55405872056162E8 }
///   },
///   "title" : "REST APIs"
/// }
/// ```
public final class MessageThread: Codable, Equatable {
    public let title: String
    /// The thread's key in the database, chosen by the client: a UUID string.
    public let identifier: String
    /// Oldest first.
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

    enum CodingKeys: String, CodingKey {
        case title, identifier, messages
    }

    /// Reads `messages` from an object keyed by push IDs (POSTed one by one) or an array (a PUT of a Swift array,
    /// which Firebase returns as an array), oldest first; a thread without messages has no `messages` key.
    public required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        identifier = try container.decode(String.self, forKey: .identifier)
        let unsorted: [Message]
        if let byPushID = try? container.decodeIfPresent([String: Message].self, forKey: .messages) {
            unsorted = Array(byPushID.values)
        } else {
            unsorted = try container.decodeIfPresent([Message].self, forKey: .messages) ?? []
        }
        messages = unsorted.sorted { $0.timestamp < $1.timestamp }
    }

    /// The mirror of `init(from:)`: `messages` as an array, in order. The client invents no keys: POST gives a
    /// message its push ID, and a PUT of an array is stored under 0, 1, 2, …, which GET returns as an array.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(messages, forKey: .messages)
    }

    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages
    }
}
