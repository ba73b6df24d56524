// Lesson 3 — custom init(from:) and encode(to:). Your exercises are marked EXERCISE. LESSONS.md §3 explains them.
// (MessageThread.Message and == are given, in MessageThread+Message.swift.)
import Foundation
import LabSupport

/// A thread on the message board, e.g. "REST APIs", and the messages posted to it.
///
/// In the database a thread's `messages` are an object keyed by push IDs, not an array, and a new thread has no
/// `messages` key at all — so the `Codable` the compiler would write cannot read it. You write it yourself.
public final class MessageThread: Codable {
    public let title: String
    /// The thread's key in the database, chosen by the client: a UUID string.
    public let identifier: String
    /// Oldest first (by `timestamp`).
    public var messages: [MessageThread.Message]

    public init(title: String, identifier: String = UUID().uuidString, messages: [MessageThread.Message] = []) {
        self.title = title
        self.identifier = identifier
        self.messages = messages
    }

    // EXERCISE 3.3, step 1 — Write the keys of a thread's JSON object here, for both init(from:) and encode(to:):
    //     enum CodingKeys: String, CodingKey { case title, identifier, messages }
    // Each case's raw value must be exactly the key in the JSON.
    // BEGIN SOLUTION
    enum CodingKeys: String, CodingKey {
        case title
        case identifier
        case messages
    }
    // END SOLUTION

    /// EXERCISE 3.3 — Decodes a thread as Firebase stores it.
    ///
    /// 1. Write `CodingKeys` (above).
    /// 2. `let container = try decoder.container(keyedBy: CodingKeys.self)`.
    /// 3. `title` and `identifier` with `container.decode(String.self, forKey: …)`: every thread has them.
    /// 4. `messages` with `decodeIfPresent`: a new thread has no `messages` key (Firebase stores no empty list).
    ///    Messages POSTed one by one come as an object keyed by push IDs: decode `[String: Message]` and take its
    ///    `values`. Messages written with a PUT of an array come back as a JSON array: if the dictionary does not
    ///    decode, try `[Message]`. No key at all means `[]`.
    /// 5. Sort the messages by `timestamp`, oldest first: a dictionary has no order.
    public required init(from decoder: Decoder) throws {
        // BEGIN SOLUTION
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        identifier = try container.decode(String.self, forKey: .identifier)

        let unsorted: [Message]
        if let byPushID = try? container.decodeIfPresent([String: Message].self, forKey: .messages) {
            // POSTed messages: {"-LJNQ2zNeL4bwG1qpwYB": {…}, …}. The keys are the server's; the app needs only the values.
            unsorted = Array(byPushID.values)
        } else {
            // No `messages` key (a new thread), or an array: what Firebase returns for children keyed 0, 1, 2, …
            unsorted = try container.decodeIfPresent([Message].self, forKey: .messages) ?? []
        }
        messages = unsorted.sorted { $0.timestamp < $1.timestamp }
        // END SOLUTION
        // STUB: throw NotImplemented("MessageThread.init(from:)", section: "3.3")
    }

    /// EXERCISE 3.4 — Encodes a thread: the mirror of init(from:).
    ///
    /// 1. `var container = encoder.container(keyedBy: CodingKeys.self)`.
    /// 2. Encode `title` and `identifier` for their keys.
    /// 3. Encode `messages` as an array, in order. Don't invent keys for them: POST gives a message its push ID,
    ///    and a PUT of an array is stored under 0, 1, 2, …, which GET returns as an array that init(from:) reads.
    public func encode(to encoder: Encoder) throws {
        // BEGIN SOLUTION
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(messages, forKey: .messages)
        // END SOLUTION
        // STUB: throw NotImplemented("MessageThread.encode(to:)", section: "3.4")
    }
}
