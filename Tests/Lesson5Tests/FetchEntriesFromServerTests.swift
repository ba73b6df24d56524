import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.8: `fetchEntriesFromServer(completion:)` GETs the journal and brings it into the store without
/// duplicates: creates the missing, updates the changed, keeps local-only entries, saves once.
/// Entries are compared as sets (by identifier): a dictionary's order is luck.
final class FetchEntriesFromServerTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.sync

    // MARK: The request

    func test_sync_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try sync()
        _ = try onlyRequest(from: exercise)
    }

    func test_sync_GETsTheDatabaseRootDotJSON() throws {
        _ = try sync()
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.method == "GET" && request.path == "/" && request.hasJSONSuffix, """
            fetchEntriesFromServer sent \(request.summary). The entries are the database's top-level children: one \
            GET of the root, <baseURL>/.json, brings them all. See LESSONS.md §5.8.
            """)
    }

    func test_sync_callsCompletionOnceAfterTheServerAnswered() throws {
        setLatency(0.3)
        // The helper stops the test when completion comes before the answer, twice, or not at all.
        _ = try sync()
    }

    // MARK: Creating

    func test_sync_emptyStore_createsEveryEntryOfTheJournal() throws {
        try syncSuccessfully()
        try checkStore(holds: try Self.records(in: try Self.journal()), after: "one sync of the journal into an empty store")
    }

    func test_sync_savesTheStoreOnce() throws {
        try syncSuccessfully()
        let saves = store.saveCount
        XCTAssertEqual(saves, 1, saves == 0 ? """
            fetchEntriesFromServer created the journal's entries but never saved the store: they are lost when the \
            app quits (`store.persisted` is empty). Call `store.save()` once, after the loop. See LESSONS.md §5.8.
            """ : """
            fetchEntriesFromServer saved the store \(saves) times for one sync of 6 entries. Save once, after the \
            loop: a save per entry is slow, and a sync that fails half-way leaves half a journal. See LESSONS.md §5.8.
            """)
    }

    func test_sync_savesEveryEntryItCreated() throws {
        try syncSuccessfully()
        let persisted = store.persisted.sorted { $0.identifier < $1.identifier }
        XCTAssertTrue(persisted == (try Self.records(in: try Self.journal())), """
            After the sync the saved store (`store.persisted`) holds \(Self.describe(persisted)), not the journal's \
            6 entries: save after creating and updating them, not before. See LESSONS.md §5.8.
            """)
    }

    func test_sync_savesBeforeCallingCompletion() throws {
        try syncSuccessfully()
        let saves = atCompletion?.saves ?? 0
        XCTAssertGreaterThan(saves, 0, """
            When fetchEntriesFromServer called completion(nil) the store had not been saved yet (it was saved \
            later). The caller reads the store in its completion: save first, then call completion(nil). \
            See LESSONS.md §5.8.
            """)
    }

    // MARK: Syncing again

    func test_sync_secondAndThirdSync_createNoDuplicates() throws {
        try syncSuccessfully()
        try syncSuccessfully(setup: "a second sync")
        try syncSuccessfully(setup: "a third sync")
        try checkStore(holds: try Self.records(in: try Self.journal()), after: "three syncs of the same journal")
    }

    func test_sync_entryChangedOnTheServer_isUpdatedInPlace() throws {
        try syncSuccessfully()
        let before = store.entries.first { $0.identifier == Self.changedID }
        load(try Self.journalLater())
        try syncSuccessfully(setup: "a sync after the server changed")
        let changed = store.entries.filter { $0.identifier == Self.changedID }
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        guard changed.count == 1, let entry = changed.first else {
            throw fail("""
                After the server changed the mood of "雨の日" and the app synced again, the store holds that entry \
                \(changed.count) times: \(Self.describe(changed.map(\.record))). An entry the store already has (same \
                identifier) is updated in place, not created again: look it up first. See LESSONS.md §5.8.
                """)
        }
        XCTAssertTrue(entry.record == server, """
            The server changed the mood of "雨の日" to \(server.mood); after a sync the store's entry is still \
            \(Self.describe([entry.record])). When the store's entry differs from the server's, update it \
            (update(entry:with:)). See LESSONS.md §5.8.
            """)
        XCTAssertTrue(before.map { $0 === entry } ?? true, """
            After the second sync "雨の日" is a new Entry object, not the one the store had: update the existing \
            entry in place; replacing it loses what the app holds on to. See LESSONS.md §5.8.
            """)
    }

    func test_sync_entryAddedOnTheServer_isCreatedOnce() throws {
        try syncSuccessfully()
        load(try Self.journalLater())
        try syncSuccessfully(setup: "a sync after the server changed")
        try checkStore(holds: try Self.records(in: try Self.journalLater()), after: "a sync of the journal, then of its later export (one entry changed, one added)")
    }

    func test_sync_keepsLocalEntriesTheServerDoesNotHave() throws {
        let draft = insert(Self.localOnly)
        try syncSuccessfully()
        XCTAssertTrue(store.entries.contains { $0 === draft }, """
            The store held an entry the server does not have ("\(draft.title)", not sent yet); after the sync it is \
            gone. This sync only brings the server's entries in: it keeps the store's own (the course's choice — \
            they may not have been PUT yet). See LESSONS.md §5.8.
            """)
    }

    // MARK: The empty database

    func test_sync_emptyDatabase_isNoEntriesAndNoError() throws {
        insert(Self.localOnly)
        load(.null)
        try syncSuccessfully()
        try checkStore(holds: [Self.localOnly], after: "a sync of the empty database (`null`) into a store holding one local entry")
    }

    // MARK: Failures

    func test_sync_permissionDenied_passesHTTPStatusError401() throws {
        inject(.permissionDenied)
        try checkHTTPStatusError(try sync(), status: 401, from: exercise)
    }

    func test_sync_permissionDenied_leavesTheStoreAsItWas() throws {
        insert(Self.localOnly)
        inject(.permissionDenied)
        _ = try sync()
        checkStoreUntouched(after: "401 Permission denied")
    }

    func test_sync_transportError_passesTheURLErrorOn() throws {
        inject(.transportError(.networkConnectionLost))
        try checkTransportError(try sync(), from: exercise)
    }

    func test_sync_malformedBody_passesTheDecodingError() throws {
        inject(.malformedBody(#"{"2B1D8F3A-5C6E-4A7B-9D0E-1F2A3B4C5D6E" : {"bodyText" : "Wrote my fi"#))
        let error = try sync()
        XCTAssertTrue(error is DecodingError, """
            The emulator answered 200 with a body cut off in the middle, and fetchEntriesFromServer passed \
            \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)"). Pass the DecodingError that \
            JSONDecoder threw: `try?` turns a broken answer into "no entries". See LESSONS.md §5.8.
            """)
    }

    func test_sync_saveFails_passesTheStoresError() throws {
        store.failsSaves = true
        let error = try sync()
        XCTAssertTrue(error is EntryStore.SaveError, """
            The store's save failed (it threw EntryStore.SaveError), and fetchEntriesFromServer passed \
            \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)") to its completion. Call \
            `try store.save()` inside a do/catch and pass its error to completion. See LESSONS.md §5.8.
            """)
    }

    // MARK: Helpers

    /// Syncs and stops the test unless the sync succeeded, naming the mistake. `setup`: what the test needed this
    /// sync for, when it is not the sync under test (the message then starts "setup: ").
    func syncSuccessfully(setup: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        clearRequests()
        let answer = database
        let error = try sync(file: file, line: line)
        guard let error = error else { return }
        var why = "fetchEntriesFromServer passed an error to its completion: \(oneLine(error)). Requests: \(requestSummary)."
        if case DecodingError.typeMismatch(let type, let context) = error, context.codingPath.isEmpty, "\(type)".hasPrefix("Array") {
            why = """
                fetchEntriesFromServer decoded the journal as an array, but GET /.json answers an object keyed by \
                identifier ({"2B1D8F3A-…": {…}, …}): decode [String: EntryRepresentation] and take its values.
                """
        } else if answer.isNull, error is DecodingError {
            why = """
                The journal is empty, so GET /.json answered `null`, and fetchEntriesFromServer passed \
                \(oneLine(error)). `null` is a successful answer meaning "no entries": decode an optional dictionary \
                ([String: EntryRepresentation]?) and read nil as none.
                """
        } else if error is EntryStore.SaveError {
            why = "fetchEntriesFromServer passed \(oneLine(error)) although the store saves fine: save once."
        }
        throw fail("\(setup.map { "setup: \($0) needs a sync that succeeds, and it failed: " } ?? "")\(why) See LESSONS.md §5.8.", file: file, line: line)
    }

    /// Stops the test unless the store holds exactly `expected` (as a set, each once, every value).
    func checkStore(holds expected: [EntryStore.Record], after what: String,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let actual = storeRecords()
        guard actual != expected else { return }
        let counts = Dictionary(actual.map { ($0.identifier, 1) }, uniquingKeysWith: +)
        if let twice = counts.filter({ $0.value > 1 }).keys.sorted().first {
            let entry = actual.first { $0.identifier == twice }!
            throw fail("""
                After \(what) the store holds "\(entry.title)" \(counts[twice]!) times; the server has it once. Before \
                creating an entry, look for one with the same identifier (fetchSingleEntryFromPersistentStore) and \
                update that one instead. See LESSONS.md §5.8.
                """, file: file, line: line)
        }
        let missing = expected.filter { want in !actual.contains { $0.identifier == want.identifier } }
        let extra = actual.filter { have in !expected.contains { $0.identifier == have.identifier } }
        if !missing.isEmpty || !extra.isEmpty {
            throw fail("""
                After \(what) the store holds \(actual.count) entries; it should hold \(expected.count). Missing: \
                \(Self.describe(missing)); not expected: \(Self.describe(extra)). Create an entry for every entry on the \
                server the store does not have, and delete none. See LESSONS.md §5.8.
                """, file: file, line: line)
        }
        let wrong = actual.filter { have in !expected.contains(have) }
        let want = expected.filter { w in wrong.contains { $0.identifier == w.identifier } }
        throw fail("""
            After \(what) these entries' values differ from the server's: \(Self.describe(wrong)) (with timestamps \
            \(wrong.map { $0.timestamp.timeIntervalSinceReferenceDate })); the server has \(Self.describe(want)) (with \
            timestamps \(want.map { $0.timestamp.timeIntervalSinceReferenceDate })). Create a new entry with every value \
            of its representation, and update an entry the store already has when the server's differs \
            (update(entry:with:)). See LESSONS.md §5.8.
            """, file: file, line: line)
    }

    /// Fails unless a failed sync left the store as it was: one local entry, not saved.
    func checkStoreUntouched(after failure: String, file: StaticString = #filePath, line: UInt = #line) {
        let now = storeRecords()
        XCTAssertTrue(now == [Self.localOnly], """
            After a sync that failed (\(failure)) the store holds \(Self.describe(now)); it held only \
            \(Self.describe([Self.localOnly])). A failed sync knows nothing new: change nothing. See LESSONS.md §5.8.
            """, file: file, line: line)
        XCTAssertEqual(store.saveCount, 0, """
            After a sync that failed (\(failure)) the store was saved \(store.saveCount) time(s): a failed sync \
            changes nothing, so it has nothing to save. See LESSONS.md §5.8.
            """, file: file, line: line)
    }
}
