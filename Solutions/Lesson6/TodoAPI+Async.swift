// Lesson 6 — the async versions: the way new code is written today. Your exercises are the functions marked
// EXERCISE (LESSONS.md §6.6, §6.7).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension TodoAPI {
    /// EXERCISE 6.6 — `todo(id:completion:)` as an async function: the same request, and the same outcomes, except
    /// that it returns the todo or throws. It throws only `TodoAPIError`s (`.transport`, `.status`, `.decoding`),
    /// never URLSession's or JSONDecoder's own errors: the caller's `catch` switches over one type.
    public func todo(id: Int) async throws -> Todo {
        // BEGIN SOLUTION
        let url = baseURL.appendingPathComponent("todos").appendingPathComponent(String(id))
        return try await send(URLRequest(url: url))
        // END SOLUTION
        // STUB: throw NotImplemented("todo(id:)", section: "6.6")
    }

    /// EXERCISE 6.7 — `save(_:completion:)` as an async function: the same POST (no id in the body,
    /// `Content-Type: application/json`); returns the server's todo with its new id, or throws only `TodoAPIError`s.
    public func save(_ todo: Todo) async throws -> Todo {
        // BEGIN SOLUTION
        return try await send(creatingRequest(for: todo))
        // END SOLUTION
        // STUB: throw NotImplemented("save(_:)", section: "6.7")
    }

    // BEGIN SOLUTION
    /// Sends `request` and reads the answer as the completion versions do (`outcome`): every failure is a TodoAPIError.
    private func send(_ request: URLRequest) async throws -> Todo {
        let outcome: Result<Todo, TodoAPIError>
        do {
            let (data, response) = try await session.data(for: request)
            outcome = TodoAPI.outcome(data: data, response: response, error: nil)
        } catch {
            outcome = TodoAPI.outcome(data: nil, response: nil, error: error)
        }
        return try outcome.get()
    }
    // END SOLUTION
}
