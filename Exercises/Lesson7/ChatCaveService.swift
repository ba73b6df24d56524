// Lesson 7 — designing the client of a REST API. Your exercises are the functions marked EXERCISE, in this file and
// the three ChatCaveService+… files. LESSONS.md §7 explains them; `swift run lab hint Lesson7` gives hints.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// The one class that talks to ChatCave: callers ask for rooms and messages and get model values or a
/// `ChatCaveError`; URLs, methods, headers, status codes and JSON stay in here.
public final class ChatCaveService {
    /// The course's real server. The tests pass an emulator's URL instead, so they never touch the network.
    public static let chatCaveURL = URL(string: "https://chatcave.example/api/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    public let credentials: Credentials

    // Add the state your service needs here: the tasks in flight (for cancelRequest), the last message seen in
    // each room (for fetchNewMessages). Calls come from any thread and answers on the session's queue: guard it.

    public init(baseURL: URL = ChatCaveService.chatCaveURL, session: URLSession = .shared, credentials: Credentials) {
        self.baseURL = baseURL
        self.session = session
        self.credentials = credentials
    }

    /// EXERCISE 7.3 — Fetches every room: `GET <baseURL>/rooms`, signed in (LESSONS.md §7.3).
    ///
    /// - Every request this service sends carries `Authorization: Basic <base64 of "user:password">`.
    /// - Success (200): `success` with the rooms, decoded as `[Room]` (times are ISO 8601), in the server's order.
    /// - Failure: `failure` with a `ChatCaveError`: `.transport` (no answer), `.unauthorized` (401), `.server` (any
    ///   other status outside 200...299, with the body), `.decoding` (a 2xx answer that does not decode).
    /// - Exactly one of the two closures is called, once, after the server answered.
    /// - Returns an id that `cancelRequest(_:)` accepts (§7.6).
    @discardableResult
    public func fetchRooms(success: @escaping ([Room]) -> Void, failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        _ = NotImplemented("fetchRooms(success:failure:)", section: "7.3")
        return RequestID()
    }

    // Write the helpers every call shares here: one that builds a signed-in request, one that sends it and turns
    // the answer into a model value or a ChatCaveError. Each later exercise is then a few lines.
}
