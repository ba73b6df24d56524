// Lesson 9 — listening as the signed-in user, through the token's expiry. Your exercise is the function marked
// EXERCISE (LESSONS.md §9.6). The stream's reading is given, in EventStream.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ForumSession {
    /// EXERCISE 9.6 — Listens to `<databaseURL>/<path>.json` as the signed-in user, handing each `put` and `patch`
    /// event to `onEvent`, until the stream ends; returns when the server closes it.
    ///
    /// - The stream: a GET with `auth=<ID token>` and `Accept: text/event-stream`, read with the given `events(of:)`.
    ///   Nobody signed in: throw `.notSignedIn` and open nothing. Cancelling the task that runs `listen` ends it: read
    ///   the stream here, not in a `Task` of its own.
    /// - `auth_revoked` (the token's hour is over): refresh the token once, as §9.4 does (a refused refresh throws
    ///   `.signInExpired`), and open the stream again with the new ID token — once per `auth_revoked`, never a loop.
    /// - `cancel` (the rules no longer let this user read here): throw `.permissionDenied`, with no refresh and
    ///   without opening the stream again. `keep-alive` and other names: nothing.
    public func listen(_ path: String, onEvent: @escaping @Sendable (ServerSentEvent) -> Void) async throws {
        throw NotImplemented("listen(_:onEvent:)", section: "9.6")
    }
}
