import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// Exercise 10.4: `olderPage(than:count:)` — "load older": the page just before the messages shown, with no
/// duplicate at the boundary (`endAt` is inclusive) and no gap where timestamps tie. The thread (55 messages) has
/// #35, #36 and #37 at one timestamp (the boundary of the newest page) and #15 and #16 at another (the next boundary).
final class OlderPageTests: PagesTestCase {
    let exercise = PagesTestCase.older

    // MARK: The request

    func test_olderPage_asksForAPage_orderedWithOrderByInQuotes_limited() throws {
        let shown = try Self.messages(36...55)
        _ = try olderPage(than: shown)
        if let wrong = wrongQuery(exercise) { return XCTFail(wrong) }
        guard !emulator.requests.isEmpty else {
            return XCTFail("\(exercise.function) sent no request; the older messages are on the server. See \(exercise.reference).")
        }
        for request in emulator.requests {
            let limit = request.query["limitToLast"].flatMap { Int($0) }
            XCTAssertTrue(limit.map { $0 <= 20 + shown.count } ?? false, """
                \(exercise.function) sent a query without limitToLast (or with more than a page needs): "load older" \
                asks for the last messages before the oldest shown, not for the whole thread. See LESSONS.md §10.1.
                \(request.summary)
                """)
        }
    }

    // MARK: The page

    func test_olderPage_givesNoMessageAlreadyShown() throws {
        let shown = try Self.messages(36...55)
        let page = try requirePage(try olderPage(than: shown), exercise)
        let again = page.filter { message in shown.contains { $0.key == message.key } }
        if again.count == shown.count {
            return XCTFail("""
                \(exercise.function) gave every shown message again (\(Self.positions(again))) with \(page.count - again.count) \
                older ones: it gives only the older messages, oldest first; the app puts them in front of what it shows \
                (shown = try await pages.olderPage(than: shown) + shown). See \(exercise.reference).
                """)
        }
        XCTAssertEqual(again.map(\.key), [], """
            \(exercise.function) gave messages already shown (\(Self.positions(again))): endAt is inclusive, so \
            endAt=<the oldest timestamp> gives the messages at that timestamp again. Drop them. See LESSONS.md §10.1.
            """)
    }

    func test_olderPage_skipsNothing_whenTimestampsTieAtTheBoundary() throws {
        let shown = try Self.messages(36...55)
        let page = try requirePage(try olderPage(than: shown), exercise)
        if let skipped = page.isEmpty ? nil : try Self.messages(16...35).last(where: { message in !page.contains { $0.key == message.key } }),
           skipped.timestamp == shown[0].timestamp {
            return XCTFail("""
                \(exercise.function) skipped \(Self.positions([skipped])), which has the same timestamp as the oldest \
                shown (#36): asking for timestamps below it loses the tie. See LESSONS.md §10.1.
                """)
        }
        // A short page of the right messages: the shown ones at the boundary were dropped from a page that had
        // room for `count` only.
        let before = try Self.messages(16...35)
        if !page.isEmpty, page.count < before.count, page.allSatisfy({ message in before.contains { $0.key == message.key } }) {
            // Asked for enough (count + the 2 shown at #36's timestamp, or more) and still short: cut, then dropped.
            if let limit = emulator.requests.last?.query["limitToLast"].flatMap({ Int($0) }), limit >= before.count + 2,
               emulator.requests.count == 1 {
                return XCTFail("""
                    \(exercise.function) gave \(page.count) messages, \(Self.positions(page)), before #36…#55, though it asked \
                    for limitToLast=\(limit), enough for the 20 before them (#16…#35) and the shown ones endAt brings back \
                    (#36, #37): it cut the page to `count` before dropping the shown ones, so they took the place of older \
                    messages. Drop them first, then keep the last `count` (filter, then suffix). See LESSONS.md §10.1.
                    """)
            }
            return XCTFail("""
                \(exercise.function) gave \(page.count) messages, \(Self.positions(page)), before #36…#55; the 20 before them \
                are #16…#35. A page that ends at the oldest shown message also brings back the shown ones there (#36, \
                and #37 at its timestamp): ask for as many more as you drop — limitToLast=<count + k> by timestamp, \
                count + 1 by key — so that `count` remain. See LESSONS.md §10.1.
                """)
        }
        // The oldest of the page, whatever its order (the order is the next test's).
        let oldest = page.min { ($0.timestamp, $0.key) < ($1.timestamp, $1.key) }
        XCTAssertEqual(oldest?.key, try Self.messages(16...16).first?.key, """
            \(exercise.function) gave \(Self.positions(page)) before #36…#55; the 20 before them are #16…#35 \
            (#35 has #36's timestamp). See \(exercise.reference).
            """)
    }

    func test_olderPage_givesThe20JustBefore_oldestFirst() throws {
        let page = try requirePage(try olderPage(than: try Self.messages(36...55)), exercise)
        let expected = try Self.messages(16...35)
        if Set(page.map(\.key)) == Set(expected.map(\.key)) && page != expected {
            return XCTFail("""
                \(exercise.function) gave the right 20 messages in the wrong order: sort the page, oldest first \
                (Message.inOrder). See LESSONS.md §10.2.
                """)
        }
        XCTAssertEqual(page, expected, "\(exercise.function) gave \(Self.positions(page)); expected #16…#35. See \(exercise.reference).")
    }

    func test_olderPage_afterTwoPages_givesTheShortRest() throws {
        let page = try requirePage(try olderPage(than: try Self.messages(16...55)), exercise)
        XCTAssertEqual(page, try Self.messages(1...15), """
            \(exercise.function) gave \(Self.positions(page)) before #16…#55; the rest of the thread is #1…#15 (#15 has \
            #16's timestamp): a short page, which tells the app it has reached the start. See \(exercise.reference).
            """)
    }

    func test_olderPage_atTheStartOfTheThread_isEmpty() throws {
        let page = try requirePage(try olderPage(than: try Self.thread()), exercise)
        XCTAssertEqual(page, [], """
            \(exercise.function) gave \(Self.positions(page)) when every message is already shown; expected []. \
            See \(exercise.reference).
            """)
    }

    func test_olderPage_equalTimestamps_inKeyOrder() throws {
        let (tied, later) = loadTiedThread()
        let page = try requirePage(try olderPage(than: later, count: 8), exercise)
        guard Set(page.map(\.key)) == Set(tied.map(\.key)) else {
            return XCTFail("""
                \(exercise.function)(count: 8) gave \(page.count) message(s) before the 2 newest shown; the thread holds 8 \
                more before them, all of one timestamp: expected those 8. See \(exercise.reference).\(page.isEmpty ? """

                    That 2 are shown, fewer than the count of 8, says nothing about what is older (they may be a smaller \
                    page asked before): only an answer with fewer than asked for tells the start of the thread. Ask.
                    """ : "")
                \(TrafficReport(emulator).summary)
                """)
        }
        XCTAssertEqual(page, tied, """
            \(exercise.function) gave \(Self.keyEnds(page)) (key ends) before the 2 newest: 8 of one timestamp, which \
            Firebase orders by key, \(Self.keyEnds(tied)): sort with Message.inOrder. See LESSONS.md §10.2.\
            \(Self.finderOrderNote(page.map(\.key)))
            """)
    }

    func test_olderPage_honoursTheCount() throws {
        let page = try requirePage(try olderPage(than: try Self.messages(36...55), count: 2), exercise)
        XCTAssertEqual(Set(page.map(\.key)), Set(try Self.messages(34...35).map(\.key)), """
            \(exercise.function)(count: 2) gave \(Self.positions(page)) before #36…#55; expected #34 #35. \
            See \(exercise.reference).
            """)
        let more = try requirePage(try olderPage(than: try Self.messages(36...55), count: 30), exercise)
        XCTAssertEqual(Set(more.map(\.key)), Set(try Self.messages(6...35).map(\.key)), """
            \(exercise.function)(count: 30) gave \(Self.positions(more)) before #36…#55; expected the 30 before them, \
            #6…#35: a count above 20 is the caller's to choose (a taller screen) — pass it on, unclamped. \
            See \(exercise.reference).
            """)
    }

    /// A thread whose 8 messages share one timestamp: after the newest 3 (a k z, by key), every shown message has the
    /// oldest shown timestamp, so all 3 come back with endAt and must be counted.
    func test_olderPage_whenEveryShownMessageSharesOneTimestamp_givesTheOnesBefore() throws {
        let (tied, _) = loadTiedThread()
        var messages: [String: JSONValue] = [:]
        for message in tied {
            messages[message.key] = ["sender": .string(message.sender), "text": .string(message.text), "timestamp": .number(Double(message.timestamp))]
        }
        emulator.load(["t1": ["title": "One moment", "messages": .object(messages)]])
        let shown = Array(tied.suffix(3))
        let page = try requirePage(try olderPage(than: shown, count: 3), exercise)
        let expected = Array(tied[2..<5])
        XCTAssertEqual(Self.tiesByKey(page), expected, """
            \(exercise.function)(count: 3) gave \(page.isEmpty ? "[]" : Self.keyEnds(page)) (key ends) before \(Self.keyEnds(shown)), \
            3 shown messages that all share one timestamp with 5 older ones (\(Self.keyEnds(Array(tied.prefix(5))))); expected \
            \(Self.keyEnds(expected)). endAt brings back every shown message at the oldest timestamp — here all of them: \
            count them all (loaded.firstIndex(where: another timestamp) finds none then: ?? loaded.count, not ?? 0) and \
            ask for that many more. See LESSONS.md §10.1.
            """)
    }

    func test_olderPage_pagingBackToTheStart_givesEveryMessageOnce() throws {
        var shown = try Self.messages(46...55)
        for _ in 0..<10 {
            let page = try requirePage(try olderPage(than: shown, count: 10), exercise)
            if page.isEmpty { break }
            shown = page + shown
        }
        XCTAssertEqual(Self.tiesByKey(shown), try Self.thread(), """
            \(exercise.function), called with count 10 from #46…#55 until it gave [], showed \(shown.count) messages; \
            expected the 55, each once, in order. See \(exercise.reference).
            """)
    }

    /// Count 7, not the default 20: a call that forwards no count (newestPage()) gives 20 and is seen.
    func test_olderPage_withNothingShown_givesTheNewestPage() throws {
        let page = try requirePage(try olderPage(than: [], count: 7), exercise)
        XCTAssertEqual(Self.tiesByKey(page), try Self.messages(49...55), """
            \(exercise.function)(count: 7) gave \(Self.positions(page)) with nothing shown yet (loaded is []); then the \
            page is the newest 7, #49…#55 (newestPage(count: count): pass the count on). See \(exercise.reference).
            """)
    }

    func test_olderPage_serverError_throwsStatus500() throws {
        // The 500 goes out at once, every other answer 0.5 s later: a call that sends two queries at once (async let)
        // and meets the 500 has the other cancelled while it waits. On Linux a cancel that meets that task's own
        // answer being delivered can crash corelibs' URLSession ("a task that is not in the registry") or deadlock
        // it (`data(for:)`, up to Swift 6.3.2: seen under load as "neither returned nor threw"); during the wait it
        // is safe.
        emulator.latency = 0.5
        emulator.inject(.httpError(status: 500, message: "Internal server error."), latency: 0)
        let result = try olderPage(than: try Self.messages(36...55))
        guard case .failure(let error) = result, case ThreadAPIError.status(500) = error else {
            return XCTFail("\(exercise.function) \(result.outcome) when Firebase answered 500; expected ThreadAPIError.status(500). See \(exercise.reference).")
        }
    }
}
