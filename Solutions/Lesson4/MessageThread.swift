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

    /// Reads `messages` from an object keyed by push IDs (or, from an old client, an array), oldest first;
    /// a thread without messages has no `messages` key, hence `decodeIfPresent`.
    public required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        identifier = try container.decode(String.self, forKey: .identifier)
        if let list = try? container.decode([Message].self, forKey: .messages) {
            messages = list.sorted { $0.timestamp < $1.timestamp }
        } else {
            let byPushID = try container.decodeIfPresent([String: Message].self, forKey: .messages) ?? [:]
            messages = byPushID
                .sorted { ($0.value.timestamp, $0.key) < ($1.value.timestamp, $1.key) }
                .map { $0.value }
        }
    }

    /// The mirror of `init(from:)`: `messages` as an object keyed by push-ID-shaped keys made from each message's
    /// time (so they sort oldest first, like the server's), and no `messages` key when there are none.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(identifier, forKey: .identifier)
        guard !messages.isEmpty else { return }
        var byKey: [String: Message] = [:]
        for (index, message) in messages.enumerated() {
            byKey[Self.key(for: message.timestamp, index: index)] = message
        }
        try container.encode(byKey, forKey: .messages)
    }

    /// 8 characters of milliseconds since 1970 and 12 of the message's position, in the push-ID alphabet.
    private static func key(for date: Date, index: Int) -> String {
        let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        func digits(_ value: Int, count: Int) -> String {
            var value = max(0, value)
            var characters: [Character] = []
            for _ in 0..<count {
                characters.append(alphabet[value % 64])
                value /= 64
            }
            return String(characters.reversed())
        }
        return digits(Int(date.timeIntervalSince1970 * 1000), count: 8) + digits(index, count: 12)
    }

    public static func == (lhs: MessageThread, rhs: MessageThread) -> Bool {
        lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages
    }
}
