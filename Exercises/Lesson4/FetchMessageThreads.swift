// Lesson 4 — fetch-and-map. Your exercise is the function marked EXERCISE. LESSONS.md §4 explains it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension MessageThreadController {
    /// EXERCISE 4.6 — Fetches every thread on the board with one GET of the whole database, and keeps them in
    /// `messageThreads`, sorted by title. LESSONS.md §4.6 states the contract; `swift run lab hint Lesson4` gives
    /// hints, one at a time.
    ///
    /// - The request: a GET of the database root, `<baseURL>/.json`, through `session`, with no body.
    /// - The answer (200) is one JSON object, thread identifier → thread; `null` is the empty database: no threads.
    /// - Success: `messageThreads` becomes exactly the database's threads, sorted by title with String's `<`
    ///   (it replaces the list), and then `completion(nil)`.
    /// - Failure: a transport error goes to `completion` as it is; a status outside 200...299 as
    ///   `HTTPStatusError(statusCode:body:)` (found out before decoding); an answer that does not decode as the
    ///   decoding error. `messageThreads` stays as it was.
    /// - `completion` is called exactly once on every path, after the server answered.
    public func fetchMessageThreads(completion: @escaping (Error?) -> Void) {
        completion(NotImplemented("fetchMessageThreads(completion:)", section: "4.6"))
    }
}
