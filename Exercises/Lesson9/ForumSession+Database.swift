// Lesson 9 — every database request as the signed-in user, with a token kept fresh. Your exercise is the function
// marked EXERCISE (LESSONS.md §9.4).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ForumSession {
    /// EXERCISE 9.4 — Sends one request to the database as the signed-in user and returns the body of its 2xx answer.
    ///
    /// - `method` ("GET", "PUT", "POST", "PATCH", "DELETE") of `<databaseURL>/<path>.json?auth=<ID token>` through
    ///   `session`, with `body` (JSON) as given. Nobody signed in: throw `.notSignedIn` and send nothing.
    /// - 401 `Auth token is expired`: refresh the ID token once (`POST <secureTokenURL>?key=<apiKey>`, the form
    ///   `grant_type=refresh_token&refresh_token=<refresh token>`), keep the new `id_token` and `refresh_token`, and
    ///   send the request again, once. A retry refused as `Auth token is expired` again is `.signInExpired`: never a
    ///   loop. A refused refresh (`INVALID_REFRESH_TOKEN`…) is `.signInExpired` too, and forgets the credentials.
    /// - Requests that find the token expired together refresh it **once** and all retry with the new one.
    /// - 401 `Permission denied` (the rules): `.permissionDenied`, with no refresh. Another status:
    ///   `.status(code, the body's "error" text)`; no answer: `.transport`.
    public func database(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        throw NotImplemented("database(_:_:body:)", section: "9.4")
    }

}
