// Given: already written for you. A small in-memory store that stands in for Core Data, which Linux does not have.
import Foundation

/// The app's local database, playing the part of Core Data's managed object context where it matters here:
/// - an `Entry` is an object with identity, and making one with `Entry(…, store:)` inserts it (like `Entry(context:)`);
/// - `fetch(where:)` finds entries by a condition (like an `NSFetchRequest` with an `NSPredicate`);
/// - changes are kept in memory until `save()` writes them to the "disk" (`persisted`); each save is counted, and a
///   save can be made to fail, as a real one can.
/// Thread-safe: the sync runs on URLSession's queue while the app (or a test) reads on another.
public final class EntryStore {
    /// What `save()` writes for one entry: its values at that moment.
    public struct Record: Equatable {
        public let title: String
        public let bodyText: String
        public let timestamp: Date
        public let identifier: String
        public let mood: String

        public init(title: String, bodyText: String, timestamp: Date, identifier: String, mood: String) {
            self.title = title
            self.bodyText = bodyText
            self.timestamp = timestamp
            self.identifier = identifier
            self.mood = mood
        }
    }

    /// The error a failing save throws.
    public struct SaveError: Error, CustomStringConvertible {
        public var description: String { "the store could not save (the disk is full)" }
    }

    private let lock = NSLock()
    private var live: [Entry] = []
    private var disk: [Record] = []
    private var saves = 0
    private var changed = false
    private var failing = false

    public init() {}

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Every entry in the store, saved or not, in the order they were inserted.
    public var entries: [Entry] { locked { live } }

    /// The entries for which `condition` holds, in the order they were inserted.
    public func fetch(where condition: (Entry) -> Bool) -> [Entry] {
        entries.filter(condition)
    }

    /// Called by `Entry`'s initialiser: a new entry is in the store at once, unsaved.
    func insert(_ entry: Entry) {
        locked {
            live.append(entry)
            changed = true
        }
    }

    /// Removes `entry` from the store (saved on the next `save()`).
    public func delete(_ entry: Entry) {
        locked {
            live.removeAll { $0 === entry }
            changed = true
        }
    }

    /// Called by `Entry` when one of its values is set.
    func noteChange() {
        locked { changed = true }
    }

    /// True when something was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { locked { changed } }

    /// Writes every entry's values to `persisted`. Throws `SaveError` (and writes nothing) while `failsSaves` is set.
    public func save() throws {
        let records = entries.map(\.record)
        try locked {
            saves += 1
            if failing { throw SaveError() }
            disk = records
            changed = false
        }
    }

    /// How many times `save()` was called, failed saves included.
    public var saveCount: Int { locked { saves } }

    /// What the last successful save wrote: the store as it would be after the app restarts.
    public var persisted: [Record] { locked { disk } }

    /// While true, every `save()` throws `SaveError`.
    public var failsSaves: Bool {
        get { locked { failing } }
        set { locked { failing = newValue } }
    }
}
