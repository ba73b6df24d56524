// Lesson 5 — syncing the store with the server. Your exercises are marked EXERCISE. LESSONS.md §5.6–§5.8 explain them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension EntryController {
    /// EXERCISE 5.6 — Copies the server's values from `representation` into `entry`: title, bodyText, timestamp and
    /// mood (the identifier is the same already). It does not save: the sync saves once, at the end (LESSONS.md §5.6).
    public func update(entry: Entry, with representation: EntryRepresentation) {
        _ = NotImplemented("update(entry:with:)", section: "5.6")
    }

    /// EXERCISE 5.7 — The store's entry whose `identifier` is `identifier`, or nil when the store has none
    /// (LESSONS.md §5.7). Ask the store (`store.fetch(where:)`); do not create anything.
    public func fetchSingleEntryFromPersistentStore(identifier: String) -> Entry? {
        _ = NotImplemented("fetchSingleEntryFromPersistentStore(identifier:)", section: "5.7")
        return nil
    }

    /// EXERCISE 5.8 — Brings the server's entries into the store without duplicates (LESSONS.md §5.8).
    ///
    /// - One GET of the database root, `<baseURL>/.json`, through `session`: an object, identifier → entry, or
    ///   `null` (no entries).
    /// - For each entry on the server: when the store has none with its identifier, create one (`Entry(…, store:)`);
    ///   when the store's differs, update it in place (`update(entry:with:)`); when it is equal, leave it.
    ///   Entries only the store has stay (they may not have been sent yet).
    /// - Then save the store once, and call `completion(nil)`; a failed save goes to `completion`.
    /// - Failure: the `URLError` as it is, `HTTPStatusError(statusCode:body:)` for a status outside 200...299 (before
    ///   decoding), the `DecodingError` for an answer that does not decode — and the store untouched, not saved.
    /// - `completion` exactly once, on every path, after the server answered.
    public func fetchEntriesFromServer(completion: @escaping (Error?) -> Void = { _ in }) {
        completion(NotImplemented("fetchEntriesFromServer(completion:)", section: "5.8"))
    }
}
