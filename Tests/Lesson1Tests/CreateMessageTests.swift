import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import LabSupport
import Lesson1

/// Exercise 1.4: `createMessage(messageThread:text:sender:completion:)` POSTs a message; the server chooses its key.
/// The tests use the sample database's thread (a reference, not your createMessageThread), and run from the most
/// basic behaviour to the most specific: fix the first failure first.
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

    /// A message's body as Firebase would store it: `text` and `sender` strings, `timestamp` a number.
    struct SentMessage {
        let text: String
        let sender: String
        /// Seconds since 1 January 2001 (JSONEncoder's default for a Date).
        let timestamp: Double
        var date: Date { Date(timeIntervalSinceReferenceDate: timestamp) }
    }

    /// The text the body test sends: with quotes and a line break, which a JSON string must escape, and a space at its end
    /// (as typed), which the message keeps: the text goes as it is given.
    static let quotedText = "Hello, \"Firebase\"\nSecond line "

    /// Reads the message in createMessage's body, checking its timestamp was made between `before` and `after`.
    func sentMessage(in request: RecordedRequest, madeBetween before: Date, and after: Date,
                     file: StaticString = #filePath, line: UInt = #line) throws -> SentMessage {
        let data = try requireBody(of: request, from: exercise, file: file, line: line)
        guard let json = try? JSONValue(data: data) else {
            throw fail("""
                createMessage's body is not JSON: \(request.summary). Encode the MessageThread.Message with JSONEncoder \
                and send that as the body.\(CreateMessageThreadTests.pastedJSONNote(request, title: Self.quotedText)) See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        guard let object = json.objectValue else {
            throw fail("""
                createMessage's body is \(json.description), not a JSON object: POST the one message itself, and \
                Firebase stores it under a new key.\(Self.encodedTwiceNote(json)) See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        let keys = object.keys.sorted().joined(separator: ", ")
        guard let text = object["text"]?.stringValue, let sender = object["sender"]?.stringValue, object["timestamp"] != nil else {
            throw fail("""
                createMessage's body needs the message's `text`, `sender` and `timestamp` (the keys \
                MessageThread.Message encodes, spelt exactly so); it has \(keys.isEmpty ? "no keys" : "the keys \(keys)"): \
                \(json.description). Encode a MessageThread.Message with JSONEncoder. See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        let timestamp = object["timestamp"] ?? .null
        let expected = "a number of seconds since 1 January 2001 (here about \(Int(before.timeIntervalSinceReferenceDate)))"
        if timestamp.objectValue?[".sv"] != nil {
            throw fail("""
                The message's `timestamp` in createMessage's body is \(timestamp.description), Firebase's server-value \
                placeholder: the server would write its own time there, in milliseconds since 1970 — not \(expected), \
                which is what the recorded data holds — and the message you keep would hold another moment than the one \
                stored. Send the message's own `timestamp`: encode the MessageThread.Message with a plain JSONEncoder(). \
                See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        guard let seconds = timestamp.numberValue else {
            throw fail("""
                The message's `timestamp` in createMessage's body is \(timestamp.description), not a number: the \
                recorded data holds \(expected), which is what a plain JSONEncoder() writes for a Date (its default \
                date strategy). Don't set a dateEncodingStrategy. See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        let earliest = before.timeIntervalSinceReferenceDate - 1, latest = after.timeIntervalSinceReferenceDate + 1
        guard (earliest...latest).contains(seconds) else {
            var why = "Send the time the message was made"
            if (earliest...latest).contains(Date(timeIntervalSince1970: seconds).timeIntervalSinceReferenceDate) {
                why = "That is seconds since 1970 (`.secondsSince1970`, or timeIntervalSince1970), 31 years off"
            } else if (earliest...latest).contains(Date(timeIntervalSince1970: seconds / 1000).timeIntervalSinceReferenceDate) {
                why = "That is milliseconds since 1970 (`.millisecondsSince1970`)"
            } else if let offset = Self.timeZoneOffset(of: seconds, between: earliest, and: latest) {
                why = """
                    That is the time shifted by \(offset / 3600) h \(abs(offset) % 3600 / 60) min, the offset of the device's \
                    time zone (the test ran in \(Self.deviceTimeZone), UTC+5:30). A Date is an instant, the same in \
                    every time zone: send Date() as it is, without adding `secondsFromGMT()` — and without a round trip \
                    through text whose two DateFormatters have different time zones (one set to UTC, one left in the \
                    device's): the text names a wall-clock time, and each zone reads another instant from it
                    """
            }
            throw fail("""
                The message's `timestamp` in createMessage's body is \(timestamp.description); it should be \(expected), \
                the moment the message was made. \(why). A plain JSONEncoder() writes a Date the way the recorded data \
                holds it: don't set a dateEncodingStrategy. See LESSONS.md §1.4.
                """, file: file, line: line)
        }
        return SentMessage(text: text, sender: sender, timestamp: seconds)
    }

    func test_createMessage_sendsOneRequestThroughTheInjectedSession() throws {
        try createMessage(in: sampleThread())
        _ = try onlyRequest(from: exercise)
    }

    /// A session made from the injected one's configuration reaches the same emulator (see `injectedSessionSent`).
    func test_createMessage_sendsItsRequestWithTheInjectedSessionItself() throws {
        let thread = sampleThread()
        try requireSentByTheInjectedSession(exercise, on: emulator) { done in
            controller.createMessage(messageThread: thread, text: "PUT puts, POST appends", sender: "Ada", completion: done)
        }
    }

    func test_createMessage_usesPOST() throws {
        try createMessage(in: sampleThread())
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "POST", """
            createMessage sent \(request.summary). Use POST: the server chooses a new message's key (a push ID), so \
            two messages never overwrite each other. A PUT to messages.json would replace all of the thread's messages.\
            \(Self.plainGETNote(request, shouldBe: "POST"))\(Self.patchNote(request, shouldBe: "POST")) See LESSONS.md §1.1.
            """)
    }

    func test_createMessage_urlIsTheThreadsMessagesDotJSON() throws {
        try createMessage(in: sampleThread())
        let request = try onlyRequest(from: exercise)
        let expected = "/\(Self.sampleThreadID)/messages"
        XCTAssertTrue(request.hasJSONSuffix, """
            createMessage's URL does not end in `.json`: \(request.url.absoluteString). Firebase's REST API answers \
            only URLs ending in .json (without it the server sends an error page: \(request.response.statusCode)).\
            \(Self.trailingSlashNote(request))\(Self.unchangedBaseURLNote(request))\(Self.jsonInTheMiddleNote(request))\(Self.extensionWithoutDotNote(request)) See LESSONS.md §1.2.
            """)
        try requireNoEncodedSlash(in: request, of: exercise)
        XCTAssertEqual(request.path, expected, """
            createMessage wrote to the path \(request.path), but a thread's messages live at \(expected): \
            <baseURL>/<the thread's identifier>/messages.json. POST there and Firebase adds the message under a new \
            key.\(Self.doubleDotNote(request))\(Self.jsonTwiceNote(request))\(Self.objectInPathNote(request.path))\(Self.jsonInTheMiddleNote(request))\(Self.componentAsExtensionNote(request.path, expected: expected))\
            \(Self.caseNote(request.path, expected))\(Self.rootMessagesNote(request, expected: expected)) URL sent: \(request.url.absoluteString). See LESSONS.md §1.2.
            """)
    }

    /// The time zone the body test runs in (UTC+5:30, no daylight saving): a timestamp shifted by the device's time
    /// zone is wrong on every machine, not only off UTC.
    static let deviceTimeZone = "Asia/Kolkata"

    /// When `seconds` is a moment in `earliest...latest` shifted by a whole number of minutes within a day's offsets
    /// (a time zone's offset, added or taken away): that offset in seconds.
    static func timeZoneOffset(of seconds: Double, between earliest: Double, and latest: Double) -> Int? {
        guard let zone = TimeZone(identifier: deviceTimeZone) else { return nil }
        let offset = Double(zone.secondsFromGMT())
        if (earliest...latest).contains(seconds - offset) { return Int(offset) }
        if (earliest...latest).contains(seconds + offset) { return -Int(offset) }
        return nil
    }

    /// Runs `body` with the process's time zone (TZ, so TimeZone.current too) set to `deviceTimeZone`, then puts it back.
    /// `NSTimeZone.default` too: a new DateFormatter takes its time zone from there, which TZ alone does not move on Linux.
    func inDeviceTimeZone<T>(_ body: () throws -> T) rethrows -> T {
        let zone = TimeZoneOverride(Self.deviceTimeZone)
        let savedDefault = NSTimeZone.default
        if let device = TimeZone(identifier: Self.deviceTimeZone) { NSTimeZone.default = device }
        defer {
            NSTimeZone.default = savedDefault
            zone.restore()
        }
        return try body()
    }

    func test_createMessage_bodyIsTheNewMessageAsJSON() throws {
        let before = Date()
        // A quote and a line break in the text: JSONEncoder escapes them; a body pasted together from strings breaks on them.
        // In a time zone off UTC: a timestamp shifted by the device's time zone shows.
        try inDeviceTimeZone { try createMessage(in: sampleThread(), text: Self.quotedText, sender: "Grace") }
        let after = Date()
        let request = try onlyRequest(from: exercise)
        let message = try sentMessage(in: request, madeBetween: before, and: after)
        XCTAssertEqual(message.text, Self.quotedText, "The message in createMessage's body has the wrong text: the text passed in was \(Self.quotedText.debugDescription).\(Self.percentEncodedNote(sent: message.text, passed: Self.quotedText))\(Self.cleanedTextNote(sent: message.text, passed: Self.quotedText, what: "text")) Body: \(request.bodyText ?? ""). See LESSONS.md §1.4.")
        XCTAssertEqual(message.sender, "Grace", "The message in createMessage's body has the wrong sender: the sender passed in was \"Grace\". Body: \(request.bodyText ?? ""). See LESSONS.md §1.4.")
    }

    func test_createMessage_callsCompletionWithNil_onSuccess() throws {
        let error = try createMessage(in: sampleThread())
        try requireSuccess(error, of: exercise)
    }

    func test_createMessage_storesTheMessageUnderAServerChosenPushID() throws {
        let before = Date()
        try requireSuccess(try createMessage(in: sampleThread(), text: "Stored by the server", sender: "Linus"), of: exercise)
        let sent = try sentMessage(in: try onlyRequest(from: exercise), madeBetween: before, and: Date())
        XCTAssertNotNil(storedMessages[Self.sampleMessageID], """
            After createMessage, the message that was already in the thread is gone. The thread's messages are now: \
            \(JSONValue.object(storedMessages).description). A PUT to messages.json replaces them all; POST adds one. \
            See LESSONS.md §1.1.
            """)
        guard newMessages.count == 1, let (key, stored) = newMessages.first else {
            throw fail("After createMessage, the thread should hold exactly one new message under a new key; its messages are: \(JSONValue.object(storedMessages).description). See LESSONS.md §1.4.")
        }
        XCTAssertNotNil(PushIDGenerator.timestamp(of: key), "The new message is stored under \"\(key)\", which is not a push ID: let the server choose the key (POST). See LESSONS.md §1.1.")
        let expected: JSONValue = ["text": .string(sent.text), "sender": .string(sent.sender), "timestamp": .number(sent.timestamp)]
        XCTAssertEqual(stored, expected, "The stored message should be exactly the message you sent: \(expected.description); the database holds \(stored.description). See LESSONS.md §1.4.")
    }

    func test_createMessage_appendsTheMessageToTheThread_keepingItsOtherMessages() throws {
        let thread = sampleThread(withItsMessage: true)
        let before = Date()
        try requireSuccess(try createMessage(in: thread, text: "Local copy", sender: "Ada"), of: exercise)
        let sent = try sentMessage(in: try onlyRequest(from: exercise), madeBetween: before, and: Date())
        let expected = [Self.sampleMessage, MessageThread.Message(text: "Local copy", sender: "Ada", timestamp: sent.date)]
        let matches = { Self.sameMessages(thread.messages, expected) }
        eventually(within: 0.5, matches)
        XCTAssertTrue(matches(), """
            After the server accepted the message, the thread's `messages` should be the message it already had \
            followed by the one you sent (same text, sender and timestamp): \(Self.list(expected)). They are: \
            \(Self.list(thread.messages)). Append the message you encoded to `messageThread.messages`.\
            \(Self.remadeNote(thread.messages, expected)) See LESSONS.md §1.4.
            """)
    }

    func test_createMessage_appendsTheMessageBeforeCallingCompletion() throws {
        let thread = sampleThread()
        try requireSuccess(try createMessage(in: thread, text: "In order", holdingTheMainQueue: true), of: exercise)
        var newest = "In order"
        var atCompletion = (lastCall?.calls.first?.state.messages ?? []).map(\.text)
        var call = 1
        // A change made on another queue just before `completion(nil)` (a `queue.async` that nothing waits for) can
        // win that race once by luck, but hardly every time: a few more calls, each checked the same way (is the new
        // message there? Where in the list is for other tests).
        let controller = self.controller!
        while atCompletion.contains(newest), call < Self.orderRounds {
            call += 1
            let text = "In order \(call)"
            guard let seen = stateAtCompletion({ done in controller.createMessage(messageThread: thread, text: text, sender: "Ada") { done($0) } },
                                               { thread.messages.map(\.text) }) else { return }
            newest = text
            atCompletion = seen
        }
        guard !atCompletion.contains(newest) else { return }
        let later = eventually(within: 0.5) { thread.messages.map(\.text).contains(newest) }
        XCTFail("""
            When createMessage called completion(nil)\(call > 1 ? " (in call \(call) of up to \(Self.orderRounds))" : ""), the \
            thread's `messages` were \(atCompletion) — the new message (\(newest.debugDescription)) was not in them yet. \
            The caller reads the thread in its completion (to show the message, say): append the message first, then \
            call `completion(nil)`.\(later ? Self.changedAfterCompletionNote("the thread's `messages`") : "") See LESSONS.md §1.4.
            """)
    }

    func test_createMessage_callsCompletionOnlyAfterTheServerAnswered() throws {
        emulator.latency = 0.3
        let error = try createMessage(in: sampleThread(), waitingAtLeast: 2.3)
        let request = try onlyRequest(from: exercise)
        guard let called = lastCall?.calls.first?.at else { return }
        let after = called.timeIntervalSince(request.receivedAt)
        XCTAssertGreaterThanOrEqual(after, 0.25, """
            With the emulator answering 0.3 s after it received the request, createMessage called \
            completion(\(Self.describe(error))) \(String(format: "%.2f", after)) s after the request arrived: before \
            the server answered. Call `completion` from inside the data task's handler, after checking the response. \
            See LESSONS.md §1.2.1 and §1.4.
            """)
    }

    func test_createMessage_twice_addsTwoMessagesUnderDistinctPushIDs() throws {
        let thread = sampleThread()
        try requireSetupSuccess(try createMessage(in: thread, text: "Same words"), "the first createMessage", of: exercise)
        try requireSuccess(try createMessage(in: thread, text: "Same words"), of: exercise)
        XCTAssertEqual(newMessages.count, 2, """
            Two calls of createMessage should leave two new messages, each under its own push ID: POST is not \
            idempotent, and that is what you want for messages. The thread's messages are: \
            \(JSONValue.object(storedMessages).description). See LESSONS.md §1.1.
            """)
        eventually(within: 0.5) { thread.messages.count == 2 }
        XCTAssertEqual(thread.messages.map(\.text), ["Same words", "Same words"], """
            After two successful calls of createMessage with the same text, the thread's `messages` should hold both \
            new messages, in the order sent; they are \(Self.list(thread.messages)). Each success appends its own \
            message, even when its text is the same as another's (two POSTs are two messages). See LESSONS.md §1.4.
            """)
    }

    func test_createMessage_toAThreadTheControllerHolds_addsTheMessageOnce() throws {
        // The controller holds a thread only once createMessageThread (§1.3) made it. That is called here directly, not
        // graded: when it does not work, this test has nothing to check (§1.3's tests say why) — it only makes sure a
        // createMessage stub is reported — so a §1.3 mistake is not reported again here.
        guard let held = threadTheControllerHolds() else {
            StubLog.reset()
            let done = Box<Bool>()
            controller.createMessage(messageThread: sampleThread(), text: "Only once", sender: "Ada") { _ in done.set(true) }
            eventually(within: 2) { done.get() == true }
            try stopIfAStubRan()
            return
        }
        try requireSuccess(try createMessage(in: held, text: "Only once"), of: exercise)
        settle()
        XCTAssertEqual(held.messages.map(\.text), ["Only once"], """
            createMessage was given a thread that is also in the controller's `messageThreads` — the same object, since \
            MessageThread is a class — and its `messages` are now \(Self.list(held.messages)): the message was added \
            more than once. Append it once, to `messageThread` (the controller's list holds that very object, so it \
            shows there too). See LESSONS.md §1.4 and §2.3.
            """)
    }

    /// Makes a thread with the learner's createMessageThread, outside the graded calls: the thread the controller then
    /// holds, or nil when that did not work cleanly (no success, nothing held, or a request that went elsewhere).
    private func threadTheControllerHolds() -> MessageThread? {
        let done = Box<Error?>()
        controller.createMessageThread(title: "Held by the controller") { error in done.set(error) }
        let finished = eventually(within: 2) { done.get() != nil }
        defer { StubLog.reset() }
        let traffic = TrafficReport(emulator)
        guard finished, case .some(.none) = done.get(), traffic.viaOtherSession.isEmpty, traffic.toOtherHost.isEmpty,
              traffic.received.allSatisfy({ (200...299).contains($0.response.statusCode) }) else { return nil }
        settle()
        return controller.messageThreads.first
    }

    func test_createMessage_permissionDenied_passesAnHTTPStatusError401() throws {
        emulator.inject(.permissionDenied)
        let error = try createMessage(in: sampleThread())
        XCTAssertNotNil(error, """
            The emulator answered 401 {"error" : "Permission denied"}, but createMessage called completion(nil). \
            URLSession treats an HTTP error status as a successful transfer (its `error` is nil): check \
            `(response as? HTTPURLResponse)?.statusCode` is in 200...299 and pass an HTTPStatusError otherwise. See LESSONS.md §1.5.
            """)
        guard let error = error else { return }
        XCTAssertEqual(Self.httpStatus(of: error), 401, """
            The emulator answered 401 Permission denied; createMessage passed \(Self.describe(error)). Pass \
            HTTPStatusError(statusCode: 401, …) — the status the server answered. See LESSONS.md §1.5.
            """)
    }

    func test_createMessage_permissionDenied_keepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.permissionDenied)
        try createMessage(in: thread)
        settle()
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the server refused it (401): \(Self.list(thread.messages)). Append only after the status says the write succeeded. See LESSONS.md §1.5.")
    }

    func test_createMessage_serverError_passesAnHTTPStatusError500() throws {
        emulator.inject(.internalError)
        let error = try createMessage(in: sampleThread())
        XCTAssertNotNil(error, "The emulator answered 500 An internal error occurred, but createMessage called completion(nil). Check the HTTP status code, not just `error`. See LESSONS.md §1.5.")
        guard let error = error else { return }
        XCTAssertEqual(Self.httpStatus(of: error), 500, """
            The emulator answered 500 An internal error occurred; createMessage passed \(Self.describe(error)). Pass \
            HTTPStatusError(statusCode: 500, …) with the status the server answered. See LESSONS.md §1.5.
            """)
    }

    func test_createMessage_serverError_keepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.internalError)
        try createMessage(in: thread)
        settle()
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the server failed (500): \(Self.list(thread.messages)). Append only on success. See LESSONS.md §1.5.")
    }

    func test_createMessage_redirect307_passesAnHTTPStatusError() throws {
        emulator.inject(Self.unfollowedRedirect)
        try requireHTTPStatusErrorOnRedirect(try createMessage(in: sampleThread()), of: exercise)
        // Then a 300, the first status past 2xx, which a success check one too far (`<= 300`) lets through.
        emulator.inject(Self.multipleChoices)
        let controller = self.controller!
        let requestsBefore = emulator.requests.count
        if let error = firstCompletion({ done in controller.createMessage(messageThread: sampleThread(), text: "PUT puts, POST appends", sender: "Ada", completion: done) }) {
            try requireARequestAfterAFailure(since: requestsBefore, got: error, of: exercise)
            try requireHTTPStatusErrorOnRedirect(error, status: 300, of: exercise)
        }
    }

    func test_createMessage_noContent204_isNoHTTPStatusError() throws {
        let thread = sampleThread()
        emulator.withService { $0.answersWritesSilently = true }
        let error = try createMessage(in: thread, text: "Silently stored")
        try requireNoHTTPStatusErrorOn204(error, of: exercise)
        guard error == nil else { return }
        eventually(within: 0.5) { thread.messages.map(\.text) == ["Silently stored"] }
        XCTAssertEqual(thread.messages.map(\.text), ["Silently stored"], """
            The emulator answered 204 No Content — a success with no body — and createMessage called completion(nil), \
            but the thread's `messages` do not hold the new message: they are \(Self.list(thread.messages)). A 204 is a \
            success like 200, only its body is empty (`data` is empty, or nil): don't leave the handler early on an \
            empty body. See LESSONS.md §1.5.
            """)
    }

    func test_createMessage_status299_isNoHTTPStatusError() throws {
        emulator.inject(Self.lastSuccessStatus)
        try requireNoHTTPStatusErrorOn299(try createMessage(in: sampleThread(), text: "Accepted with 299"), of: exercise)
    }

    func test_createMessage_transportError_passesTheURLErrorOn() throws {
        emulator.inject(.transportError(.timedOut))
        let error = try createMessage(in: sampleThread())
        XCTAssertTrue(Self.isURLError(error, .timedOut), """
            The request failed with URLError(.timedOut); createMessage passed \(Self.describe(error)). Check the data \
            task's `error` first and pass that very error to `completion`. See LESSONS.md §1.5.
            """)
    }

    func test_createMessage_transportError_keepsTheThreadUnchanged() throws {
        let thread = sampleThread()
        emulator.inject(.transportError(.timedOut))
        try createMessage(in: thread)
        settle()
        XCTAssertTrue(thread.messages.isEmpty, "The thread gained a message although the request never reached the server: \(Self.list(thread.messages)). Append only on success. See LESSONS.md §1.5.")
    }

    func test_createMessage_changesNothingLocally_beforeTheServerAnswered() throws {
        let thread = sampleThread()
        let during = stateBeforeTheAnswer { thread.messages }
        try requireSuccess(try createMessage(in: thread, text: "Not yet", waitingAtLeast: 2.4), of: exercise)
        XCTAssertEqual(during()?.isEmpty, true, """
            While the server had not answered yet (0.2 s after the call, its answer held back), the thread's `messages` already were \
            \(during().map { Self.list($0) } ?? "?"). Append the message only once the server has accepted it — not \
            optimistically, to be undone on a failure: until then nobody may see a message the server can still refuse. \
            See LESSONS.md §1.4 and §1.3.
            """)
    }

    func test_createMessage_twoCallsAtOnce_keepsBothMessages() throws {
        // Two messages in flight at once to one thread: each call must report its own answer, and each answer must add
        // its message to the thread's messages as they are then — a copy made before sending drops the other message.
        let thread = sampleThread()
        let controller = self.controller!
        let texts = ["First of two at once", "Second of two at once"]
        try twoCallsAtOnce(of: exercise) { index, done in
            controller.createMessage(messageThread: thread, text: texts[index], sender: "Ada", completion: done)
        }
        let current = { Set(thread.messages.map(\.text)) }
        eventually(within: 0.5) { current().isSuperset(of: texts) }
        let lost = texts.filter { !current().contains($0) }
        XCTAssertTrue(lost.isEmpty, """
            createMessage was called twice at once for one thread (both requests in flight together) and both calls \
            succeeded, but the thread's `messages` are \(Self.list(thread.messages)): \(lost) was lost. A copy of the \
            messages made before sending (`var updated = messageThread.messages; updated.append(message)`, assigned in the \
            handler) holds only what was there when that call began, so assigning it drops what the other call added \
            meanwhile. In the handler, append to the thread's messages as they are then: \
            `messageThread.messages.append(message)`. Or the two appends ran at the same moment on two threads (each in a \
            `Task.detached` or on a concurrent queue): a data race, which can lose one — append where the answers come one \
            at a time, in the session's handler or on the main actor.\
            \(Self.keptInAPropertyNote(Self.duplicates(thread.messages.map(\.text)).map(\.debugDescription), what: "message", property: "pendingMessage")) \
            See LESSONS.md §1.4.
            """)
    }

    func test_createMessage_leavesTheControllersThreadsAsTheyWere() throws {
        // The sample thread is not one this controller created: createMessage adds a message to it, and the
        // controller's list of the threads it created stays as it was (empty).
        try requireSuccess(try createMessage(in: sampleThread(), text: "Only the thread changes"), of: exercise)
        settle()
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            createMessage changed the controller's `messageThreads`, which now holds \
            \(controller.messageThreads.map(ThreadCopy.init)). That list holds the threads this app created with \
            createMessageThread (§1.3); createMessage changes only the thread it is given: append the message to \
            `messageThread.messages` and leave `messageThreads` as it was. See LESSONS.md §1.4.
            """)
    }

    func test_createMessage_failureAfterAnotherCallsSuccess_keepsThatMessage() throws {
        // One message waits for its answer, a failure; meanwhile a second message to the same thread succeeds and is
        // added. The failure then must leave the thread's messages as they are at that moment: a rollback (removing the
        // last message) or a copy of the messages made before sending, put back on failure, drops the other message.
        // Once with a 500, once with a transport error: each failure path of the handler.
        let thread = sampleThread()
        let controller = self.controller!
        for (round, fault) in Self.failuresAfterASuccess.enumerated() {
            let kept = try failureAfterAnotherCallsSuccess(of: exercise, fault: fault, failing: { done in
                controller.createMessage(messageThread: thread, text: "Failing, round \(round + 1)", sender: "Ada", completion: done)
            }, succeeding: {
                try createMessage(in: thread, text: "Accepted meanwhile, round \(round + 1)")
            }, state: { thread.messages })
            let lost = (0...round).map { "Accepted meanwhile, round \($0 + 1)" }.filter { text in !kept.contains { $0.text == text } }
            guard lost.isEmpty else {
                throw fail("""
                    One createMessage call failed (\(Self.describe(fault))) after another message to the same thread had \
                    been accepted and added, and the thread's `messages` then were \(Self.list(kept)): the failed call \
                    removed a message another call added (\(lost)). A failure changes nothing: don't undo anything on it \
                    — not `popLast()`/`removeLast()` (a rollback left from code that appended before sending: what it \
                    removes is another call's message), nor `messageThread.messages = previous`, a copy made before \
                    sending (it lacks what other calls added meanwhile). Just pass the error to `completion`. \
                    See LESSONS.md §1.5 and §1.4.
                    """)
            }
        }
    }

    /// A text of spaces only.
    static let blankText = "   "

    func test_createMessage_blankText_isStoredOrRefused() throws {
        // Sending a blank text as it is (Firebase stores any text) and refusing it with an error, nothing sent, are
        // both right; completion(nil) for a message that was never stored is not.
        let thread = sampleThread()
        let error = try createMessage(in: thread, text: Self.blankText, allowingRefusalOf: "a blank text")
        if let error = error {
            XCTAssertTrue(thread.messages.isEmpty, """
                createMessage refused the blank text (completion(\(Self.describe(error)))), yet the thread's messages \
                changed: \(Self.list(thread.messages)). A refusal changes nothing. See LESSONS.md §1.4.
                """)
            return
        }
        guard newMessages.values.contains(where: { $0["text"] == .string(Self.blankText) }) else {
            throw fail("""
                createMessage called completion(nil) for the blank text \(Self.blankText.debugDescription), but the \
                thread's messages in the database hold no such message: nil tells the caller the message is stored. \
                Requests: \(TrafficReport(emulator).summary). Send the text as it is given, or refuse it with an error \
                of your own, sending nothing. See LESSONS.md §1.4.
                """)
        }
        let matches = { thread.messages.map(\.text) == [Self.blankText] }
        eventually(within: 0.5, matches)
        XCTAssertTrue(matches(), """
            The server stored the message with the blank text, but the thread's messages are \(Self.list(thread.messages)): \
            every message the server accepted is appended, whatever its text. See LESSONS.md §1.4.
            """)
    }

    // MARK: Helpers

    /// Added to a wrong-path failure when the message went to `/messages` at the database's root: the thread's
    /// identifier is missing — left out, or cut off by a relative URL whose text starts with `/`.
    static func rootMessagesNote(_ request: RecordedRequest, expected: String) -> String {
        guard request.path == "/messages", expected != "/messages" else { return "" }
        return " The path has no thread in it: `messages` sits at the database's root. Put the thread's identifier before "
            + "it. (With `URL(string:relativeTo:)`, text that starts with \"/\" — `URL(string: \"/messages.json\", relativeTo: "
            + "threadURL)` — keeps only the base's scheme and host and replaces its whole path: write it without the leading "
            + "slash, relative to a thread URL that ends in \"/\".)"
    }

    /// Same text, sender and timestamp — exactly: the message kept is the one encoded and sent, and a JSON number
    /// written by JSONEncoder reads back as the same Double. A message made again gets a later `Date()`.
    static func sameMessages(_ actual: [MessageThread.Message], _ expected: [MessageThread.Message]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy {
            $0.text == $1.text && $0.sender == $1.sender && $0.timestamp == $1.timestamp
        }
    }

    /// Says so when the only difference is a later timestamp: the message was made again, after it was sent.
    static func remadeNote(_ actual: [MessageThread.Message], _ expected: [MessageThread.Message]) -> String {
        guard actual.count == expected.count,
              let (kept, sent) = zip(actual, expected).first(where: { $0.timestamp != $1.timestamp }),
              kept.text == sent.text, kept.sender == sent.sender else { return "" }
        let later = (kept.timestamp.timeIntervalSince(sent.timestamp) * 1_000_000).rounded() / 1000
        return " The message kept is not the one sent: its timestamp is \(later) ms \(later >= 0 ? "later" : "earlier") — a new"
            + " MessageThread.Message made after sending gets a new Date(). Append the very message you encoded."
    }

    static func list(_ messages: [MessageThread.Message]) -> String {
        "[" + messages.map { "\"\($0.text)\" from \($0.sender) at \($0.timestamp.timeIntervalSinceReferenceDate)" }.joined(separator: ", ") + "]"
    }
}
