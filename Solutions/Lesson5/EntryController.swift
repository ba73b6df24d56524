// Given: already written for you. The controller, and the app's own create, update and delete (LESSONS.md §5.1);
// your exercises are in EntryController+Server.swift and EntryController+Sync.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps the journal: entries in the local store, mirrored to a Firebase Realtime Database through its REST API.
public final class EntryController {
    /// The course's real database. The tests pass an emulator's URL instead, so they never touch the network.
    public static let firebaseURL = URL(string: "https://lambda-journal.firebaseio.com/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    /// The local store (Core Data's context in the original course).
    public let store: EntryStore

    public init(baseURL: URL = EntryController.firebaseURL, session: URLSession = .shared, store: EntryStore = EntryStore()) {
        self.baseURL = baseURL
        self.session = session
        self.store = store
    }

    /// The app writes a new entry: into the store (saved), then to the server with `put(entry:)`.
    @discardableResult
    public func createEntry(title: String, bodyText: String, mood: String) throws -> Entry {
        let entry = Entry(title: title, bodyText: bodyText, mood: mood, store: store)
        try store.save()
        put(entry: entry)
        return entry
    }

    /// The app edits an entry: in the store (saved), then on the server with `put(entry:)` — PUT replaces it.
    public func updateEntry(_ entry: Entry, title: String, bodyText: String, mood: String) throws {
        entry.title = title
        entry.bodyText = bodyText
        entry.mood = mood
        entry.timestamp = Date()
        try store.save()
        put(entry: entry)
    }

    /// The app deletes an entry: on the server with `deleteEntryFromServer(entry:)`, then from the store (saved).
    public func deleteEntry(_ entry: Entry) throws {
        deleteEntryFromServer(entry: entry)
        store.delete(entry)
        try store.save()
    }
}
