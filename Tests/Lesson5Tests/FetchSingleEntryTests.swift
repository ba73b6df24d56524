import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.7: `fetchSingleEntryFromPersistentStore(identifier:)` finds the store's entry with that identifier.
final class FetchSingleEntryTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.fetchSingle

    /// The journal's entries in the store; the sought one is in the middle, so "the first" is wrong.
    func fillStore() throws -> [Entry] {
        try Self.records(in: try Self.journal()).map { insert($0) }
    }

    func test_fetchSingle_findsTheEntryWithThatIdentifier() throws {
        let entries = try fillStore()
        let wanted = entries[3]
        let found = controller.fetchSingleEntryFromPersistentStore(identifier: wanted.identifier)
        guard let entry = found else {
            try store.save()
            if controller.fetchSingleEntryFromPersistentStore(identifier: wanted.identifier) === wanted {
                throw fail("""
                    fetchSingleEntryFromPersistentStore(identifier: "\(wanted.identifier)") returned nil while the entry \
                    ("\(wanted.title)") was not saved yet, and found it once the store was saved: it looks in \
                    `store.persisted`, what the last save wrote to disk. The store's entries are those of \
                    `store.fetch(where:)`, saved or not — the sync looks up entries it has just created, before its save: \
                    `store.fetch { $0.identifier == identifier }.first`. See LESSONS.md §5.7.
                    """)
            }
            throw fail("""
                fetchSingleEntryFromPersistentStore(identifier: "\(wanted.identifier)") returned nil, but the store \
                holds an entry with that identifier ("\(wanted.title)"). Compare each entry's `identifier` with the \
                identifier asked for: `store.fetch { $0.identifier == identifier }`. See LESSONS.md §5.7.
                """)
        }
        XCTAssertTrue(entry === wanted, """
            fetchSingleEntryFromPersistentStore(identifier: "\(wanted.identifier)") returned "\(entry.title)" \
            (identifier \(entry.identifier)), not "\(wanted.title)"\
            \(entry === entries.first ? ": the store's first entry, whatever its identifier" : ""). Return the entry \
            whose `identifier` equals the one asked for. See LESSONS.md §5.7.
            """)
    }

    func test_fetchSingle_unknownIdentifier_givesNil() throws {
        _ = try fillStore()
        let unknown = Self.localOnly.identifier
        let found = controller.fetchSingleEntryFromPersistentStore(identifier: unknown)
        XCTAssertNil(found, """
            fetchSingleEntryFromPersistentStore(identifier: "\(unknown)") returned "\(found?.title ?? "")" \
            (identifier \(found?.identifier ?? "")), but no entry has that identifier: return nil, so the sync knows \
            to create it. See LESSONS.md §5.7.
            """)
    }

    func test_fetchSingle_identifierThatIsNotAUUID_findsNoOtherEntry() throws {
        _ = try fillStore()
        // Keys another client made (Firebase's POST makes keys like these): not UUIDs, and not the same.
        let held = insert(EntryStore.Record(title: "From the web app", bodyText: "Written in the browser.",
                                            timestamp: Date(timeIntervalSinceReferenceDate: 5.84400000125E8),
                                            identifier: "-NqZ4kTq0web1", mood: "🙂"))
        let asked = "-NqZ4kTq0web2"
        let found = controller.fetchSingleEntryFromPersistentStore(identifier: asked)
        XCTAssertNil(found, """
            fetchSingleEntryFromPersistentStore(identifier: "\(asked)") returned "\(found?.title ?? "")" (identifier \
            \(found?.identifier ?? "")), but no entry has that identifier\(found === held ? """
            . Neither identifier is a UUID: compared as UUIDs, `UUID(uuidString:)` is nil for both, and `nil == nil` \
            is true — so every identifier that is not a UUID matches every other one. Compare the strings as they are \
            (or return nil when the identifier asked for is no UUID)
            """ : ""). See LESSONS.md §5.7.
            """)
    }

    func test_fetchSingle_createsNothing() throws {
        _ = try fillStore()
        let before = store.entries.count
        _ = controller.fetchSingleEntryFromPersistentStore(identifier: Self.localOnly.identifier)
        _ = controller.fetchSingleEntryFromPersistentStore(identifier: Self.changedID)
        XCTAssertEqual(store.entries.count, before, """
            The store held \(before) entries; after two lookups it holds \(store.entries.count). A lookup only \
            reads: it never makes an Entry. See LESSONS.md §5.7.
            """)
    }
}
