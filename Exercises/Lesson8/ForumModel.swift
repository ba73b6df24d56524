// Lesson 8 — the forum as the app holds it. Your exercise is marked EXERCISE. LESSONS.md §8.3 explains it.
import Foundation
import LabSupport

/// EXERCISE 8.3 — The app's copy of one thread's messages, kept up to date by the stream's events (LESSONS.md §8.3).
/// It starts empty; the stream's first event, a `put` at "/", is the whole snapshot.
public struct ForumModel {

    public init() {}

    /// Applies one event of the stream:
    /// - `put`: its data (`StreamPayload`: `path` and `data`) replaces whatever is at `path`, relative to the listened
    ///   location ("/" is the whole of it, "/<key>" one message, "/<key>/text" one field); `null` deletes it.
    /// - `patch`: each child of its data is written at `path` + the child's key, and only those: the rest stays.
    ///   A child that is `null` is deleted. A key may itself be a path (`"<key>/text"`, a multi-path update): split it
    ///   at "/" too.
    /// - `keep-alive`: nothing changes (its data is `null`, and it is not a write).
    /// - `cancel`: throws `ForumStreamError.cancelled`; `auth_revoked`: throws `ForumStreamError.authRevoked(reason)`,
    ///   the reason being its data (a JSON string).
    /// - Any other event name: nothing changes. A `put` or `patch` whose data does not decode throws
    ///   `ForumStreamError.malformedEvent(data)`.
    public mutating func apply(_ event: ServerSentEvent) throws {
        throw NotImplemented("ForumModel.apply(_:)", section: "8.3")
    }

    /// The thread's messages now, oldest first (by `timestamp`; the same timestamp by `key`). Entries that are not a
    /// whole message (`ForumMessage(key:json:)` is nil) are left out.
    public var messages: [ForumMessage] {
        _ = NotImplemented("ForumModel.messages", section: "8.3")
        return []
    }
}
