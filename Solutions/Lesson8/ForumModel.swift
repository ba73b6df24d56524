// Lesson 8 — the forum as the app holds it. Your exercise is marked EXERCISE. LESSONS.md §8.3 explains it.
import Foundation
import LabSupport

/// EXERCISE 8.3 — The app's copy of one thread's messages, kept up to date by the stream's events (LESSONS.md §8.3).
/// It starts empty; the stream's first event, a `put` at "/", is the whole snapshot.
public struct ForumModel {
    // BEGIN SOLUTION
    /// The data at the listened location (the thread's `messages`), as the events left it.
    private var tree = JSON.null
    // END SOLUTION

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
        // BEGIN SOLUTION
        switch event.name {
        case "put", "patch":
            guard let payload = try? JSONDecoder().decode(StreamPayload.self, from: Data(event.data.utf8)) else {
                throw ForumStreamError.malformedEvent(event.data)
            }
            let path = payload.path.split(separator: "/").map(String.init)
            if event.name == "put" {
                tree = Self.setting(payload.data, at: path[...], in: tree)
            } else {
                for (key, value) in payload.data.objectValue ?? [:] {
                    tree = Self.setting(value, at: (path + key.split(separator: "/").map(String.init))[...], in: tree)
                }
            }
        case "cancel":
            throw ForumStreamError.cancelled
        case "auth_revoked":
            let reason = try? JSONDecoder().decode(String.self, from: Data(event.data.utf8))
            throw ForumStreamError.authRevoked(reason ?? event.data)
        default:
            break
        }
        // END SOLUTION
        // STUB: throw NotImplemented("ForumModel.apply(_:)", section: "8.3")
    }

    /// The thread's messages now, oldest first (by `timestamp`; the same timestamp by `key`). Entries that are not a
    /// whole message (`ForumMessage(key:json:)` is nil) are left out.
    public var messages: [ForumMessage] {
        // BEGIN SOLUTION
        let all = (tree.objectValue ?? [:]).compactMap { ForumMessage(key: $0.key, json: $0.value) }
        return all.sorted { ($0.timestamp, $0.key) < ($1.timestamp, $1.key) }
        // END SOLUTION
        // STUB: _ = NotImplemented("ForumModel.messages", section: "8.3")
        // STUB: return []
    }
    // BEGIN SOLUTION

    /// `tree` with `value` at `path`; `null` removes, and an object left empty goes too (Firebase keeps no empty ones).
    private static func setting(_ value: JSON, at path: ArraySlice<String>, in tree: JSON) -> JSON {
        guard let key = path.first else { return value }
        var children = tree.objectValue ?? [:]
        children[key] = setting(value, at: path.dropFirst(), in: children[key] ?? .null)
        if children[key] == .null { children[key] = nil }
        return children.isEmpty ? .null : .object(children)
    }
    // END SOLUTION
}
