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
        throw NotImplemented("todo(id:)", section: "6.6")
    }

    /// EXERCISE 6.7 — `save(_:completion:)` as an async function: the same POST (no id in the body,
    /// `Content-Type: application/json`); returns the server's todo with its new id, or throws only `TodoAPIError`s.
    public func save(_ todo: Todo) async throws -> Todo {
        throw NotImplemented("save(_:)", section: "6.7")
    }

}
