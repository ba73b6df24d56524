import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson1

/// Exercise 1.4: `createMessage(messageThread:text:sender:completion:)` POSTs a message; the server chooses its key.
final class CreateMessageTests: Lesson1TestCase {
    let exercise = Lesson1TestCase.createMessage

    /// The messages stored under the sample thread, by key.
    var storedMessages: [String: JSONValue] {
        emulator.value(at: "/\(Self.sampleThreadID)/messages").objectValue ?? [:]
    }

    /// The messages the emulator holds that were not in the sample database.
    var newMessages: [String: JSONValue] {
        storedMessages.filter { $0.key != Self.sampleMessageID }
    }

    func test_createMessage_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try createMessage(in: sampleThread())
        _ = try onlyRequest(from: exercise)
    }

    func test_createMessage_usesPOST() throws {
        _ = try createMessage(in: sampleThread())
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "POST", """
            createMessage sent \(request.summary). Use POST: the server chooses a new message's key (a push ID), so \
            two messages never overwrite each other. A PUT to messages.json would replace all of the thread's messages. \
            See LESSONS.md §1.1.
            """)
    }

    func test_createMessage_urlIsBaseURLSlashThreadSlashMessagesDotJSON() throws {
        _ = try createMessage(in: sampleThread())
        let request = try onlyRequest(from: exercise)
        let expected = emulator.baseURL.appendingPathComponent(Self.sampleThreadID)
            .appendingPathComponent("messages").appendingPathExtension("json")
        XCTAssertEqual(request.url.absoluteString, expected.absoluteString, """
            createMessage sent its request to the wrong URL. A thread's messages live at \
            <baseURL>/<thread identifier>/messages.json; POST there and Firebase adds the message under a new key. \
            See LESSONS.md §1.2.
            """)
    }

    func test_createMessage_bodyIsTheJSONEncodedMessage() throws {
        let before = Date()
        _ = try createMessage(in: sampleThread(), text: "Hello, Firebase", sender: "Grace")
        let request = try onlyRequest(from: exercise)
        guard let body = request.body, !body.isEmpty else {
            throw fail("createMessage's request has no body. Set `request.httpBody = try JSONEncoder().encode(message)`. Request: \(request.summary). See LESSONS.md §1.4.")
        }
        let message: MessageThread.Message
        do {
            message = try JSONDecoder().decode(MessageThread.Message.self, from: body)
        } catch {
            throw fail("""
                createMessage's body is not a JSON-encoded MessageThread.Message (\(error)). Body: \(request.bodyText ?? "?"). \
                Encode the message with a plain JSONEncoder(): its default date strategy writes `timestamp` as seconds since \
                2001, the way the recorded data holds it (5.55405872056162E8). See LESSONS.md §1.4.
                """)
        }
        XCTAssertEqual(message.text, "Hello, Firebase", "The message in createMessage's body has the wrong text. Body: \(request.bodyText ?? ""). See LESSONS.md §1.4.")
        XCTAssertEqual(message.sender, "Grace", "The message in createMessage's body has the wrong sender. Body: \(request.bodyText ?? ""). See LESSONS.md §1.4.")
        XCTAssertEqual(message.timestamp.timeIntervalSince1970, before.timeIntervalSince1970, accuracy: 60, "The message's timestamp should be now (MessageThread.Message's default). Body: \(request.bodyText ?? ""). See LESSONS.md §1.4.")
    }

    func test_createMessage_storesTheMessageUnderAServerChosenPushID() throws {
        try requireSuccess(try createMessage(in: sampleThread(), text: "Stored by the server"), of: exercise)
        XCTAssertNotNil(storedMessages[Self.sampleMessageID], """
            After createMessage, the message that was already in the thread is gone. The thread's messages are now: \
            \(JSONValue.object(storedMessages).description). A PUT to messages.json replaces them all; POST adds one. \
            See LESSONS.md §1.1.
            """)
        guard newMessages.count == 1, let (key, stored) = newMessages.first else {
            throw fail("After createMessage, the thread should hold exactly one new message under a new key; its messages are: \(JSONValue.object(storedMessages).description). See LESSONS.md §1.4.")
        }
        XCTAssertNotNil(PushIDGenerator.timestamp(of: key), "The new message is stored under \"\(key)\", which is not a push ID: let the server choose the key (POST). See LESSONS.md §1.1.")
        XCTAssertEqual(stored["text"], "Stored by the server", "The stored message has the wrong text: \(stored.description). See LESSONS.md §1.4.")
    }

    func test_createMessage_appendsTheMessageToTheThread_onSuccess() throws {
        let thread = sampleThread()
        try requireSuccess(try createMessage(in: thread, text: "Local copy", sender: "Ada"), of: exercise)
        XCTAssertEqual(thread.messages.map(\.text), ["Local copy"], "After the server accepted the message, the thread's `messages` should hold it, once. See LESSONS.md §1.4.")
        XCTAssertEqual(thread.messages.first?.sender, "Ada", "The message appended to the thread should be the one you sent. See LESSONS.md §1.4.")
    }

    func test_createMessage_callsCompletionWithNil_onSuccess() throws {
        let error = try createMessage(in: sampleThread())
        try requireSuccess(error, of: exercise)
    }

    func test_createMessage_twice_addsTwoMessagesUnderDistinctPushIDs() throws {
        let thread = sampleThread()
        try requireSuccess(try createMessage(in: thread, text: "Same words"), of: exercise)
        try requireSuccess(try createMessage(in: thread, text: "Same words"), of: exercise)
        XCTAssertEqual(newMessages.count, 2, """
            Two calls of createMessage should leave two new messages, each under its own push ID: POST is not \
            idempotent, and that is what you want for messages. The thread's messages are: \
            \(JSONValue.object(storedMessages).description). See LESSONS.md §1.1.
            """)
        XCTAssertEqual(thread.messages.count, 2, "The thread's `messages` should hold both new messages. See LESSONS.md §1.4.")
    }

    func test_createMessage_reportsPermissionDenied_andKeepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.permissionDenied)
        let error = try createMessage(in: thread)
        XCTAssertNotNil(error, """
            The emulator answered 401 {"error" : "Permission denied"}, but createMessage called completion(nil). \
            Check the HTTP status code is in 200...299 and pass an HTTPStatusError otherwise. See LESSONS.md §1.5.
            """)
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the server refused it (401). Append only after the status says the write succeeded. See LESSONS.md §1.5.")
    }

    func test_createMessage_reportsServerError_andKeepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.internalError)
        let error = try createMessage(in: thread)
        XCTAssertNotNil(error, "The emulator answered 500 An internal error occurred, but createMessage called completion(nil). Check the HTTP status code, not just `error`. See LESSONS.md §1.5.")
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the server failed (500). Append only on success. See LESSONS.md §1.5.")
    }

    func test_createMessage_reportsTransportError_andKeepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.transportError(.timedOut))
        let error = try createMessage(in: thread)
        XCTAssertNotNil(error, "The request failed (URLError.timedOut), but createMessage called completion(nil). Check the data task's `error` first and pass it on. See LESSONS.md §1.5.")
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the request never reached the server. Append only on success. See LESSONS.md §1.5.")
    }
}
