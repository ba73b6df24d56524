// Given: already written for you. One message of a thread, as this lesson's pages hold it (LESSONS.md §10.1).
import Foundation

/// A message with the key it is stored under: `<baseURL>/<threadID>/messages/<key>`.
public struct Message: Equatable {
    /// The push ID Firebase stores the message under.
    public let key: String
    public let sender: String
    public let text: String
    /// Milliseconds since 1970, as Firebase's server timestamp writes it. Two messages may have the same one.
    public let timestamp: Int

    /// The message as Firebase stores it, without its key: the value under the key in the JSON.
    public struct Body: Codable, Equatable {
        public let sender: String
        public let text: String
        public let timestamp: Int

        public init(sender: String, text: String, timestamp: Int) {
            self.sender = sender
            self.text = text
            self.timestamp = timestamp
        }
    }

    public init(key: String, body: Body) {
        self.key = key
        sender = body.sender
        text = body.text
        timestamp = body.timestamp
    }
}

/// Firebase's error body: `{"error": "<what is wrong>"}`, e.g. the text of a 400 that refused a query.
public struct FirebaseErrorBody: Decodable {
    public let error: String
}
