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

    // EXERCISE 3.3 (its first part) — The keys of a thread's JSON object go here, as a `CodingKeys` enum that
    // init(from:) and encode(to:) share. A case's raw value is the key in the JSON, letter for letter (LESSONS.md §3.2).

    /// EXERCISE 3.3 — Decodes a thread in every shape Firebase returns it (LESSONS.md §3.1 and §3.3).
    ///
    /// - `title` and `identifier`: strings, kept exactly as written (the identifier is the thread's key; another
    ///   client may write it in lowercase). Every thread has them. A thread without one is bad data: the caller must
    ///   get `DecodingError.keyNotFound` naming the key, not a made-up value.
    /// - `messages` comes in one of four shapes: an object keyed by push IDs (messages POSTed one by one), a JSON
    ///   array (a PUT of an array), an object keyed `0`, `1`, `2` and push IDs (a PUT, then POSTs), or no key at
    ///   all (a new thread: no messages). Anything else wrong in them (a message without a timestamp), in either
    ///   shape, is bad data too: throw, don't hide it.
    /// - `messages` ends up oldest first, by `timestamp`, whatever the shape: JSON objects have no order.
    public required init(from decoder: Decoder) throws {
        throw NotImplemented("MessageThread.init(from:)", section: "3.3")
    }

    /// EXERCISE 3.4 — Encodes a thread as the app PUTs it (LESSONS.md §3.4): a JSON object with the keys `title`,
    /// `identifier` and `messages`, and no other.
    ///
    /// - `messages` is a list, in the thread's order, each message as `Message` encodes itself. The client has no
    ///   push IDs to give (the server makes one per POST), so it invents no keys.
    /// - For a thread without messages, writing an empty list or leaving the key out are both right: Firebase
    ///   stores neither.
    public func encode(to encoder: Encoder) throws {
        throw NotImplemented("MessageThread.encode(to:)", section: "3.4")
    }
}
