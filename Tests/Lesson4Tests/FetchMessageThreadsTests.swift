import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson4

/// Exercise 4.6: `fetchMessageThreads(completion:)` GETs the whole database, decodes `[String: MessageThread]`,
/// and keeps its values, sorted by title, in `messageThreads`.
final class FetchMessageThreadsTests: Lesson4TestCase {
    let exercise = Lesson4TestCase.fetch

    // MARK: The request

    func test_fetchMessageThreads_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try fetch()
        _ = try onlyRequest(from: exercise, on: emulator)
    }

    func test_fetchMessageThreads_usesGET() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        XCTAssertEqual(request.method, "GET", """
            fetchMessageThreads sent \(request.summary). Reading is a GET: it asks for the data at the URL and changes \
            nothing. A data task made from a URL alone is a GET: `session.dataTask(with: url)`. See LESSONS.md §4.1.
            """)
    }

    func test_fetchMessageThreads_urlIsTheDatabaseRootDotJSON() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        if let wrong = Self.wrongRequest(request), request.method == "GET" {
            throw fail(wrong)
        }
        let expected = emulator.baseURL.appendingPathExtension("json")
        XCTAssertEqual(request.url.absoluteString, expected.absoluteString, """
            fetchMessageThreads sent its GET to \(request.url.absoluteString). The whole database is at \
            <baseURL>/.json (`baseURL.appendingPathExtension("json")`); no query is needed. See LESSONS.md §4.1.
            """)
    }

    func test_fetchMessageThreads_sendsNoBody() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        XCTAssertTrue(request.body?.isEmpty ?? true, """
            fetchMessageThreads sent a body with its request (\(request.summary)). A GET asks, it carries nothing: make \
            the data task from the URL alone. See LESSONS.md §4.1.
            """)
    }

    // MARK: The result

    func test_fetchMessageThreads_sampleDatabase_givesItsThreadWithItsMessage() throws {
        let sample = try Self.sampleDatabase()
        try fetchAndCheck(sample)
        let thread = try XCTUnwrap(controller.messageThreads.first)
        XCTAssertEqual(thread.identifier, Self.sampleThreadID, "The sample thread's identifier is its key in the database. See LESSONS.md §4.2.")
        XCTAssertEqual(thread.messages.map(\.sender), ["Spencer"], "The sample thread has one message, from Spencer, under the push ID -LJNQ2zNeL4bwG1qpwYB. See LESSONS.md §4.2.")
        XCTAssertEqual(thread.messages.first?.timestamp, Date(timeIntervalSinceReferenceDate: 5.55405872056162E8), "The sample message's timestamp is 5.55405872056162E8 seconds since 2001: decode with a plain JSONDecoder(). See LESSONS.md §4.2.")
    }

    func test_fetchMessageThreads_classDatabase_givesEveryThreadWithItsMessages() throws {
        let database = try Self.classDatabase()
        emulator.load(database)
        try fetchSuccessfully()
        let expected = try Self.expectedThreads(in: database)
        try checkSameThreads(controller.messageThreads, expected: expected, before: [])
        let withoutMessages = controller.messageThreads.filter { $0.messages.isEmpty }.count
        XCTAssertEqual(withoutMessages, expected.filter { $0.messages.isEmpty }.count, "Threads without messages (no `messages` key in the database) should be fetched too, with an empty list. See LESSONS.md §4.2.")
    }

    func test_fetchMessageThreads_classDatabase_sortsTheThreadsByTitle() throws {
        let database = try Self.classDatabase()
        emulator.load(database)
        try fetchSuccessfully()
        let expected = try Self.expectedThreads(in: database)
        try checkSameThreads(controller.messageThreads, expected: expected, before: [])
        try checkSortedByTitle(controller.messageThreads, expected: expected)
    }

    func test_fetchMessageThreads_emptyDatabase_givesAnEmptyListAndNoError() throws {
        emulator.load(.null)
        try fetchSuccessfully()
        XCTAssertEqual(emulator.requests.first?.response.bodyText, "null", "The emulator should have answered `null` for the empty database.")
        XCTAssertTrue(controller.messageThreads.isEmpty, "The database is empty, but `messageThreads` holds \(controller.messageThreads.count) thread(s). See LESSONS.md §4.3.")
    }

    func test_fetchMessageThreads_databaseEmptiedSinceTheLastFetch_emptiesTheList() throws {
        try fetchAndCheck(try Self.classDatabase())
        emulator.load(.null)
        try fetchSuccessfully()
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            The database was emptied since the last fetch, and GET /.json answered `null`, but `messageThreads` still \
            holds \(controller.messageThreads.count) thread(s). `null` is a successful answer meaning "no threads": \
            set `messageThreads` to [] (decode `[String: MessageThread]?` and use `?? [:]`). See LESSONS.md §4.3.
            """)
    }

    func test_fetchMessageThreads_twice_replacesTheListInsteadOfAddingToIt() throws {
        try fetchAndCheck(try Self.sampleDatabase())
        try fetchAndCheck(try Self.classDatabase())
    }

    // MARK: When things go wrong

    func test_fetchMessageThreads_permissionDenied_passesAnError_andKeepsTheList() throws {
        try fetchAndCheck(try Self.classDatabase())
        let before = controller.messageThreads
        emulator.inject(.permissionDenied)
        let error = try fetch()
        XCTAssertNotNil(error, """
            The emulator answered 401 {"error" : "Permission denied"}, but fetchMessageThreads called completion(nil). \
            URLSession counts an HTTP error status as a successful transfer (its `error` is nil): check \
            `(response as? HTTPURLResponse)?.statusCode` is in 200...299 and pass an HTTPStatusError otherwise. \
            See LESSONS.md §4.4.
            """)
        checkListKept(before, after: "401 Permission denied")
    }

    func test_fetchMessageThreads_permissionDenied_checksTheStatusBeforeDecoding() throws {
        emulator.inject(.permissionDenied)
        let error = try fetch()
        let answer = emulator.requests.first?.response.bodyText ?? ""
        if let decoding = error as? DecodingError {
            throw fail("""
                The emulator answered 401 with the body \(oneLine(answer)), and fetchMessageThreads passed a \
                DecodingError (\(oneLine(decoding))). It decoded Firebase's error message as if it were the database, \
                so the real cause, "Permission denied", is lost. Check the status is in 200...299 BEFORE decoding, \
                and pass HTTPStatusError(statusCode:body:) otherwise. See LESSONS.md §4.4.
                """)
        }
        XCTAssertNotNil(error, "The emulator answered 401 Permission denied, but fetchMessageThreads called completion(nil). Check the status code and pass an HTTPStatusError. See LESSONS.md §4.4.")
    }

    func test_fetchMessageThreads_serverError_passesAnHTTPError_andKeepsTheList() throws {
        try fetchAndCheck(try Self.classDatabase())
        let before = controller.messageThreads
        emulator.inject(.internalError)
        let error = try fetch()
        if let decoding = error as? DecodingError {
            throw fail("""
                The emulator answered 500 {"error" : "An internal error occurred"}, and fetchMessageThreads passed a \
                DecodingError (\(oneLine(decoding))): it decoded the error body as the database. Check the status \
                before decoding and pass HTTPStatusError(statusCode:body:). See LESSONS.md §4.4.
                """)
        }
        XCTAssertNotNil(error, "The emulator answered 500 An internal error occurred, but fetchMessageThreads called completion(nil). Check the HTTP status code, not just `error`. See LESSONS.md §4.4.")
        checkListKept(before, after: "500 An internal error occurred")
    }

    func test_fetchMessageThreads_transportError_passesAnError_andKeepsTheList() throws {
        try fetchAndCheck(try Self.classDatabase())
        let before = controller.messageThreads
        emulator.inject(.transportError(.networkConnectionLost))
        let error = try fetch()
        XCTAssertNotNil(error, "The request failed (URLError.networkConnectionLost), but fetchMessageThreads called completion(nil). Check the data task's `error` first and pass it on. See LESSONS.md §4.6.")
        checkListKept(before, after: "URLError.networkConnectionLost, no response at all")
    }

    func test_fetchMessageThreads_malformedBody_passesAnError_andKeepsTheList() throws {
        try fetchAndCheck(try Self.classDatabase())
        let before = controller.messageThreads
        let cutOff = #"{"695398C4-498C-40A8-AA76-CB2B20DFD9FA" : {"identifier" : "695398C4-498C-40A8-AA76-CB2B20DFD9FA", "title" : "REST A"#
        emulator.inject(.malformedBody(cutOff))
        let error = try fetch()
        XCTAssertNotNil(error, """
            The emulator answered 200 with a body cut off in the middle (\(cutOff)), which is not JSON, but \
            fetchMessageThreads called completion(nil). Pass the decoding error on: `do { … try JSONDecoder().decode(…) } \
            catch { completion(error); return }`, not `try?`, which turns a broken answer into an empty list. \
            See LESSONS.md §4.6.
            """)
        checkListKept(before, after: "200 with a body that is not JSON")
    }

    // MARK: Reading back what the app wrote

    func test_fetchMessageThreads_findsTheThreadAndMessageWrittenByCreateMessageThreadAndCreateMessage() throws {
        let created = try createThread(title: "Fetched back ✅")
        try createMessage(in: created, text: "Written with PUT and POST, read with GET 🎉", sender: "Zoë")
        let written = emulator.database
        let otherDevice = MessageThreadController(baseURL: emulator.baseURL, session: emulator.session)
        try fetchSuccessfully(with: otherDevice)
        let expected = try Self.expectedThreads(in: written)
        try checkSameThreads(otherDevice.messageThreads, expected: expected, before: [])
        try checkSortedByTitle(otherDevice.messageThreads, expected: expected)
        let fetched = try XCTUnwrap(otherDevice.messageThreads.first { $0.identifier == created.identifier }, """
            The thread written with createMessageThread (PUT /\(created.identifier).json) is not among the fetched \
            threads. See LESSONS.md §4.6.
            """)
        XCTAssertEqual(fetched, created, """
            The thread read back differs from the one written: fetched "\(fetched.title)" with \
            \(fetched.messages.map(\.text)), wrote "\(created.title)" with \(created.messages.map(\.text)). \
            See LESSONS.md §4.6.
            """)
    }
}
