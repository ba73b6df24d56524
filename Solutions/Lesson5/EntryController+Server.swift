// Lesson 5 — writing one entry to the server. Your exercises are marked EXERCISE. LESSONS.md §5.3 and §5.4 explain them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension EntryController {
    /// EXERCISE 5.3 — Sends `entry` to the server with PUT, at the key the app chose: its identifier
    /// (LESSONS.md §5.3). The same call creates a new entry and replaces an edited one.
    ///
    /// - One request, through `session`: PUT `<baseURL>/<identifier>.json`, the entry as JSON (its `encode(to:)`)
    ///   in the body.
    /// - Success (status 200...299): `completion(nil)`. Failure: the transport `URLError` as it is, or
    ///   `HTTPStatusError(statusCode:body:)` for a status outside 200...299.
    /// - `completion` exactly once, on every path, after the server answered. Its default does nothing: the app
    ///   calls `put(entry: entry)` and carries on.
    public func put(entry: Entry, completion: @escaping (Error?) -> Void = { _ in }) {
        // BEGIN SOLUTION
        let url = baseURL.appendingPathComponent(entry.identifier).appendingPathExtension("json")
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        do {
            request.httpBody = try JSONEncoder().encode(entry)
        } catch {
            completion(error)
            return
        }
        send(request, completion: completion)
        // END SOLUTION
        // STUB: completion(NotImplemented("put(entry:completion:)", section: "5.3"))
    }

    /// EXERCISE 5.4 — Deletes `entry` on the server: DELETE of the same URL as `put(entry:)`,
    /// `<baseURL>/<identifier>.json`, with no body (LESSONS.md §5.4). Only that entry goes; the rest stay.
    ///
    /// - Success: `completion(nil)`. Failure: the `URLError` as it is, or `HTTPStatusError(statusCode:body:)`.
    /// - `completion` exactly once, on every path, after the server answered.
    public func deleteEntryFromServer(entry: Entry, completion: @escaping (Error?) -> Void = { _ in }) {
        // BEGIN SOLUTION
        let url = baseURL.appendingPathComponent(entry.identifier).appendingPathExtension("json")
        var request = URLRequest(url: url)
        request.httpMethod = "DELETE"
        send(request, completion: completion)
        // END SOLUTION
        // STUB: completion(NotImplemented("deleteEntryFromServer(entry:completion:)", section: "5.4"))
    }

    // BEGIN SOLUTION
    /// Sends a write (PUT, DELETE) and reports how it went: nil, the transport error, or HTTPStatusError.
    private func send(_ request: URLRequest, completion: @escaping (Error?) -> Void) {
        load(request) { result in
            if case .failure(let error) = result {
                completion(error)
            } else {
                completion(nil)
            }
        }
    }

    /// Sends `request` through `session` and hands on the body of a 2xx answer; otherwise the transport error, or
    /// HTTPStatusError for any other status (found out before anyone reads the body). The writes and the sync share it.
    func load(_ request: URLRequest, completion: @escaping (Result<Data, Error>) -> Void) {
        session.dataTask(with: request) { data, response, error in
            if let error = error {
                completion(.failure(error))
                return
            }
            if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
                completion(.failure(HTTPStatusError(statusCode: http.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self))))
                return
            }
            completion(.success(data ?? Data()))
        }.resume()
    }
    // END SOLUTION
}
