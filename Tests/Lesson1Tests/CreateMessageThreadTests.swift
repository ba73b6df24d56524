import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson1

/// Exercise 1.3: `createMessageThread(title:completion:)` PUTs a new thread at the key the client chose.
final class CreateMessageThreadTests: Lesson1TestCase {
    let exercise = Lesson1TestCase.createThread

    func test_createMessageThread_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try createThread()
        _ = try onlyRequest(from: exercise)
    }

    func test_createMessageThread_usesPUT() throws {
        _ = try createThread()
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "PUT", """
            createMessageThread sent \(request.summary). Use PUT: the client chose the key (the thread's identifier), \
            and PUT writes exactly at the URL, so sending it again changes nothing. POST would make Firebase invent \
            a second key under it. See LESSONS.md §1.1.
            """)
    }

    func test_createMessageThread_urlIsBaseURLSlashIdentifierDotJSON() throws {
        _ = try createThread()
        let request = try onlyRequest(from: exercise)
        let identifier = try XCTUnwrap(
            (try? JSONDecoder().decode(MessageThread.self, from: request.body ?? Data()))?.identifier,
            "createMessageThread's request has no JSON-encoded thread in its body, so its URL can't be checked against the thread's identifier. \(request.summary). See LESSONS.md §1.3."
        )
        let expected = emulator.baseURL.appendingPathComponent(identifier).appendingPathExtension("json")
        XCTAssertEqual(request.url.absoluteString, expected.absoluteString, """
            createMessageThread sent its request to the wrong URL. A thread lives at <baseURL>/<identifier>.json: \
            the identifier is its key, and `.json` tells Firebase this is a REST call \
            (baseURL.appendingPathComponent(thread.identifier).appendingPathExtension("json")). See LESSONS.md §1.2.
            """)
    }

    func test_createMessageThread_bodyIsTheJSONEncodedThread() throws {
        _ = try createThread(title: "Codable, nested")
        let request = try onlyRequest(from: exercise)
        guard let body = request.body, !body.isEmpty else {
            throw fail("createMessageThread's request has no body. Set `request.httpBody = try JSONEncoder().encode(thread)`. Request: \(request.summary). See LESSONS.md §1.3.")
        }
        let thread: MessageThread
        do {
            thread = try JSONDecoder().decode(MessageThread.self, from: body)
        } catch {
            throw fail("createMessageThread's body is not a JSON-encoded MessageThread (\(error)). Body: \(request.bodyText ?? "?"). Encode the thread with JSONEncoder. See LESSONS.md §1.3.")
        }
        XCTAssertEqual(thread.title, "Codable, nested", "The thread in createMessageThread's body has the wrong title. Body: \(request.bodyText ?? ""). See LESSONS.md §1.3.")
        XCTAssertNotNil(UUID(uuidString: thread.identifier), "The thread's identifier should be a UUID string (MessageThread's default); it is \"\(thread.identifier)\". See LESSONS.md §1.3.")
    }

    func test_createMessageThread_storesTheThreadUnderItsIdentifier() throws {
        try requireSuccess(try createThread(title: "Stored where I said"), of: exercise)
        let request = try onlyRequest(from: exercise)
        let identifier = try XCTUnwrap(request.bodyJSON?["identifier"].stringValue, "createMessageThread's body has no `identifier`. \(request.summary). See LESSONS.md §1.3.")
        let stored = emulator.value(at: "/\(identifier)")
        XCTAssertEqual(stored["title"], "Stored where I said", """
            After createMessageThread, the database should hold the thread at /\(identifier) (its identifier). It holds \
            there: \(stored.description). With POST, Firebase stores the body under a new key of its own instead; PUT \
            stores it exactly at the URL. See LESSONS.md §1.1.
            """)
        XCTAssertEqual(emulator.value(at: "/\(Self.sampleThreadID)")["title"], "REST APIs", "createMessageThread removed or changed the thread that was already there: a PUT must go to the new thread's own URL, not to the database root. See LESSONS.md §1.2.")
    }

    func test_createMessageThread_appendsTheThreadToMessageThreads_onSuccess() throws {
        try requireSuccess(try createThread(title: "Local copy"), of: exercise)
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(controller.messageThreads.map(\.title), ["Local copy"], "After the server accepted the thread, `messageThreads` should hold it, once. See LESSONS.md §1.3.")
        XCTAssertEqual(controller.messageThreads.first?.identifier, request.bodyJSON?["identifier"].stringValue, "The thread appended to `messageThreads` should be the one you sent (same identifier). See LESSONS.md §1.3.")
    }

    func test_createMessageThread_callsCompletionWithNil_onSuccess() throws {
        let error = try createThread()
        try requireSuccess(error, of: exercise)
    }

    func test_createMessageThread_sendingTheSamePUTTwice_leavesOneThread() throws {
        try requireSuccess(try createThread(title: "Idempotent"), of: exercise)
        let request = try onlyRequest(from: exercise)
        let before = emulator.database
        replay(request)
        XCTAssertEqual(emulator.database, before, """
            Sending createMessageThread's request a second time changed the database. A PUT to the thread's own URL is \
            idempotent: repeating it leaves the same single thread. (A POST adds a new child every time.) \
            Request: \(request.summary). See LESSONS.md §1.1.
            """)
    }

    func test_createMessageThread_twice_makesTwoThreadsWithTheirOwnKeys() throws {
        try requireSuccess(try createThread(title: "First"), of: exercise)
        try requireSuccess(try createThread(title: "Second"), of: exercise)
        let keys = emulator.requests.compactMap { $0.bodyJSON?["identifier"].stringValue }
        XCTAssertEqual(Set(keys).count, 2, "Two calls of createMessageThread should create two threads, each with a new identifier; they used \(keys). Make a new MessageThread in every call. See LESSONS.md §1.3.")
        XCTAssertEqual(controller.messageThreads.map(\.title), ["First", "Second"], "`messageThreads` should hold both new threads, in the order they were created. See LESSONS.md §1.3.")
    }

    func test_createMessageThread_reportsPermissionDenied_andKeepsMessageThreadsUnchanged() throws {
        emulator.inject(.permissionDenied)
        let error = try createThread()
        XCTAssertNotNil(error, """
            The emulator answered 401 {"error" : "Permission denied"}, but createMessageThread called completion(nil). \
            URLSession treats an HTTP error status as a successful transfer (its `error` is nil): check \
            `(response as? HTTPURLResponse)?.statusCode` is in 200...299 and pass an HTTPStatusError otherwise. See LESSONS.md §1.5.
            """)
        XCTAssertTrue(controller.messageThreads.isEmpty, "`messageThreads` gained a thread although the server refused it (401). Append only after the status says the write succeeded. See LESSONS.md §1.5.")
    }

    func test_createMessageThread_reportsServerError_andKeepsMessageThreadsUnchanged() throws {
        emulator.inject(.internalError)
        let error = try createThread()
        XCTAssertNotNil(error, "The emulator answered 500 An internal error occurred, but createMessageThread called completion(nil). Check the HTTP status code, not just `error`. See LESSONS.md §1.5.")
        XCTAssertTrue(controller.messageThreads.isEmpty, "`messageThreads` gained a thread although the server failed (500). Append only on success. See LESSONS.md §1.5.")
    }

    func test_createMessageThread_reportsTransportError_andKeepsMessageThreadsUnchanged() throws {
        emulator.inject(.transportError(.notConnectedToInternet))
        let error = try createThread()
        XCTAssertNotNil(error, "The request failed (URLError.notConnectedToInternet), but createMessageThread called completion(nil). Check the data task's `error` first and pass it on. See LESSONS.md §1.5.")
        XCTAssertTrue(controller.messageThreads.isEmpty, "`messageThreads` gained a thread although the request never reached the server. Append only on success. See LESSONS.md §1.5.")
    }
}
