// Given: already written for you. A message as the forum shows it.
import Foundation

/// One message of a forum thread. In the database the thread's messages are an object keyed by push IDs:
/// ```
/// "-LJNQ2zNeL4bwG1qpwYB" : { "sender" : "Spencer", "text" : "Hi", "timestamp" : 5.55405872056162E8 }
/// ```
public struct ForumMessage: Equatable, CustomStringConvertible {
    /// The push ID the message is stored under.
    public let key: String
    public let text: String
    public let sender: String
    /// Seconds since 1 January 2001, as JSONEncoder writes a `Date` by default.
    public let timestamp: Date

    public init(key: String, text: String, sender: String, timestamp: Date) {
        self.key = key
        self.text = text
        self.sender = sender
        self.timestamp = timestamp
    }

    /// The message stored under `key`, or nil when `json` is not a whole message (a field missing or of the wrong
    /// type: the model may hold it half-written between events).
    public init?(key: String, json: JSON) {
        guard let text = json.objectValue?["text"]?.stringValue, let sender = json.objectValue?["sender"]?.stringValue,
              let seconds = json.objectValue?["timestamp"]?.numberValue else { return nil }
        self.init(key: key, text: text, sender: sender, timestamp: Date(timeIntervalSinceReferenceDate: seconds))
    }

    public var description: String { "\(key): \(sender): \(text) @\(timestamp.timeIntervalSinceReferenceDate)" }
}

/// Why a stream ended without the app asking.
public enum ForumStreamError: Error, Equatable {
    /// `cancel`: the server no longer lets this client read the location.
    case cancelled
    /// `auth_revoked`: the credential the stream was opened with expired; the data is the server's reason.
    case authRevoked(String)
    /// A `put` or `patch` whose data is not `{"path": …, "data": …}`.
    case malformedEvent(String)
    /// The server answered the GET with this status instead of opening a stream.
    case httpStatus(Int)
    /// The server closed the stream.
    case closed
}
