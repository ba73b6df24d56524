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
        // BEGIN SOLUTION
        let url = baseURL.appendingPathExtension("json")
        session.dataTask(with: url) { data, response, error in
            if let error = error {
                completion(error)
                return
            }
            if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
                completion(HTTPStatusError(statusCode: http.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self)))
                return
            }
            let threadsByID: [String: MessageThread]
            do {
                threadsByID = try JSONDecoder().decode([String: MessageThread]?.self, from: data ?? Data()) ?? [:]
            } catch {
                completion(error)
                return
            }
            self.messageThreads = threadsByID.values.sorted { $0.title < $1.title }
            completion(nil)
        }.resume()
        // END SOLUTION
        // STUB: completion(NotImplemented("fetchMessageThreads(completion:)", section: "4.6"))
    }
}
