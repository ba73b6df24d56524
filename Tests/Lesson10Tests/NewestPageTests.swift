import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// Exercise 10.3: `newestPage(count:)` — one GET with `orderBy="timestamp"&limitToLast=<count>`, the answer in order,
/// Firebase's 400s as typed errors.
final class NewestPageTests: PagesTestCase {
    let exercise = PagesTestCase.newest

    // MARK: The request

    func test_newestPage_sendsOneGETOfTheThreadsMessages_withOrderByInQuotes() throws {
        _ = try newestPage()
        let request = try onlyRequest(from: exercise, on: emulator)
        if let wrong = wrongQuery(exercise) { XCTFail(wrong) }
        XCTAssertEqual(request.query["orderBy"], "\"timestamp\"", """
            \(exercise.function) sent orderBy=\(request.query["orderBy"] ?? "(none)"); the newest messages are the last \
            by time: orderBy="timestamp". See \(exercise.reference).
            \(request.summary)
            """)
    }

    func test_newestPage_asksForTheLast20_withLimitToLast() throws {
        _ = try newestPage()
        let request = try onlyRequest(from: exercise, on: emulator)
        if request.query["limitToFirst"] != nil {
            return XCTFail("""
                \(exercise.function) sent limitToFirst, which gives the OLDEST messages of the ordered list; the newest \
                are its end: limitToLast=20. See LESSONS.md §10.1.
                \(request.summary)
                """)
        }
        XCTAssertEqual(request.query["limitToLast"], "20", """
            \(exercise.function) should ask for the last 20 with limitToLast=20 (a page, not the whole thread). \
            See \(exercise.reference).
            \(request.summary)
            """)
        // An endAt after every message (Int.max, from code that makes both pages with one query) leaves none out, and
        // so does a startAt before every message (0, from a helper that always sends a lower bound).
        let thread = (try? Self.thread()) ?? []
        let newest = thread.last?.timestamp ?? 0, oldest = thread.first?.timestamp ?? 0
        let endAtCuts = request.query["endAt"].map { end in Double(end).map { $0 < Double(newest) } ?? true } ?? false
        let startAtCuts = request.query["startAt"].map { start in Double(start).map { $0 > Double(oldest) } ?? true } ?? false
        XCTAssertNil(request.query["equalTo"] ?? (startAtCuts ? request.query["startAt"] : nil) ?? (endAtCuts ? request.query["endAt"] : nil), """
            \(exercise.function): the newest page needs no startAt, equalTo or endAt (a startAt after the oldest message \
            or an endAt before the newest leaves messages out). \(request.summary)
            """)
    }

    /// The tests' thread is t1, as in the lesson's examples: a URL with t1 written in is seen only with another thread.
    func test_newestPage_readsTheThreadItWasMadeFor() throws {
        let (tied, later) = loadTiedThread()
        var messages: [String: JSONValue] = [:]
        for message in tied + later {
            messages[message.key] = ["sender": .string(message.sender), "text": .string(message.text), "timestamp": .number(Double(message.timestamp))]
        }
        emulator.load(["t1": ["title": "Another thread"], "t2": ["title": "Ties", "messages": .object(messages)]])
        pages = ThreadPages(baseURL: emulator.baseURL, threadID: "t2", session: emulator.session)
        let result = try newestPage(count: 10)
        if let read = emulator.requests.first, read.path != "/t2/messages" {
            return XCTFail("""
                \(exercise.function) read \(read.summary) for pages made with threadID "t2": the messages are at \
                <baseURL>/<threadID>/messages.json (messagesURL gives it) — build the URL from threadID, not from the \
                thread of an example. See \(exercise.reference).
                """)
        }
        let page = try requirePage(result, exercise)
        // Which messages, not their order: the order has tests of its own, whose messages name it.
        let byKey = { (messages: [Message]) in messages.sorted { $0.key < $1.key } }
        XCTAssertEqual(byKey(page), byKey(tied + later), """
            \(exercise.function) with threadID "t2" should give that thread's 10 messages. See \(exercise.reference).
            """)
    }

    // MARK: The page

    func test_newestPage_givesTheNewest20_oldestFirst() throws {
        let page = try requirePage(try newestPage(), exercise)
        let expected = try Self.messages(36...55)
        if Set(page.map(\.key)) == Set(expected.map(\.key)) && Self.tiesByKey(page) != expected {
            return XCTFail("""
                \(exercise.function) gave the right 20 messages in the wrong order: \(Self.positions(page)). Firebase's \
                answer is a JSON object, which has no order: sort it, oldest first (Message.inOrder). See LESSONS.md §10.2.
                """)
        }
        XCTAssertEqual(Self.tiesByKey(page), expected, """
            \(exercise.function) gave \(Self.positions(page)); the newest 20 of the 55 are #36…#55, oldest first. \
            See \(exercise.reference).
            """)
    }

    func test_newestPage_equalTimestamps_inKeyOrder() throws {
        let (tied, _) = loadTiedThread()
        let page = try requirePage(try newestPage(count: 10), exercise)
        // The tie alone: the order of the timestamps has the long thread's tests, so a page whose timestamps come out
        // in a dictionary's order fails there every run, not here in 5 runs of 6 (3 timestamps).
        let inTie = page.filter { $0.timestamp == tied[0].timestamp }
        XCTAssertEqual(inTie, tied, """
            \(exercise.function) put \(inTie.count) messages of one timestamp in the order \(Self.keyEnds(inTie)) (key \
            ends); Firebase's is by key, \(Self.keyEnds(tied)): sort with Message.inOrder. See LESSONS.md §10.2.\
            \(Self.finderOrderNote(inTie.map(\.key)))
            """)
    }

    func test_newestPage_honoursTheCount() throws {
        let page = try requirePage(try newestPage(count: 5), exercise)
        XCTAssertEqual(Set(page.map(\.key)), Set(try Self.messages(51...55).map(\.key)), """
            \(exercise.function)(count: 5) gave \(Self.positions(page)); expected the newest 5, #51…#55: \
            limitToLast=<count>, not a fixed 20. See \(exercise.reference).
            """)
        let more = try requirePage(try newestPage(count: 30), exercise)
        XCTAssertEqual(Set(more.map(\.key)), Set(try Self.messages(26...55).map(\.key)), """
            \(exercise.function)(count: 30) gave \(Self.positions(more)); expected the newest 30, #26…#55: a count above \
            20 is the caller's to choose (a taller screen) — pass it on as limitToLast=<count>, unclamped. \
            See \(exercise.reference).
            """)
    }

    func test_newestPage_includesAMessageStampedAheadOfThisDevicesClock() throws {
        // Firebase stamps a message with its own clock (ServerValue.TIMESTAMP); this device's may run behind it — by
        // a year, when its date was set back by hand: an endAt from Date(), with any slack, leaves the message out.
        let ahead = Int(Date().timeIntervalSince1970 * 1000) + 366 * 24 * 60 * 60 * 1000
        let messages = [("-P5QdiIlZv_zWnsfgYw0", 1_793_612_768_497), ("-P5QdiIlZv_zWnsfgYw1", 1_793_612_768_600),
                        ("-P5QdiIlZv_zWnsfgYw2", ahead)].map { key, timestamp in
            Message(key: key, body: Message.Body(sender: "Ana", text: "at \(timestamp)", timestamp: timestamp))
        }
        var object: [String: JSONValue] = [:]
        for message in messages {
            object[message.key] = ["sender": .string(message.sender), "text": .string(message.text), "timestamp": .number(Double(message.timestamp))]
        }
        emulator.load(["t1": ["title": "Clocks", "messages": .object(object)]])
        let page = try requirePage(try newestPage(count: 3), exercise)
        XCTAssertEqual(page.map(\.key), messages.map(\.key), """
            \(exercise.function)(count: 3) gave \(page.map(\.key)) of a thread of 3 whose newest message is stamped a year \
            after this device's clock (the server's clock stamps the messages, and a device's date may be set back by \
            hand); expected all 3. The newest page is the last `count` of the thread, whatever its timestamps: \
            orderBy="timestamp"&limitToLast=<count>, no endAt from Date(), with or without some slack, and no filter of \
            the answer by Date() — this device's clock is not the server's. See LESSONS.md §10.3.
            \(TrafficReport(emulator).summary)
            """)
    }

    func test_newestPage_emptyThread_isEmpty() throws {
        emulator.load(["t1": ["title": "Nothing yet"]])
        let result = try newestPage()
        guard case .success(let page) = result else {
            return XCTFail("""
                \(exercise.function) threw \(Self.describe(result.failure!)) for a thread without messages; Firebase \
                answers `null` there, which is an empty page: decode an optional and give []. See \(exercise.reference).
                """)
        }
        XCTAssertEqual(page, [], "\(exercise.function) gave \(Self.positions(page)) for a thread without messages. See \(exercise.reference).")
    }

    // MARK: Firebase's 400s

    func test_newestPage_withoutTheIndex_throwsIndexNotDefined() throws {
        emulator.queryIndexes = QueryIndexes()
        let result = try newestPage()
        let sent = emulator.requests.last?.summary ?? "(no request)"
        guard case .failure(let error) = result, case ThreadAPIError.indexNotDefined(let message) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the rules have no .indexOn for timestamp; Firebase answers \
                400 "Index not defined…": throw ThreadAPIError.indexNotDefined with that text. See \(exercise.reference).
                \(sent)
                """)
        }
        XCTAssertTrue(message.contains(#"".indexOn": "timestamp""#), """
            \(exercise.function) threw .indexNotDefined("\(message)"); keep Firebase's text, which names the rule to add. \
            See \(exercise.reference).
            """)
    }

    func test_newestPage_otherBadRequest_throwsBadQueryWithFirebasesText() throws {
        let text = "orderBy must be a valid JSON encoded path"
        emulator.inject(.httpError(status: 400, message: text))
        let result = try newestPage()
        guard case .failure(let error) = result, case ThreadAPIError.badQuery(let message) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when Firebase answered 400 {"error": "\(text)"}; expected \
                ThreadAPIError.badQuery with that text. See \(exercise.reference).
                """)
        }
        XCTAssertEqual(message, text, "\(exercise.function) threw .badQuery(\"\(message)\"); give Firebase's text, from the body's \"error\". See \(exercise.reference).")
    }

    func test_newestPage_readRefused_throwsStatus401() throws {
        emulator.inject(.httpError(status: 401, message: "Permission denied"))
        let result = try newestPage()
        guard case .failure(let error) = result, case ThreadAPIError.status(401) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the rules refused the read with 401; expected \
                ThreadAPIError.status(401). See \(exercise.reference).
                Only a 400 is a refused query (.indexNotDefined, .badQuery); any other status is .status(code).
                """)
        }
    }

    /// A 500 whose body is an HTML page, as the servers in front of Firebase (a proxy, Google's front end) answer
    /// some failures: the status decides, not the body — code that reads Firebase's error body before it looks at the
    /// status, or refuses a body that is not JSON, is seen here.
    func test_newestPage_serverError_throwsStatus500() throws {
        emulator.inject(.page(status: 500, contentType: "text/html; charset=UTF-8", body: Self.serverErrorPage))
        let result = try newestPage()
        guard case .failure(let error) = result, case ThreadAPIError.status(500) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the server answered 500 with an HTML page (Content-Type: \
                text/html), as the servers in front of Firebase answer some failures; expected ThreadAPIError.status(500). \
                See \(exercise.reference).
                Every status outside 200...299 but 400 is .status(code), whatever its body: look at the status first, and \
                read Firebase's {"error": …} only for a 400 (nor expect a JSON body, or Content-Type application/json, there).
                """)
        }
    }

    static let serverErrorPage = """
        <!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 500 (Server Error)!!1</title>\
        <p><b>500.</b> <ins>That’s an error.</ins><p>There was an error. Please try again later. <ins>That’s all we know.</ins></html>
        """

    func test_newestPage_transportError_throwsTransport() throws {
        emulator.inject(.transportError(.notConnectedToInternet))
        let result = try newestPage()
        guard case .failure(let error) = result, case ThreadAPIError.transport(let urlError) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when no answer came (URLError.notConnectedToInternet); expected \
                ThreadAPIError.transport with that URLError. See \(exercise.reference).\(Self.sentAgainNote(emulator.requests))
                """)
        }
        XCTAssertEqual(urlError.code, .notConnectedToInternet, """
            \(exercise.function) threw .transport with URLError code \(urlError.code.rawValue), not URLSession's (.notConnectedToInternet). \
            See \(exercise.reference).
            Pass on the URLError URLSession threw, not one of your own: its code says what went wrong.
            """)
    }

    func test_newestPage_bodyNotJSON_throwsDecoding() throws {
        emulator.inject(.malformedBody(#"{"-P5R27EdF80tEn1JGoTw": {"sender": "Ana", "tex"#))
        let result = try newestPage()
        guard case .failure(let error) = result, case ThreadAPIError.decoding = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when a 200's body was cut short (not JSON); expected \
                ThreadAPIError.decoding with the decoder's error. See \(exercise.reference).
                """)
        }
    }

    /// A 200 whose page holds a message without its text (a photo, written by a client of a newer version, say): the
    /// page does not decode. Dropping that message instead (try? for each one, compactMap) gives a page one short,
    /// and a page shorter than the count says "the start of the thread" (§10.1): the app would stop loading older ones.
    func test_newestPage_aMessageThatDoesNotDecode_throwsDecoding() throws {
        var object: [String: JSONValue] = [:]
        for (n, key) in ["-P5QdiIlZv_zWnsfgYw0", "-P5QdiIlZv_zWnsfgYw1", "-P5QdiIlZv_zWnsfgYw2"].enumerated() {
            object[key] = ["sender": "Ana", "text": .string("message \(n)"), "timestamp": .number(Double(1_793_612_768_497 + n))]
        }
        // It keeps its timestamp, so that every query of the page returns it: without one it would sort before every
        // number (null first), and a page bounded by startAt=0 would not hold it.
        object["-P5QdiIlZv_zWnsfgYw1"] = ["sender": "Ben", "timestamp": .number(Double(1_793_612_768_498))]
        emulator.load(["t1": ["title": "One broken", "messages": .object(object)]])
        let result = try newestPage(count: 3)
        guard case .failure(let error) = result, case ThreadAPIError.decoding = error else {
            return XCTFail("""
                \(exercise.function)(count: 3) \(result.outcome) when one of the page's 3 messages has no text; expected \
                ThreadAPIError.decoding with the decoder's error. A message that does not decode, dropped (try? for each \
                message, compactMap), makes the page short without a word — and a page shorter than the count says "the \
                start of the thread", so the app stops loading older messages. See LESSONS.md §10.3.
                \(TrafficReport(emulator).summary)
                """)
        }
    }
}

extension Result {
    /// "returned 20 messages" / "threw ThreadAPIError.status(500)", for messages.
    var outcome: String {
        switch self {
        case .success(let value as [Any]): return "returned \(value.count) message(s)"
        case .success(let value): return "returned \(oneLine(value))"
        case .failure(let error): return "threw \(Lesson10TestCase.describe(error))"
        }
    }

    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
