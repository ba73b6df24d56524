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

    // MARK: A sync after a failed one
    // First in this file: state a failed sync leaves behind (a flag of the learner's own, kept in a static property)
    // spoils every later sync of the test run, whichever test runs it; this test says why.

    func test_sync_afterAFailedSync_theNextSyncAsksTheServerAgain() throws {
        inject(.permissionDenied)
        let failed = syncWithoutChecks()
        guard failed.called else { return }  // no completion: the failure tests say why
        let next = syncWithoutChecks()
        guard next.called, next.sent.isEmpty else { return }
        let before: String
        if !failed.sent.isEmpty {
            before = """
                The first sync asked the server, which refused (401 Permission denied), and it passed \
                \(failed.error.map(oneLine) ?? "nil"); the next one, with the server willing, called \
                completion(\(next.error.map(oneLine) ?? "nil")) at once, without sending any request.
                """
        } else if let earlier = Self.earlierFailedSync {
            before = """
                Neither sync of this test asked the server: each called its completion at once. An earlier sync of this \
                test run asked the server and failed (\(earlier)), and none has asked since.
                """
        } else {
            return  // it never asks: the tests of the request say why
        }
        throw fail("""
            After a sync that failed, fetchEntriesFromServer no longer asks the server. \(before) Something your sync \
            sets when it starts — a flag ("a sync is running", `isSyncing`), a lock — is reset only on its success \
            path, so after one failure the app never syncs again. Reset it on every path: a \
            `defer { isSyncing = false }` right after setting it (or do without: a second sync while one runs is \
            harmless, it merges by identifier). See LESSONS.md §5.8.
            """)
    }

    // MARK: The request

    func test_sync_sendsOneRequestThroughTheInjectedSession() throws {
        // The store also holds an entry the server does not have (the app's draft): the sync sends it nowhere.
        insert(Self.localOnly)
        _ = try sync()
        // A write the sync starts without waiting for it reaches the emulator a moment later.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        let writes = traffic.received.filter { $0.method != "GET" }
        if let draft = writes.first(where: { $0.path == "/\(Self.localOnly.identifier)" }) {
            throw fail("""
                fetchEntriesFromServer wrote to the server: besides its GET the emulator received \(draft.summary), \
                the entry only the store has (the app's draft "\(Self.localOnly.title)"). The sync only reads: one GET \
                of <baseURL>/.json, then the store. Sending the app's own entries is put(entry:)'s job, which the app \
                calls when it creates or edits one (createEntry, updateEntry) — not the sync's. See LESSONS.md §5.8.
                """)
        }
        if !writes.isEmpty {
            throw fail("""
                fetchEntriesFromServer wrote to the server: besides its GET the emulator received \
                \(writes.prefix(3).map(\.summary).joined(separator: "; "))\(writes.count > 3 ? " and \(writes.count - 3) more" : ""). \
                The sync only reads: one GET of <baseURL>/.json, then the store. Create the server's entries with \
                `Entry(…, store:)` and update them with update(entry:with:), not with the app's own createEntry or \
                updateEntry, which save and PUT (and createEntry makes a new identifier). See LESSONS.md §5.8.
                """)
        }
        _ = try onlyRequest(from: exercise)
    }

    func test_sync_GETsTheDatabaseRootDotJSON() throws {
        _ = try sync()
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.method == "GET" && request.path == "/" && request.hasJSONSuffix, """
            \(Self.doubledDot(request))fetchEntriesFromServer sent \(request.summary). The entries are the database's top-level children: one \
            GET of the root, <baseURL>/.json, brings them all. See LESSONS.md §5.8.
            """)
        XCTAssertTrue(request.query["print"] != "silent", """
            fetchEntriesFromServer sent \(request.summary): with `print=silent` Firebase does what was asked and answers \
            204 No Content, with no body — right for a write, whose answer nobody reads, but the sync needs the journal \
            itself. GET <baseURL>/.json without that query (`print=pretty` is fine: the same journal, indented). See \
            LESSONS.md §5.8.
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

    func test_sync_entryWithAMoodTheAppDoesNotOffer_isCreatedAsItIs() throws {
        let journal = try Self.journalWithOtherMood()
        load(journal)
        try syncSuccessfully()
        try checkStore(holds: try Self.records(in: journal),
                       after: "one sync into an empty store of the journal plus an entry with the mood \(Self.spelled(Self.otherMood.mood))")
    }

    /// Loads the recorded journal with `record` added, as the server holds it, and returns it.
    func loadJournal(adding record: EntryStore.Record) throws -> JSONValue {
        var entries = try Self.journal().objectValue ?? [:]
        entries[record.identifier] = Self.json(of: record)
        load(.object(entries))
        return .object(entries)
    }

    func test_sync_entryWithAnEmptyTitle_isCreatedAsItIs() throws {
        let journal = try loadJournal(adding: Self.untitled)
        try syncSuccessfully()
        let others = try Self.records(in: journal).filter { $0.identifier != Self.untitled.identifier }
        if !store.entries.contains(where: { $0.identifier == Self.untitled.identifier }),
           others.allSatisfy({ want in store.entries.contains { $0.identifier == want.identifier } }) {
            throw fail("""
                The server held the journal and one more entry, whose title is empty (text "\(Self.untitled.bodyText)"); \
                the sync created every entry but that one. An empty title is a value like any other — the user wrote \
                only a text — and the sync does not judge the server's values: a check of your own \
                (`guard !representation.title.isEmpty else { continue }`) loses that entry for good, sync after sync. \
                See LESSONS.md §5.8.
                """)
        }
        if let created = store.entries.first(where: { $0.identifier == Self.untitled.identifier }), created.title != "",
           created.bodyText == Self.untitled.bodyText {
            throw fail("""
                The server held an entry whose title is empty (text "\(Self.untitled.bodyText)"); the sync created it \
                with the title "\(created.title)". The sync does not judge the server's values, nor dress them: a \
                placeholder ("Untitled", what the list may show for it) is a title the user never wrote, and the entry \
                then differs from the server's at every sync. Create it with the empty title, as it is. See LESSONS.md §5.8.
                """)
        }
        try checkStore(holds: try Self.records(in: journal),
                       after: "one sync into an empty store of the journal plus an entry with an empty title")
    }

    func test_sync_entryWithWhitespaceAroundItsText_isCreatedAsItIs() throws {
        let journal = try loadJournal(adding: Self.typed)
        try syncSuccessfully()
        if let created = store.entries.first(where: { $0.identifier == Self.typed.identifier }),
           created.title != Self.typed.title || created.bodyText != Self.typed.bodyText,
           created.title == Self.typed.title.trimmingCharacters(in: .whitespacesAndNewlines)
            || created.bodyText == Self.typed.bodyText.trimmingCharacters(in: .whitespacesAndNewlines) {
            throw fail("""
                The server held an entry whose title is \(String(reflecting: Self.typed.title)) and whose bodyText ends \
                with a newline, \(String(reflecting: String(Self.typed.bodyText.suffix(8)))) at its end; the sync created \
                it with the title \(String(reflecting: created.title)) and a bodyText that ends \
                \(String(reflecting: String(created.bodyText.suffix(8)))). The sync copies the server's values as they \
                are: trimming whitespace and newlines changes what the user wrote, and the entry then differs from the \
                server's at every sync. See LESSONS.md §5.8.
                """)
        }
        try checkStore(holds: try Self.records(in: journal),
                       after: "one sync into an empty store of the journal plus an entry whose text ends with a newline")
    }

    func test_sync_entryWithALowerCaseIdentifier_isCreatedUnderItAsItIs() throws {
        let journal = try loadJournal(adding: Self.lowerCaseIdentifier)
        try syncSuccessfully()
        try checkStore(holds: try Self.records(in: journal), after: """
            one sync into an empty store of the journal plus an entry the Android app wrote, its identifier in lower case
            """)
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
        let journal = try Self.records(in: try Self.journal())
        if let absent = absenceDiagnosis(expected: journal, after: "one sync of the journal into an empty store") {
            throw fail("\(absent) (This test checks that what the sync created is saved: it needs them created first.)")
        }
        let persisted = store.persisted.sorted { $0.identifier < $1.identifier }
        if persisted != journal, let seen = atCompletion, seen.records.count < journal.count {
            throw fail("""
                When fetchEntriesFromServer called completion(nil) the store held \(seen.records.count) of the \
                journal's \(journal.count) entries, and it had been saved \(seen.saves) time(s); the entries came \
                later, and the saved store (`store.persisted`) holds \(persisted.count). The merge ran after the save \
                and the completion: it was sent elsewhere — a `DispatchQueue.main.async { … }` block, or a \
                `Task { … }` (`Task { @MainActor in … }`) that nothing awaits — and the save and completion(nil) did \
                not wait for it. Put the merge, the save and the completion in the same block (or `await` the \
                merge), in that order. See LESSONS.md §5.8.
                """)
        }
        XCTAssertTrue(persisted == journal, """
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

    func test_sync_twoSyncsAtOnce_eachCallsItsCompletion() throws {
        // The app syncs at launch, and again when the user pulls to refresh before the first sync answered: two calls,
        // two completions, each once — and, merged by identifier, no duplicates.
        let (first, second) = (CompletionCounter<Error?>(), CompletionCounter<Error?>())
        controller.fetchEntriesFromServer { first.record($0) }
        controller.fetchEntriesFromServer { second.record($0) }
        let until = Date(timeIntervalSinceNow: CompletionTimeouts.normal)
        while first.calls.isEmpty || second.calls.isEmpty, Date() < until {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        settle()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))  // a completion called twice comes now
        if first.calls.count != 1 || second.calls.count != 1 {
            func told(_ counter: CompletionCounter<Error?>) -> String {
                let count = counter.calls.count
                return count == 0 ? "never came" : count == 1 ? "came once" : "came \(count) times"
            }
            throw fail("""
                fetchEntriesFromServer was called twice in a row, the second time before the first sync's answer came \
                (the app syncs at launch, and the user pulls to refresh): the first call's completion \(told(first)), \
                the second's \(told(second)). Every call gets its completion exactly once. A sync that returns at once \
                when another is running (`guard !isSyncing else { return }`) must still call its completion; a \
                completion kept in a property until the answer comes is replaced by the next call's. Keep each call's \
                completion in its own closure — or do without the flag: two syncs at once are harmless, they merge by \
                identifier. See LESSONS.md §5.8.
                """)
        }
        let counts = Dictionary(store.entries.map { ($0.identifier, 1) }, uniquingKeysWith: +)
        if let twice = counts.filter({ $0.value > 1 }).keys.sorted().first,
           let entry = store.entries.first(where: { $0.identifier == twice }) {
            // One sync after another creates no duplicates (test_sync_secondAndThirdSync_createNoDuplicates): these
            // come from the two merges not seeing each other's entries.
            throw fail("""
                Two syncs started one right after the other, each called its completion once, and the store now holds \
                "\(entry.title)" \(counts[twice]!) times (the server has it once): the second merge did not see the \
                entries the first had just created. Does your sync look the store's entries up in a snapshot taken \
                when fetchEntriesFromServer was called, before the request (`let existing = store.entries`, or a \
                dictionary by identifier made then)? By the time the answer comes, that snapshot is stale. Look each \
                entry up in the store when the answer is there, in the handler (fetchSingleEntryFromPersistentStore). \
                See LESSONS.md §5.8.
                """)
        }
        try checkStore(holds: try Self.records(in: try Self.journal()), after: "two syncs started one right after the other")
    }

    func test_sync_anEntryTheStoreLacks_isCreatedWhereverItComesInTheAnswer() throws {
        // The journal's six entries on the server; the store holds one of them, equal to the server's, and lacks the
        // five others. A loop that stops at an equal entry creates only the lacking entries that come before it in the
        // answer's order — a dictionary's, which changes from one decoding to the next. So up to twelve syncs, the store
        // holding each entry in turn, until one entry was created by one sync and not by another: for a loop that
        // stops, that takes a few syncs, and twelve go by without it about once in a billion runs (a check that
        // refuses an entry refuses it in every sync, and is told apart).
        let journal = try Self.records(in: try Self.journal())
        setLatency(0.01)
        // By identifier: the entry the store held in a sync that created it, and in one that did not.
        var outcomes: [String: (made: EntryStore.Record?, missed: EntryStore.Record?)] = [:]
        for round in 0..<12 where !outcomes.values.contains(where: { $0.made != nil && $0.missed != nil }) {
            let held = journal[round % journal.count]
            store.entries.forEach { store.delete($0) }
            insert(held)
            try syncSuccessfully(setup: "a sync of the journal into a store holding one of its entries")
            for lacking in journal where lacking.identifier != held.identifier {
                if store.entries.contains(where: { $0.identifier == lacking.identifier }) {
                    outcomes[lacking.identifier, default: (nil, nil)].made = held
                } else {
                    outcomes[lacking.identifier, default: (nil, nil)].missed = held
                }
            }
        }
        guard let (identifier, seen) = outcomes.first(where: { $0.value.made != nil && $0.value.missed != nil }),
              let lacking = journal.first(where: { $0.identifier == identifier }),
              let made = seen.made, let missed = seen.missed else { return }
        throw fail("""
            The server held the journal's six entries; the store held one of them, equal to the server's, and lacked \
            the others. One sync created "\(lacking.title)" (the store holding "\(made.title)"), another did not \
            (the store holding "\(missed.title)"): the sync stops at an equal entry, and which entries come after it \
            changes with the answer's order (a dictionary's, which changes from run to run). Does your loop `break` \
            when an entry is already equal (`guard entry != representation else { break }`)? `break` ends the whole \
            loop, so the entries after it are neither updated nor created: `continue` goes on to the next one. See \
            LESSONS.md §5.8.
            """)
    }

    func test_sync_entryChangedOnTheServer_isUpdatedInPlace() throws {
        try syncSuccessfully()
        let first = try Self.records(in: try Self.journal()).filter { $0.identifier == Self.changedID }
        if let absent = absenceDiagnosis(expected: first, after: "the first sync") {
            throw fail("\(absent) (This test needs it in the store, to see the next sync update it.)")
        }
        let before = store.entries.first { $0.identifier == Self.changedID }
        load(try Self.journalLater())
        try syncSuccessfully(setup: "a sync after the server changed")
        let changed = store.entries.filter { $0.identifier == Self.changedID }
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        if changed.isEmpty, let absent = absenceDiagnosis(expected: [server], after: "a sync after the server changed its mood") {
            throw fail(absent)
        }
        guard changed.count == 1, let entry = changed.first else {
            throw fail("""
                After the server changed the mood of "雨の日" and the app synced again, the store holds that entry \
                \(changed.count) times: \(Self.describe(changed.map(\.record))). An entry the store already has (same \
                identifier) is updated in place, not created again: look it up first. See LESSONS.md §5.8.
                """)
        }
        let now = entry.record
        if now.mood == server.mood, now != server {
            let differ = [("title", now.title == server.title), ("bodyText", now.bodyText == server.bodyText),
                          ("timestamp", now.timestamp == server.timestamp)].filter { !$0.1 }.map(\.0)
            let stampedNow = abs(now.timestamp.timeIntervalSinceNow) < 60 ? """
                 Its timestamp is the time of the sync: the app's own updateEntry stamps an edit with Date() (and \
                saves and PUTs it) — the sync copies the server's values with update(entry:with:) instead.
                """ : ""
            throw fail("""
                The server changed the mood of "雨の日" to \(server.mood); after a sync the store's entry has that mood, \
                but its \(differ.joined(separator: ", ")) \(differ.count == 1 ? "is" : "are") not the server's: \
                \(Self.describe([now])) with timestamp \(now.timestamp.timeIntervalSinceReferenceDate), the server's \
                \(server.timestamp.timeIntervalSinceReferenceDate).\(stampedNow) An entry that differs takes every \
                value of the server's, as they are. See LESSONS.md §5.8.
                """)
        }
        XCTAssertTrue(now == server, """
            The server changed the mood of "雨の日" to \(server.mood)\(now.timestamp == server.timestamp ? " and nothing else (its timestamp is the same)" : ""); \
            after a sync the store's entry is still \(Self.describe([now])). When the store's entry differs from the \
            server's in any value — decide with `entry != representation`, which compares them all, not the \
            timestamps alone — update it (update(entry:with:)). See LESSONS.md §5.8.
            """)
        XCTAssertTrue(before.map { $0 === entry } ?? true, """
            After the second sync "雨の日" is a new Entry object, not the one the store had: update the existing \
            entry in place; replacing it loses what the app holds on to. See LESSONS.md §5.8.
            """)
    }

    func test_sync_entryChangedWhileTheServerHoldsAsManyEntriesAsTheStore_isUpdated() throws {
        try syncSuccessfully(setup: "a first sync")
        // The server changes one entry's mood, and nothing else: it still holds the store's 6 entries.
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        load(.object((try Self.journal().objectValue ?? [:]).merging([Self.changedID: Self.json(of: server)]) { $1 }))
        try syncSuccessfully(setup: "a sync after the server changed one entry's mood")
        let now = store.entries.filter { $0.identifier == Self.changedID }.map(\.record)
        XCTAssertTrue(now == [server], """
            The server changed the mood of "雨の日" to \(server.mood) and nothing else: it holds as many entries as \
            the store (\(store.entries.count)), the same identifiers. After a sync the store holds \(Self.describe(now)). \
            Does your sync skip the merge when the counts are the same (`representations.count == store.entries.count`: \
            "nothing new"), or look only for identifiers it lacks? The same entries can hold new values: compare each \
            one with its representation (`!=`) on every sync, and update it when it differs. See LESSONS.md §5.8.
            """)
    }

    func test_sync_anUpdateAlone_isSaved() throws {
        try syncSuccessfully(setup: "a first sync")
        // The server changes one entry's mood, and nothing else: the next sync updates, and creates nothing.
        var changed = try Self.journal()
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        changed = .object((changed.objectValue ?? [:]).merging([Self.changedID: Self.json(of: server)]) { $1 })
        load(changed)
        try syncSuccessfully(setup: "a sync after the server changed one entry's mood")
        guard let entry = store.entries.first(where: { $0.identifier == Self.changedID }), entry.record == server else {
            throw fail("""
                setup: after the server changed the mood of "雨の日" to \(server.mood), a sync should update it; the store \
                holds \(Self.describe(store.entries.filter { $0.identifier == Self.changedID }.map(\.record))). \
                test_sync_entryChangedWhileTheServerHoldsAsManyEntriesAsTheStore_isUpdated says what is wrong.
                """)
        }
        let saved = store.persisted.first { $0.identifier == Self.changedID }
        XCTAssertTrue(saved == server, """
            A sync that only updated an entry ("雨の日", its mood now \(server.mood)) and created none never saved the \
            update: the saved store (`store.persisted`) still has it as \(saved.map { Self.describe([$0]) } ?? "(none)"), \
            and it is lost when the app quits. Save after every sync that succeeds — or whenever the store has \
            changes (`store.hasChanges`) — not only when something was created. See LESSONS.md §5.8.
            """)
    }

    func test_sync_entryEditedLaterInTheStore_takesEveryValueOfTheServers() throws {
        let server = try Self.records(in: try Self.journal()).first { $0.identifier == Self.changedID }!
        // The app's copy differs in every value and is newer: edited in the app, not sent yet.
        let local = EntryStore.Record(title: "Rainy day, edited offline", bodyText: "Changed my mind about the rain.",
                                      timestamp: server.timestamp.addingTimeInterval(3_600),
                                      identifier: server.identifier, mood: "😐")
        let entry = insert(local)
        try syncSuccessfully()
        let copies = store.entries.filter { $0.identifier == server.identifier }
        guard copies.count == 1, copies.first === entry else {
            let lookUp = copies.count > 1 ? """
                Look the store's entry up by its identifier (fetchSingleEntryFromPersistentStore) — not by its title or \
                its other values, which the app may have changed — among the store's entries, saved or not \
                (store.fetch(where:)): this one was not saved yet, so `store.persisted`, what the last save wrote, does \
                not have it. Update it in place (update(entry:with:)); create only when the store has none.
                """ : "Update the store's entry in place (update(entry:with:)); create only when the store has none."
            throw fail("""
                The store held "\(local.title)" with the identifier of the server's "\(server.title)"; after the sync \
                it holds \(copies.count) entries with that identifier: \(Self.describe(copies.map(\.record))). \
                \(lookUp) See LESSONS.md §5.8.
                """)
        }
        let now = entry.record
        if now == local {
            throw fail("""
                fetchEntriesFromServer left an entry that differs from the server's as the store had it: "\(local.title)" \
                is newer than the server's "\(server.title)" (by an hour), and the sync must still update it. In this \
                course's sync the server wins: every entry that differs (`!=`) takes the server's values, whatever the \
                timestamps say. See LESSONS.md §5.8.
                """)
        }
        let missed = [("title", now.title == server.title), ("bodyText", now.bodyText == server.bodyText),
                      ("timestamp", now.timestamp == server.timestamp), ("mood", now.mood == server.mood)]
            .filter { !$0.1 }.map(\.0)
        XCTAssertTrue(missed.isEmpty, """
            fetchEntriesFromServer did not copy the server's \(missed.joined(separator: ", ")) into the store's \
            "\(server.title)", an entry that differed in every value: it is now \(Self.describe([now])) with timestamp \
            \(now.timestamp.timeIntervalSinceReferenceDate); the server's is \(Self.describe([server])) with timestamp \
            \(server.timestamp.timeIntervalSinceReferenceDate). An entry that differs takes every value of the \
            server's: title, bodyText, timestamp and mood (update(entry:with:) copies them all). See LESSONS.md §5.8.
            """)
    }

    func test_sync_entryAddedOnTheServer_isCreatedOnce() throws {
        try syncSuccessfully()
        load(try Self.journalLater())
        try syncSuccessfully(setup: "a sync after the server changed")
        try checkStore(holds: try Self.records(in: try Self.journalLater()), after: "a sync of the journal, then of its later export (one entry changed, one added)")
    }

    func test_sync_keepsLocalEntriesTheServerDoesNotHave() throws {
        // The app created it and saved it, as createEntry does; its PUT has not reached the server (it failed, or is
        // still on its way). Saved or not, the store's own entries stay.
        let draft = insert(Self.localOnly)
        try store.save()
        try syncSuccessfully()
        XCTAssertTrue(store.entries.contains { $0 === draft }, """
            The store held an entry the server does not have ("\(draft.title)", saved in the store, not sent yet); \
            after the sync it is gone. This sync only brings the server's entries in: it keeps the store's own, saved \
            or not (the course's choice — they may not have been PUT yet: a PUT that failed leaves a saved entry the \
            server never got). See LESSONS.md §5.8.
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

    func test_sync_serverError_passesHTTPStatusError500() throws {
        inject(.internalError)
        try checkHTTPStatusError(try sync(), status: 500, from: exercise)
        try checkAnotherRefusal(from: exercise) { try sync() }
    }

    func test_sync_transportError_passesTheURLErrorOn() throws {
        inject(.transportError(.networkConnectionLost))
        try checkTransportError(try sync(), from: exercise)
    }

    func test_sync_malformedBody_passesTheDecodingError() throws {
        inject(.malformedBody(#"{"2B1D8F3A-5C6E-4A7B-9D0E-1F2A3B4C5D6E" : {"bodyText" : "Wrote my fi"#))
        let error = try sync()
        if let error = error, !(error is DecodingError) {
            throw fail("""
                The emulator answered 200 with a body cut off in the middle, and fetchEntriesFromServer passed \
                \(type(of: error)): \(oneLine(error)). Pass the DecodingError that JSONDecoder threw, as it is — not an \
                error of your own in its place (an enum case like `.noDecode`, an NSError): the DecodingError says what \
                did not decode, and where. See LESSONS.md §5.8.
                """)
        }
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

    func test_sync_anEntryThatLacksAKey_isNeitherSkippedNorHalfMerged() throws {
        // One entry of the answer lacks its mood (edited by hand in Firebase's console). A representation that
        // requires every key does not decode it: then the sync fails with the DecodingError, the store untouched. One
        // with defaults (optionals, decodeIfPresent) decodes it: then the sync creates it too. Never success without it.
        var entries = try Self.journal().objectValue ?? [:]
        var broken = entries[Self.changedID]?.objectValue ?? [:]
        broken["mood"] = nil
        entries[Self.changedID] = .object(broken)
        load(.object(entries))
        let error = try sync()
        let created = store.entries.count
        let title = broken["title"]?.stringValue ?? ""
        if error == nil {
            XCTAssertTrue(store.entries.contains { $0.identifier == Self.changedID }, """
                One entry the server holds, "\(title)" (\(Self.changedID)), has no `mood`; fetchEntriesFromServer \
                passed nil (success) and created \(created) entries, not that one: it skipped the entry that did not \
                decode (a `try?` per entry, a lossy wrapper, a compactMap). That entry is then missing from the store for \
                good, sync after sync, and nobody is told. An answer that does not decode is a failure: pass the \
                DecodingError, and leave the store as it was, unsaved. See LESSONS.md §5.8.
                """)
            return
        }
        XCTAssertTrue(error is DecodingError && created == 0 && store.saveCount == 0, """
            One entry the server holds, "\(title)" (\(Self.changedID)), has no `mood`, so the answer does not decode \
            as [String: EntryRepresentation]; fetchEntriesFromServer passed \(type(of: error!)): \(oneLine(error!)), \
            created \(created) entries and saved \(store.saveCount) times. An answer that does not decode is a failure: \
            pass the DecodingError, and leave the store as it was, unsaved (decode the whole answer before changing the \
            store). See LESSONS.md §5.8.
            """)
    }

    // MARK: Helpers

    /// Syncs and stops the test unless the sync succeeded, naming the mistake. `setup`: what the test needed this
    /// sync for, when it is not the sync under test (the message then starts "setup: ").
    func syncSuccessfully(setup: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        clearRequests()
        let answer = database
        let error = try sync(file: file, line: line)
        guard let error = error else {
            if let crossed = crossedValues(answer: answer) {
                throw fail("\(setup.map { "setup: \($0): " } ?? "")\(crossed) See LESSONS.md §5.8.", file: file, line: line)
            }
            return
        }
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
        } else if error is DecodingError, let decodingWhy = Self.decodingDiagnosis(error, answer: answer) {
            why = decodingWhy
        }
        throw fail("\(setup.map { "setup: \($0) needs a sync that succeeds, and it failed: " } ?? "")\(why) See LESSONS.md §5.8.", file: file, line: line)
    }

    /// After a sync that succeeded: a store entry that holds another server entry's title and bodyText instead of its
    /// own — entries paired with representations by position (a zip of two lists in different orders), not by
    /// identifier. nil when every entry holds its own values (or values of no other entry).
    func crossedValues(answer: JSONValue) -> String? {
        guard let server = try? Self.records(in: answer) else { return nil }
        for entry in store.entries.map(\.record) {
            guard let own = server.first(where: { $0.identifier == entry.identifier }), entry != own,
                  let other = server.first(where: { $0.identifier != entry.identifier && $0.title == entry.title
                                                    && $0.bodyText == entry.bodyText }) else { continue }
            return """
                After a sync the store's entry \(entry.identifier) holds another entry's values: its title and bodyText \
                are those of "\(other.title)" (identifier \(other.identifier)), not its own "\(own.title)". The sync \
                updated another entry than the representation's: one paired with it by position (a zip, or two lists \
                walked side by side — a dictionary's order is luck, and not the store's), or one that is not the entry \
                it looked up (`store.entries.first`). Pair them by identifier: look up each representation's entry \
                (fetchSingleEntryFromPersistentStore(identifier:)) and update that very one.
                """
        }
        return nil
    }

    /// Why the sync's DecodingError for `answer` (the journal as the server sent it) is the learner's: their
    /// EntryRepresentation cannot decode one of its entries (named, with the key), or it can — a plain JSONDecoder
    /// decodes the very answer — and the sync's decoder is set up otherwise (a date strategy). nil when the answer is
    /// not an object of entries.
    static func decodingDiagnosis(_ error: Error, answer: JSONValue) -> String? {
        guard let entries = answer.objectValue else { return nil }
        for (_, json) in entries.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try JSONDecoder().decode(EntryRepresentation.self, from: json.jsonData)
            } catch let entryError {
                let mood = json["mood"].stringValue.map { Entry.moods.contains($0) ? "" : " (its mood, \(spelled($0)), is not one the app offers: the representation keeps any mood the server holds)" } ?? ""
                return "fetchEntriesFromServer passed \(oneLine(error)): your EntryRepresentation cannot decode an entry the server holds\(mood). \(explain(entryError, decoding: json))"
            }
        }
        let path: [CodingKey]
        var expectedAContainer = false  // an object or array where the data has a value: decoded a level too deep
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            path = context.codingPath
            expectedAContainer = ["Dictionary", "Array"].contains { "\(type)".hasPrefix($0) }
        case DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            path = context.codingPath
        default:
            path = []
        }
        if path.last?.stringValue == "timestamp", !expectedAContainer {
            return """
                fetchEntriesFromServer passed \(oneLine(error)), yet a plain JSONDecoder() decodes this very answer as \
                [String: EntryRepresentation]: the sync's decoder reads the timestamp otherwise. A dateDecodingStrategy \
                (.iso8601, .secondsSince1970, a formatter) does not match the journal, whose timestamps are numbers of \
                seconds since 1 January 2001 — what a plain JSONDecoder reads as a Date. Decode with JSONDecoder() as it \
                comes.
                """
        }
        return """
            fetchEntriesFromServer passed \(oneLine(error)), yet a plain JSONDecoder() decodes this very answer as \
            [String: EntryRepresentation]: the sync decodes it as something else. GET /.json answers one object, each \
            key an identifier and each value an entry: decode [String: EntryRepresentation]? (null is no entries) with \
            JSONDecoder() as it comes, and take its values.
            """
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
                creating an entry, look for one with the same identifier (fetchSingleEntryFromPersistentStore): create \
                only when there is none — update one that differs, and leave an equal one alone (`if let entry = …, \
                entry != representation { update } else { create }` creates the equal ones again). See LESSONS.md §5.8.
                """, file: file, line: line)
        }
        if let absent = absenceDiagnosis(expected: expected, after: what) {
            throw fail(absent, file: file, line: line)
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
        if let shifted = Self.timestampShift(store: wrong, server: want) {
            throw fail("After \(what) \(shifted) See LESSONS.md §5.8.", file: file, line: line)
        }
        throw fail("""
            After \(what) these entries' values differ from the server's: \(Self.describe(wrong)) (with timestamps \
            \(wrong.map { $0.timestamp.timeIntervalSinceReferenceDate })); the server has \(Self.describe(want)) (with \
            timestamps \(want.map { $0.timestamp.timeIntervalSinceReferenceDate })). Create a new entry with every value \
            of its representation, and update an entry the store already has when the server's differs \
            (update(entry:with:)). See LESSONS.md §5.8.
            """, file: file, line: line)
    }

    /// When the store's entries differ from the server's only in their timestamps, each by the 31 years between 1970
    /// and 2001, or each the server's read as milliseconds since 1970: what happened, in words (the journal's seconds
    /// since 2001 read as seconds, or milliseconds, since 1970); nil otherwise.
    static func timestampShift(store: [EntryStore.Record], server: [EntryStore.Record]) -> String? {
        let pairs = store.compactMap { have in server.first { $0.identifier == have.identifier }.map { (have, $0) } }
        guard !pairs.isEmpty, pairs.allSatisfy({ $0.title == $1.title && $0.bodyText == $1.bodyText && $0.mood == $1.mood }) else { return nil }
        let years = Date.timeIntervalBetween1970AndReferenceDate
        let (have, want) = pairs[0]
        if pairs.allSatisfy({ abs($0.timestamp.timeIntervalSince1970 - $1.timestamp.timeIntervalSinceReferenceDate / 1000) < 0.01 }) {
            return """
                every timestamp the sync wrote is in January 1970: "\(want.title)" has \(have.timestamp) in the store \
                and \(want.timestamp) on the server. The journal's numbers (\(want.timestamp.timeIntervalSinceReferenceDate)) \
                are seconds since 1 January 2001, and the sync read them as milliseconds since 1970 (a \
                dateDecodingStrategy .millisecondsSince1970, the unit of Firebase's own server timestamps, which this \
                journal does not use). Decode with a plain JSONDecoder(), which reads them as a Date.
                """
        }
        guard pairs.allSatisfy({ abs($1.timestamp.timeIntervalSince($0.timestamp) - years) < 0.01 }) else { return nil }
        return """
            every timestamp the sync wrote is 31 years early: "\(want.title)" has \
            \(have.timestamp.timeIntervalSinceReferenceDate) seconds since 2001 in the store (\(have.timestamp)) and \
            \(want.timestamp.timeIntervalSinceReferenceDate) on the server (\(want.timestamp)). The journal's numbers are \
            seconds since 1 January 2001, which a plain JSONDecoder reads as a Date; the sync read them as seconds since \
            1970 (a dateDecodingStrategy .secondsSince1970, or Date(timeIntervalSince1970:)). Decode with a plain \
            JSONDecoder() (or use Date(timeIntervalSinceReferenceDate:)).
            """
    }

    /// Why entries of `expected` (the server's) have no entry with their identifier in the store, when that is so:
    /// the sync gave them identifiers of its own (the same title and text are there, under another identifier), or
    /// never created them — and then, when every one of them has a mood no created entry has, that mood is named.
    /// nil when the store has an entry with every expected identifier.
    func absenceDiagnosis(expected: [EntryStore.Record], after what: String) -> String? {
        let actual = storeRecords()
        let expected = expected.filter { $0.identifier != Self.localOnly.identifier }  // the server's entries only
        let missing = expected.filter { want in !actual.contains { $0.identifier == want.identifier } }
        guard !missing.isEmpty else { return nil }
        let renamed = missing.compactMap { want in
            actual.first { $0.title == want.title && $0.bodyText == want.bodyText }.map { (server: want, store: $0) }
        }
        if let example = renamed.first, example.store.identifier.lowercased() == example.server.identifier.lowercased() {
            return """
                After \(what) the store's entries have the server's identifiers in other capitals: "\(example.server.title)" \
                is \(example.store.identifier) in the store and \(example.server.identifier) on the server\
                \(renamed.count > 1 ? " (and \(renamed.count - 1) more like it)" : ""). Firebase keys are case-sensitive, \
                so that is another key: the next sync cannot find the entry, and put and delete address a key the server \
                does not have. Create each entry with the representation's identifier as it is, \
                `Entry(…, identifier: representation.identifier, store:)` — no `.lowercased()` or `.uppercased()`, no \
                round trip through `UUID(uuidString:)` (its `uuidString` is in capitals). See LESSONS.md §5.8.
                """
        }
        if let example = renamed.first {
            return """
                After \(what) the store's entries do not have the server's identifiers: "\(example.server.title)" is \
                \(example.store.identifier) in the store and \(example.server.identifier) on the server\
                \(renamed.count > 1 ? " (and \(renamed.count - 1) more like it)" : ""). The sync made new identifiers \
                (Entry's `identifier:` defaults to a new UUID, and the app's own createEntry makes one too — it also \
                saves and PUTs): create each entry with `Entry(…, identifier: representation.identifier, store:)` — \
                the identifier is the entry's key on the server, how the next sync finds it, and what put and delete \
                address. See LESSONS.md §5.8.
                """
        }
        var named = missing.prefix(3).map { "\"\($0.title)\" \($0.mood) (\($0.identifier.prefix(8))…)" }
        if missing.count > 3 { named.append("\(missing.count - 3) more") }
        let names = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " and " + named.last!
        let createdMoods = Set(expected.filter { want in actual.contains { $0.identifier == want.identifier } }.map(\.mood))
        let refused = Set(missing.map(\.mood)).subtracting(createdMoods).sorted()
        let offered = refused.allSatisfy { Entry.moods.contains($0) }
        let moodHint = refused.isEmpty || refused.count < Set(missing.map(\.mood)).count ? "" : offered ? """
             Every one of them has the mood \(refused.map(Self.spelled).joined(separator: " or ")), \
            and no entry with \(refused.count == 1 ? "that mood" : "those moods") was created: does your code refuse a mood \
            it does not know — a `Mood(rawValue:)` or a list of emoji of your own that are not the journal's \
            (Entry.moods: \(Entry.moods.joined(separator: " ")))?
            """ : """
             Every one of them has the mood \(refused.map(Self.spelled).joined(separator: " or ")), one the app does not \
            offer (Entry.moods: \(Entry.moods.joined(separator: " "))) — another version of the app wrote it — and no entry \
            with \(refused.count == 1 ? "that mood" : "those moods") was created: does your code refuse a mood it does not \
            know — a check against Entry.moods, a `Mood(rawValue:)`, an enum? The mood is whatever string the server \
            holds: copy it as it is.
            """
        return """
            The sync never created \(names): after \(what) the store has no entry with \(missing.count == 1 ? "its identifier" : "their identifiers"). \
            Every entry on the server becomes an entry in the store, with its representation's values as they are — \
            the sync does not judge them, so a representation your code would refuse (skipped with `continue`, or a \
            failable init that returns nil) must still become an entry.\(moodHint) See LESSONS.md §5.8.
            """
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
