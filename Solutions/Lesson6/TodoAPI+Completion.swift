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
        // BEGIN SOLUTION
        let url = baseURL.appendingPathComponent("todos").appendingPathComponent(String(id))
        session.dataTask(with: url) { data, response, error in
            completion(TodoAPI.outcome(data: data, response: response, error: error))
        }.resume()
        // END SOLUTION
        // STUB: _ = NotImplemented("todo(id:completion:)", section: "6.4")
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
        // BEGIN SOLUTION
        let request: URLRequest
        do {
            request = try creatingRequest(for: todo)
        } catch {
            completion(.failure(error as? TodoAPIError ?? .unexpected(error)))
            return
        }
        session.dataTask(with: request) { data, response, error in
            completion(TodoAPI.outcome(data: data, response: response, error: error))
        }.resume()
        // END SOLUTION
        // STUB: _ = NotImplemented("save(_:completion:)", section: "6.5")
    }

    // BEGIN SOLUTION
    /// The POST that creates `todo`: the collection's URL, the todo as JSON (a nil id is left out: the server chooses
    /// it), and the Content-Type without which json-server ignores the body. Both versions of `save` send it.
    func creatingRequest(for todo: Todo) throws -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent("todos"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONEncoder().encode(todo)
        } catch {
            throw (error as? EncodingError).map(TodoAPIError.encoding) ?? .unexpected(error)
        }
        return request
    }

    /// What an answer means, written once for every call: the todo in a 2xx answer, or why there is none. Its
    /// checks come in the order that finds the real cause: no answer, then the status, then the body.
    static func outcome(data: Data?, response: URLResponse?, error: Error?) -> Result<Todo, TodoAPIError> {
        if let error = error {
            return .failure((error as? URLError).map(TodoAPIError.transport) ?? .unexpected(error))
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200...299).contains(status) else {
            return .failure(.status(status))
        }
        do {
            return .success(try JSONDecoder().decode(Todo.self, from: data ?? Data()))
        } catch let decodingError as DecodingError {
            return .failure(.decoding(decodingError))
        } catch {
            return .failure(.unexpected(error))
        }
    }
    // END SOLUTION
}
