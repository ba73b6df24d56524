import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.6: `update(entry:with:)` copies the server's values into the store's entry, in place, unsaved.
final class UpdateEntryTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.update

    /// The store's entry as it was before the server changed it, and the server's newer values.
    func staleEntryAndServerValues() throws -> (entry: Entry, server: EntryStore.Record, representation: EntryRepresentation) {
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        let stale = EntryStore.Record(title: "Rainy day (draft)", bodyText: "Nothing yet.",
                                      timestamp: Date(timeIntervalSinceReferenceDate: 5.84000000000E8),
                                      identifier: server.identifier, mood: "☹️")
        let representation = try representation(of: server, setup: "updating an entry")
        return (insert(stale), server, representation)
    }

    func test_update_changesTheEntryInPlaceAndAddsNone() throws {
        let (entry, _, representation) = try staleEntryAndServerValues()
        controller.update(entry: entry, with: representation)
        let entries = store.entries
        XCTAssertTrue(entries.count == 1 && entries.first === entry, """
            After update(entry:with:) the store holds \(entries.count) entries: \(Self.describe(entries.map(\.record))). \
            It held one, the entry to update. Set the values of that very entry; do not make a new Entry (making one \
            inserts it into the store: a duplicate). See LESSONS.md §5.6.
            """)
    }

    func test_update_copiesEveryValueOfTheRepresentation() throws {
        let (entry, server, representation) = try staleEntryAndServerValues()
        controller.update(entry: entry, with: representation)
        let now = entry.record
        let missed = [("title", now.title == server.title), ("bodyText", now.bodyText == server.bodyText),
                      ("timestamp", now.timestamp == server.timestamp), ("mood", now.mood == server.mood),
                      ("identifier", now.identifier == server.identifier)].filter { !$0.1 }.map(\.0)
        if !missed.isEmpty {
            // Copied a moment later, on another queue? Then update returned before it had done its work.
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
            if entry.record == server {
                throw fail("""
                    When update(entry:with:) returned, the entry still had its old values (\(Self.describe([now]))); they \
                    came later, after it had returned: the copying was sent to another queue (`DispatchQueue.main.async`, \
                    a `Task`). The sync compares and saves right after calling update: copy the values before update \
                    returns, on the queue it is called on (the sync's, not the main one). See LESSONS.md §5.6.
                    """)
            }
        }
        XCTAssertTrue(missed.isEmpty, """
            After update(entry:with:) the entry is \(Self.describe([now])) with timestamp \
            \(now.timestamp.timeIntervalSinceReferenceDate); the server's values are \(Self.describe([server])) with \
            timestamp \(server.timestamp.timeIntervalSinceReferenceDate). Not copied: \(missed.joined(separator: ", ")). \
            Copy every value the server has. See LESSONS.md §5.6.
            """)
    }

    func test_update_entryThatDiffersOnlyInItsMood_takesTheServersMood() throws {
        // Edited in another copy of the app: the mood alone changed, the timestamp and the text kept.
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        let stale = EntryStore.Record(title: server.title, bodyText: server.bodyText, timestamp: server.timestamp,
                                      identifier: server.identifier, mood: server.mood == "😐" ? "🙂" : "😐")
        let representation = try representation(of: server, setup: "updating an entry")
        let entry = insert(stale)
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(entry.mood, server.mood, """
            The store's entry and the server's differ only in the mood (\(Self.spelled(stale.mood)) in the store, \
            \(Self.spelled(server.mood)) on the server): same title, text and timestamp. After update(entry:with:) the \
            entry's mood is \(Self.spelled(entry.mood)). Does update return early when the timestamps (or the titles) \
            are the same, as if nothing could change without them? Any value may change alone — the sync has already \
            decided, by comparing every value (`!=`), that this entry needs the server's: copy them all. See LESSONS.md §5.6.
            """)
    }

    func test_update_entryThatDiffersOnlyInItsText_takesTheServersText() throws {
        // Edited in another copy of the app: the text alone changed, the title, mood and timestamp kept.
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        let stale = EntryStore.Record(title: server.title, bodyText: "Rain all day.", timestamp: server.timestamp,
                                      identifier: server.identifier, mood: server.mood)
        let representation = try representation(of: server, setup: "updating an entry")
        let entry = insert(stale)
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(entry.bodyText, server.bodyText, """
            The store's entry and the server's differ only in the bodyText ("\(stale.bodyText)" in the store, \
            "\(server.bodyText)" on the server): same title, mood and timestamp. After update(entry:with:) the \
            entry's bodyText is "\(entry.bodyText)". Does update copy the text only when the title changed (or the \
            timestamp)? Any value may change alone: copy each of them, every time. See LESSONS.md §5.6.
            """)
    }

    func test_update_copiesTextWithItsWhitespaceAsItIs() throws {
        // A text view leaves the text as typed: a newline at the end, a space before it.
        let (entry, server, _) = try staleEntryAndServerValues()
        let typed = EntryStore.Record(title: " " + server.title + " ", bodyText: server.bodyText + "\n\nP.S. ☔️ \n",
                                      timestamp: server.timestamp, identifier: server.identifier, mood: server.mood)
        let representation = try representation(of: typed, setup: "updating an entry whose text ends with a newline")
        controller.update(entry: entry, with: representation)
        XCTAssertTrue(entry.title == typed.title && entry.bodyText == typed.bodyText, """
            The server's entry has the title \(String(reflecting: typed.title)) and a bodyText that ends with a newline, \
            \(String(reflecting: String(typed.bodyText.suffix(12)))) at its end; after update(entry:with:) the entry's \
            title is \(String(reflecting: entry.title)) and its bodyText ends \(String(reflecting: String(entry.bodyText.suffix(12)))). \
            Copy each value as it is: trimming whitespace and newlines changes what the user wrote, and the entry then \
            differs from the server's at every sync. See LESSONS.md §5.6.
            """)
    }

    func test_update_copiesAMoodTheAppDoesNotOffer() throws {
        let server = Self.otherMood
        let stale = EntryStore.Record(title: server.title, bodyText: server.bodyText, timestamp: server.timestamp,
                                      identifier: server.identifier, mood: "😐")
        let representation = try representation(of: server, setup: "updating an entry")
        let entry = insert(stale)
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(entry.mood, server.mood, """
            The server's entry has the mood \(Self.spelled(server.mood)), one this app does not offer (Entry.moods: \
            \(Entry.moods.joined(separator: " "))) — another version of the app wrote it; after update(entry:with:) the \
            entry's mood is \(Self.spelled(entry.mood)). Copy every value as the server holds it: a check of your own \
            (against Entry.moods, or a Mood(rawValue:)) keeps the old mood, and every sync finds the entry changed \
            again. See LESSONS.md §5.6.
            """)
    }

    func test_update_copiesAnEmptyBodyText() throws {
        let (entry, server, _) = try staleEntryAndServerValues()
        let cleared = EntryStore.Record(title: server.title, bodyText: "", timestamp: server.timestamp,
                                        identifier: server.identifier, mood: server.mood)
        let representation = try representation(of: cleared, setup: "updating an entry whose text was cleared")
        let before = entry.bodyText
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(entry.bodyText, "", """
            The server's entry has an empty bodyText (its text was cleared in another copy of the app); after \
            update(entry:with:) the entry's bodyText is "\(entry.bodyText)"\(entry.bodyText == before ? ", as before" : ""). \
            An empty string is a value like any other: copy it as it is. A check that skips empty values keeps text the \
            user deleted, and the entry differs from the server's at every sync. See LESSONS.md §5.6.
            """)
    }

    func test_update_copiesAnEmptyTitle() throws {
        let (entry, server, _) = try staleEntryAndServerValues()
        let cleared = EntryStore.Record(title: "", bodyText: server.bodyText, timestamp: server.timestamp,
                                        identifier: server.identifier, mood: server.mood)
        let representation = try representation(of: cleared, setup: "updating an entry whose title was cleared")
        let before = entry.title
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(entry.title, "", """
            The server's entry has an empty title (cleared in another copy of the app: the entry has a text only); \
            after update(entry:with:) the entry's title is "\(entry.title)"\(entry.title == before ? ", as before" : ""). \
            An empty title is a value like any other: copy it as it is. A check that skips empty values (`if \
            !representation.title.isEmpty`) keeps a title the user deleted, and the entry differs from the server's at \
            every sync. See LESSONS.md §5.6.
            """)
    }

    func test_update_ofAnEntryNewerThanTheServers_stillCopiesTheServersValues() throws {
        let server = try Self.records(in: try Self.journalLater()).first { $0.identifier == Self.changedID }!
        // Edited in the app after the server's version was written, and not sent yet.
        let newer = EntryStore.Record(title: "Rainy day, edited offline", bodyText: "Changed my mind about the rain.",
                                      timestamp: server.timestamp.addingTimeInterval(3_600),
                                      identifier: server.identifier, mood: "😐")
        let representation = try representation(of: server, setup: "updating an entry")
        let entry = insert(newer)
        controller.update(entry: entry, with: representation)
        let now = entry.record
        if now == newer {
            throw fail("""
                update(entry:with:) left an entry newer than the server's as it was (its timestamp \
                \(newer.timestamp.timeIntervalSinceReferenceDate) is an hour after the server's \
                \(server.timestamp.timeIntervalSinceReferenceDate)): it must copy the server's values whatever the \
                timestamps say. In this course's sync the server's representation wins; keeping the newer one is \
                another design, and the sync has already decided to update by comparing (`!=`). See LESSONS.md §5.6.
                """)
        }
        XCTAssertTrue(now == server, """
            After update(entry:with:) of an entry newer than the server's, the entry is \(Self.describe([now])) with \
            timestamp \(now.timestamp.timeIntervalSinceReferenceDate); the server's values are \
            \(Self.describe([server])) with timestamp \(server.timestamp.timeIntervalSinceReferenceDate). Copy every \
            value of the representation, whatever the timestamps say: the server's wins. See LESSONS.md §5.6.
            """)
    }

    func test_update_sendsNothingToTheServer() throws {
        let (entry, _, representation) = try staleEntryAndServerValues()
        clearRequests()
        controller.update(entry: entry, with: representation)
        // A request update starts without waiting for it reaches the emulator a moment later.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        let sent = traffic.received
        XCTAssertTrue(sent.isEmpty, """
            update(entry:with:) sent \(sent.map(\.summary).joined(separator: "; ")) to the server. The sync calls it for \
            each entry the server changed: the values come from the server, so there is nothing to send back — every \
            sync would write the server's own entries back to it. Sending an entry is put(entry:)'s job, which the app's \
            own updateEntry calls when the user edits one. Copy the values, and send nothing. See LESSONS.md §5.6.
            """)
    }

    func test_update_doesNotSave() throws {
        let (entry, _, representation) = try staleEntryAndServerValues()
        let before = store.saveCount
        controller.update(entry: entry, with: representation)
        XCTAssertEqual(store.saveCount, before, """
            update(entry:with:) saved the store (\(store.saveCount - before) time(s)). The sync updates many entries \
            and saves once, at the end: saving here means a save per changed entry. See LESSONS.md §5.6.
            """)
    }
}
