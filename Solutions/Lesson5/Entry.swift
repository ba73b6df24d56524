// Lesson 5 — one journal entry. Your exercise here is its `Encodable`, marked EXERCISE. LESSONS.md §5.2 explains it.
import Foundation
import LabSupport

/// One journal entry: the store's object (Core Data's `NSManagedObject` in the original course).
///
/// In the database an entry lives at its identifier's key and looks like this:
/// ```
/// "2B1D8F3A-5C6E-4A7B-9D0E-1F2A3B4C5D6E" : {
///   "bodyText" : "Wrote my first PUT today.",
///   "identifier" : "2B1D8F3A-5C6E-4A7B-9D0E-1F2A3B4C5D6E",
///   "mood" : "🙂",
///   "timestamp" : 5.83940725E8,
///   "title" : "Day one"
/// }
/// ```
/// A class: the store and the app share each entry, and a sync changes it in place.
public final class Entry {
    public var title: String { didSet { store?.noteChange() } }
    public var bodyText: String { didSet { store?.noteChange() } }
    /// Encoded with JSONEncoder's default strategy: seconds since 1 January 2001.
    public var timestamp: Date { didSet { store?.noteChange() } }
    /// The entry's key in the database, chosen by the app: a UUID string.
    public var identifier: String { didSet { store?.noteChange() } }
    /// One of `Entry.moods`: "☹️", "😐" or "🙂".
    public var mood: String { didSet { store?.noteChange() } }
    /// The store the entry was inserted into (weak: the store owns its entries).
    public private(set) weak var store: EntryStore?

    /// The moods the app offers, saddest first.
    public static let moods = ["☹️", "😐", "🙂"]

    /// Makes an entry and inserts it into `store`, unsaved (like `Entry(context:)` in Core Data).
    public init(title: String, bodyText: String, mood: String = "😐", timestamp: Date = Date(),
                identifier: String = UUID().uuidString, store: EntryStore) {
        self.title = title
        self.bodyText = bodyText
        self.mood = mood
        self.timestamp = timestamp
        self.identifier = identifier
        self.store = store
        store.insert(self)
    }

    /// The entry's values now, as the store saves them.
    public var record: EntryStore.Record {
        EntryStore.Record(title: title, bodyText: bodyText, timestamp: timestamp, identifier: identifier, mood: mood)
    }
}

/// EXERCISE 5.2 — An entry encodes itself as the JSON object above: exactly the keys `title`, `bodyText`,
/// `timestamp`, `identifier` and `mood`, each holding that property's value, the timestamp as JSONEncoder writes a
/// `Date` by default (LESSONS.md §5.2). Entry is the store's class, so its `Encodable` is written by hand.
extension Entry: Encodable {
    // EXERCISE 5.2 (its first part) — The keys go here, as a `CodingKeys` enum. A case's raw value is the key in the
    // JSON, letter for letter.
    // BEGIN SOLUTION
    enum CodingKeys: String, CodingKey {
        case title
        case bodyText
        case timestamp
        case identifier
        case mood
    }
    // END SOLUTION

    public func encode(to encoder: Encoder) throws {
        // BEGIN SOLUTION
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(bodyText, forKey: .bodyText)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(mood, forKey: .mood)
        // END SOLUTION
        // STUB: throw NotImplemented("Entry.encode(to:)", section: "5.2")
    }
}
