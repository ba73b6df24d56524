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
        completion(NotImplemented("put(entry:completion:)", section: "5.3"))
    }

    /// EXERCISE 5.4 — Deletes `entry` on the server: DELETE of the same URL as `put(entry:)`,
    /// `<baseURL>/<identifier>.json`, with no body (LESSONS.md §5.4). Only that entry goes; the rest stay.
    ///
    /// - Success: `completion(nil)`. Failure: the `URLError` as it is, or `HTTPStatusError(statusCode:body:)`.
    /// - `completion` exactly once, on every path, after the server answered.
    public func deleteEntryFromServer(entry: Entry, completion: @escaping (Error?) -> Void = { _ in }) {
        completion(NotImplemented("deleteEntryFromServer(entry:completion:)", section: "5.4"))
    }

}
