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
        var request = URLRequest(url: baseURL.appendingPathComponent("todos"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONEncoder().encode(todo)
        } catch let encodingError as EncodingError {
            throw TodoAPIError.encoding(encodingError)
        } catch {
            throw TodoAPIError.unexpected(error)
        }
        return try await send(request)
        // END SOLUTION
        // STUB: throw NotImplemented("save(_:)", section: "6.7")
    }

    // BEGIN SOLUTION
    /// Sends `request` and decodes the answer as a Todo; every failure becomes a TodoAPIError.
    private func send(_ request: URLRequest) async throws -> Todo {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let urlError as URLError {
            throw TodoAPIError.transport(urlError)
        } catch {
            throw TodoAPIError.unexpected(error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200...299).contains(status) else {
            throw TodoAPIError.status(status)
        }
        do {
            return try JSONDecoder().decode(Todo.self, from: data)
        } catch let decodingError as DecodingError {
            throw TodoAPIError.decoding(decodingError)
        } catch {
            throw TodoAPIError.unexpected(error)
        }
    }
    // END SOLUTION
}
