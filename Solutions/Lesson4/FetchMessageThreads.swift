// Lesson 4 — fetch-and-map. Your exercise is the function marked EXERCISE. LESSONS.md §4 explains it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension MessageThreadController {
    /// EXERCISE 4.6 — Fetches every thread on the board with one GET of the whole database, and keeps them in
    /// `messageThreads`, sorted by title.
    ///
    /// 1. URL: the database root, `<baseURL>/.json` — `baseURL.appendingPathExtension("json")`.
    /// 2. `session.dataTask(with: url) { data, response, error in … }` (a plain GET: no method to set, no body).
    /// 3. Transport error → `completion(error)` and return.
    /// 4. Status outside 200...299 → `completion(HTTPStatusError(statusCode:body:))` and return — BEFORE decoding.
    /// 5. Decode the body as `[String: MessageThread]?` (keys: thread identifiers; `null`, the empty database,
    ///    decodes as nil: no threads). A decoding error → `completion(error)` and return.
    /// 6. Take the dictionary's `values`, sort them by `title` (`sorted { $0.title < $1.title }`), assign the result
    ///    to `messageThreads` (replacing what was there), then `completion(nil)`.
    /// 7. `resume()` the task. Call `completion` exactly once, on every path; change `messageThreads` on success only.
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
