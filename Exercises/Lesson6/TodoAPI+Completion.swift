// Lesson 6 — the completion-handler versions. Your exercises are the functions marked EXERCISE (LESSONS.md §6.4, §6.5).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension TodoAPI {
    /// EXERCISE 6.4 — Fetches the todo with this id: `GET <baseURL>/todos/<id>`, through `session`.
    ///
    /// - Success (a 2xx answer whose body decodes as a `Todo`): `.success(todo)`.
    /// - Failure, each as its own case of `TodoAPIError`: the data task's `error` → `.transport(URLError)`; a status
    ///   outside 200...299 (404: no such todo) → `.status(code)`, found out before decoding; a body that does not
    ///   decode → `.decoding(DecodingError)`, the decoder's own error.
    /// - `completion` is called exactly once on every path, after the server answered.
    public func todo(id: Int, completion: @escaping (Result<Todo, TodoAPIError>) -> Void) {
        _ = NotImplemented("todo(id:completion:)", section: "6.4")
    }

    /// EXERCISE 6.5 — Saves a new todo (its `id` is nil) and hands back the server's copy, with the id the server
    /// assigned: `POST <baseURL>/todos`, through `session`.
    ///
    /// - The request: the todo as JSON in the body, with no `id` (the server chooses it), and the header
    ///   `Content-Type: application/json` (without it the server ignores the body).
    /// - Success (any 2xx; this server answers 201 Created, others 200): `.success` with the todo decoded from the answer.
    /// - Failure: as in `todo(id:completion:)` — `.transport`, `.status`, `.decoding` (and `.encoding`, which a Todo
    ///   never causes).
    /// - `completion` is called exactly once on every path, after the server answered.
    public func save(_ todo: Todo, completion: @escaping (Result<Todo, TodoAPIError>) -> Void) {
        _ = NotImplemented("save(_:completion:)", section: "6.5")
    }

}
