import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson1

/// Exercise 1.3: `createMessageThread(title:completion:)` PUTs a new thread at the key the client chose.
/// The tests run from the most basic behaviour to the most specific: fix the first failure first.
final class CreateMessageThreadTests: Lesson1TestCase {
    let exercise = Lesson1TestCase.createThread

    /// What a thread's body holds, as Firebase would store it; stops the test when it is not a new thread.
    struct SentThread {
        let title: String
        let identifier: String
    }

    /// The title the body test sends: with quotes and a line break, which a JSON string must escape, and a space at its
    /// end (as typed), which the thread keeps: the title goes as it is given.
    static let quotedTitle = "Codable, \"nested\"\nand escaped "

    /// For a body that is not JSON although it holds the text passed in, unescaped: it was pasted together from strings.
    static func pastedJSONNote(_ request: RecordedRequest, title: String) -> String {
        guard let text = request.bodyText, text.contains(title) else { return "" }
        return " The body holds \(title.debugDescription) as it is, unescaped: it was pasted together from strings, and a " +
            "quote or a line break in the text ends the JSON string early. JSONEncoder escapes them (\\\", \\n)."
    }

    /// Added to a wrong-path failure when the path is `/.<identifier>`: the identifier was added as an extension.
    static let identifierAsExtensionNote = " The identifier follows a dot: it was added as a path extension "
        + "(`appendPathExtension(identifier)`), which puts a dot before it. Add the identifier as a path component "
        + "(`appendingPathComponent`), then the extension \"json\"."

    /// Reads the body of the thread's request as Firebase would: a JSON object with `title` and `identifier`
    /// strings and no messages (`messages` absent, null, [] or {}: Firebase stores none of them).
    func sentThread(in request: RecordedRequest, file: StaticString = #filePath, line: UInt = #line) throws -> SentThread {
        let data = try body(of: request, from: exercise, file: file, line: line)
        guard let json = try? JSONValue(data: data) else {
            throw fail("""
                createMessageThread's body is not JSON: \(request.summary). Encode the thread with JSONEncoder and send \
                that as the body.\(Self.pastedJSONNote(request, title: Self.quotedTitle)) See LESSONS.md §1.3.
                """, file: file, line: line)
        }
        guard let object = json.objectValue else {
            throw fail("""
                createMessageThread's body is \(json.description), not a JSON object: Firebase would store that at the \
                thread's key, and nobody could read it back as a thread. Encode the one MessageThread itself.\(Self.encodedTwiceNote(json)) See LESSONS.md §1.3.
                """, file: file, line: line)
        }
        let keys = object.keys.sorted().joined(separator: ", ")
        if object["title"] == nil, object.count == 1, let (key, inner) = object.first, inner["title"] != .null {
            throw fail("""
                createMessageThread's body is the thread wrapped in an object under the key "\(key)": \(json.description). \
                PUT stores its body exactly at the URL, so send the thread itself — {"title": …, "identifier": …} — to \
                the thread's own URL, <baseURL>/<identifier>.json. (The wrapped thread PUT at the root would replace the \
                whole database.) See LESSONS.md §1.1 and §1.3.
                """, file: file, line: line)
        }
        guard let title = object["title"]?.stringValue, let identifier = object["identifier"]?.stringValue else {
            throw fail("""
                createMessageThread's body needs the thread's `title` and `identifier`, as strings (the keys \
                MessageThread encodes); it has \(keys.isEmpty ? "no keys" : "the keys \(keys)"): \(json.description). \
                Encode the MessageThread with JSONEncoder. See LESSONS.md §1.3.
                """, file: file, line: line)
        }
        let messages = object["messages"] ?? .null
        let hasNoMessages = messages.isNull || messages.arrayValue?.isEmpty == true || messages.objectValue?.isEmpty == true
        guard hasNoMessages else {
            throw fail("""
                createMessageThread's body holds messages (\(messages.description)); a new thread has none. \
                Body: \(json.description). See LESSONS.md §1.3.
                """, file: file, line: line)
        }
        return SentThread(title: title, identifier: identifier)
    }

    func test_createMessageThread_sendsOneRequestThroughTheInjectedSession() throws {
        try createThread()
        _ = try onlyRequest(from: exercise)
    }

    /// A session made from the injected one's configuration reaches the same emulator (see `injectedSessionSent`).
    func test_createMessageThread_sendsItsRequestWithTheInjectedSessionItself() throws {
        try requireSentByTheInjectedSession(exercise, on: emulator) { done in
            controller.createMessageThread(title: "PUT vs POST", completion: done)
        }
    }

    func test_createMessageThread_usesPUT() throws {
        try createThread()
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "PUT", """
            createMessageThread sent \(request.summary). Use PUT: the client chose the key (the thread's identifier), \
            and PUT writes exactly at the URL, so sending it again changes nothing. POST would make Firebase invent \
            a second key under it.\(Self.plainGETNote(request, shouldBe: "PUT"))\(Self.patchNote(request, shouldBe: "PUT")) See LESSONS.md §1.1.
            """)
    }

    func test_createMessageThread_bodyIsTheNewThreadAsJSON() throws {
        // A quote and a line break in the title: JSONEncoder escapes them; a body pasted together from strings breaks on
        // them. And a space at its end: the title goes as it is given, not trimmed.
        try createThread(title: Self.quotedTitle)
        let request = try onlyRequest(from: exercise)
        let thread = try sentThread(in: request)
        XCTAssertEqual(thread.title, Self.quotedTitle, """
            The thread in createMessageThread's body has the wrong title: the title passed in was \(Self.quotedTitle.debugDescription).\
            \(Self.percentEncodedNote(sent: thread.title, passed: Self.quotedTitle))\
            \(Self.cleanedTextNote(sent: thread.title, passed: Self.quotedTitle, what: "title")) Body: \(request.bodyText ?? ""). See LESSONS.md §1.3.
            """)
        XCTAssertNotNil(UUID(uuidString: thread.identifier), """
            The thread's identifier should be a new UUID string (what MessageThread(title:) gives it); it is \
            "\(thread.identifier)". See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_urlIsTheThreadsOwnPathDotJSON() throws {
        try createThread()
        let request = try onlyRequest(from: exercise)
        let thread = try sentThread(in: request)
        XCTAssertTrue(request.hasJSONSuffix, """
            createMessageThread's URL does not end in `.json`: \(request.url.absoluteString). Firebase's REST API \
            answers only URLs ending in .json (without it the server sends an error page: \(request.response.statusCode)). \
            Add the extension after the identifier.\(Self.trailingSlashNote(request))\(Self.unchangedBaseURLNote(request))\(Self.jsonInTheMiddleNote(request))\(Self.extensionWithoutDotNote(request)) See LESSONS.md §1.2.
            """)
        try requireNoEncodedSlash(in: request, of: exercise)
        XCTAssertEqual(request.path, "/\(thread.identifier)", """
            createMessageThread wrote to the path \(request.path), but a thread lives at its own key: \
            /\(thread.identifier) (the identifier in its body), so the URL is <baseURL>/<identifier>.json.\
            \(Self.doubleDotNote(request))\(Self.jsonTwiceNote(request))\(Self.objectInPathNote(request.path))\(Self.caseNote(request.path, "/\(thread.identifier)"))\
            \(request.path == "/.\(thread.identifier)" ? Self.identifierAsExtensionNote : "") URL sent: \(request.url.absoluteString). \
            See LESSONS.md §1.2.
            """)
    }

    func test_createMessageThread_callsCompletionWithNil_onSuccess() throws {
        let error = try createThread()
        try requireSuccess(error, of: exercise)
    }

    func test_createMessageThread_storesTheThreadUnderItsIdentifier() throws {
        try requireSuccess(try createThread(title: "Stored where I said"), of: exercise)
        let thread = try sentThread(in: try onlyRequest(from: exercise))
        let stored = emulator.value(at: "/\(thread.identifier)")
        XCTAssertEqual(stored["title"], "Stored where I said", """
            After createMessageThread, the database should hold the thread at /\(thread.identifier) (its identifier). \
            It holds there: \(stored.description). See LESSONS.md §1.1.
            """)
        XCTAssertEqual(stored["identifier"].stringValue, thread.identifier, """
            The thread stored at /\(thread.identifier) should hold its own identifier; it holds \(stored.description). \
            See LESSONS.md §1.3.
            """)
        XCTAssertEqual(emulator.value(at: "/\(Self.sampleThreadID)")["title"], "REST APIs", """
            createMessageThread removed or changed the thread that was already in the database: write only at the new \
            thread's own URL. Database now: \(emulator.database.description). See LESSONS.md §1.2.
            """)
    }

    func test_createMessageThread_appendsTheThreadToMessageThreads_onSuccess() throws {
        try requireSuccess(try createThread(title: "Local copy"), of: exercise)
        let sent = try sentThread(in: try onlyRequest(from: exercise))
        let expected = [ThreadCopy(MessageThread(title: "Local copy", identifier: sent.identifier))]
        let current = { self.controller.messageThreads.map(ThreadCopy.init) }
        eventually(within: 0.5) { current() == expected }
        XCTAssertEqual(current(), expected, """
            After the server accepted the thread, `messageThreads` should hold it, once: the same title and \
            identifier as the thread you sent, and no messages. It holds: \(current()). See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_appendsTheThreadBeforeCallingCompletion() throws {
        try requireSuccess(try createThread(title: "In order", holdingTheMainQueue: true), of: exercise)
        var newest = try sentThread(in: try onlyRequest(from: exercise)).identifier
        var atCompletion = (lastCall?.calls.first?.state.threads ?? []).map(\.identifier)
        var call = 1
        // A change made on another queue just before `completion(nil)` (a `queue.async` that nothing waits for) can
        // win that race once by luck, but hardly every time: a few more calls, each checked the same way (is the new
        // thread there? Where in the list is for other tests).
        let controller = self.controller!
        while atCompletion.contains(newest), call < Self.orderRounds {
            call += 1
            guard let seen = stateAtCompletion({ done in controller.createMessageThread(title: "In order \(call)") { done($0) } },
                                               { controller.messageThreads.map(\.identifier) }),
                  let identifier = emulator.requests.last?.bodyJSON?.objectValue?["identifier"]?.stringValue else { return }
            newest = identifier
            atCompletion = seen
        }
        guard !atCompletion.contains(newest) else { return }
        let later = eventually(within: 0.5) { controller.messageThreads.map(\.identifier).contains(newest) }
        XCTFail("""
            When createMessageThread called completion(nil)\(call > 1 ? " (in call \(call) of up to \(Self.orderRounds))" : ""), \
            `messageThreads` held the identifiers \(atCompletion) — the new thread (\(newest)) was not in it yet. The \
            caller reads `messageThreads` in its completion (to refresh a list, say): append the thread first, then \
            call `completion(nil)`.\(later ? Self.changedAfterCompletionNote("`messageThreads`") : "") See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_callsCompletionOnlyAfterTheServerAnswered() throws {
        emulator.latency = 0.3
        let error = try createThread(waitingAtLeast: 2.3)
        let request = try onlyRequest(from: exercise)
        guard let called = lastCall?.calls.first?.at else { return }
        let after = called.timeIntervalSince(request.receivedAt)
        XCTAssertGreaterThanOrEqual(after, 0.25, """
            With the emulator answering 0.3 s after it received the request, createMessageThread called \
            completion(\(Self.describe(error))) \(String(format: "%.2f", after)) s after the request arrived: before \
            the server answered. Call `completion` from inside the data task's handler, after checking the response. \
            See LESSONS.md §1.2.1 and §1.3.
            """)
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
        // Titles in the reverse of alphabetical order: a list sorted by title is not oldest first.
        try requireSetupSuccess(try createThread(title: "Zeta, made first"), "the first createMessageThread", of: exercise)
        try requireSuccess(try createThread(title: "Alpha, made second"), of: exercise)
        let paths = emulator.requests.map(\.path)
        XCTAssertEqual(Set(paths).count, 2, """
            Two calls of createMessageThread should create two threads, each at its own new identifier; they wrote to \
            \(paths). Make a new MessageThread (with a new UUID) in every call. See LESSONS.md §1.3.
            """)
        // Identifiers are random UUIDs, so a list sorted by identifier, or taken from a Dictionary's values, can come
        // out oldest first by luck: with eight threads, 1 time in 20,000 (sorted either way) or in 40,000 (a
        // Dictionary's order; with five it was 1 in 120, too often for a verdict that must not change between runs).
        // The extra calls are plain calls (the graded ones above checked how completion is called), so the test stays
        // quick on a busy machine.
        var expected = ["Zeta, made first", "Alpha, made second"]
        let controller = self.controller!
        while expected.count < 8 {
            let title = "Thread \(expected.count + 1), made next"
            guard case .some(.none) = firstCompletion({ done in controller.createMessageThread(title: title, completion: done) }) else {
                throw fail("""
                    setup: createMessageThread number \(expected.count + 1) did not call completion(nil) within 2 s, so this test \
                    cannot check the order of the threads. Requests: \(TrafficReport(emulator).summary). The earlier tests \
                    of createMessageThread say what is wrong. See LESSONS.md §1.3.
                    """)
            }
            expected.append(title)
        }
        let current = { self.controller.messageThreads.map(\.title) }
        eventually(within: 0.5) { current() == expected }
        let reordered = current() != expected && current().sorted() == expected.sorted()
        let byIdentifier = reordered && controller.messageThreads.map(\.identifier).sorted() == controller.messageThreads.map(\.identifier)
        XCTAssertEqual(current(), expected, """
            `messageThreads` should hold the \(expected.count) new threads, in the order they were created (oldest first).\
            \(reordered ? " All are there, in another order: append each new thread at the end, and don't sort or insert." : "")\
            \(byIdentifier ? " They are sorted by identifier: random UUIDs say nothing of when a thread was made." : "")\
            \(reordered && !byIdentifier && current() != current().sorted() ? " If they pass through a Dictionary (its `values` made the list), that is why: a Dictionary has no order; keep them in the Array." : "")\
            \(current().count < expected.count && !current().isEmpty ? " It holds only \(current().count) of them, \(current()): each success must add its thread to those already there — `append` — not `messageThreads = [thread]`, which keeps only the newest." : "") \
            See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_twiceWithOneTitle_keepsBothThreads() throws {
        // Two threads may share a title: each is its own thread, at its own identifier, on the server and in the list.
        // Both kept, once each; their order is the previous test's business (two random identifiers would make an
        // order check here pass or fail by luck for a list sorted by identifier).
        try requireSetupSuccess(try createThread(title: "Same title"), "the first createMessageThread", of: exercise)
        try requireSuccess(try createThread(title: "Same title"), of: exercise)
        let sent = emulator.requests.compactMap { $0.bodyJSON?.objectValue?["identifier"]?.stringValue }
        let current = { self.controller.messageThreads.map(\.identifier) }
        eventually(within: 0.5) { current().sorted() == sent.sorted() }
        XCTAssertEqual(current().sorted(), sent.sorted(), """
            createMessageThread was called twice with the title "Same title", and the server stored both threads \
            (\(sent)), but `messageThreads` holds \(self.controller.messageThreads.map(ThreadCopy.init)). Two threads \
            may share a title — what makes a thread itself is its identifier — so append every thread the server \
            accepted, without looking for one with the same title. See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_permissionDenied_passesAnHTTPStatusError401() throws {
        emulator.inject(.permissionDenied)
        let error = try createThread()
        XCTAssertNotNil(error, """
            The emulator answered 401 {"error" : "Permission denied"}, but createMessageThread called completion(nil). \
            URLSession treats an HTTP error status as a successful transfer (its `error` is nil): check \
            `(response as? HTTPURLResponse)?.statusCode` is in 200...299 and pass an HTTPStatusError otherwise. See LESSONS.md §1.5.
            """)
        guard let error = error else { return }
        XCTAssertEqual(Self.httpStatus(of: error), 401, """
            The emulator answered 401 Permission denied; createMessageThread passed \(Self.describe(error)). Pass \
            HTTPStatusError(statusCode: 401, …) — the status the server answered — so the caller can tell a refusal \
            from a lost connection. See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_permissionDenied_keepsMessageThreadsUnchanged() throws {
        emulator.inject(.permissionDenied)
        try createThread()
        settle()
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            `messageThreads` gained a thread although the server refused it (401): \
            \(controller.messageThreads.map(ThreadCopy.init)). Append only after the status says the write succeeded. \
            See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_serverError_passesAnHTTPStatusError500() throws {
        emulator.inject(.internalError)
        let error = try createThread()
        XCTAssertNotNil(error, """
            The emulator answered 500 An internal error occurred, but createMessageThread called completion(nil). \
            Check the HTTP status code, not just `error`. See LESSONS.md §1.5.
            """)
        guard let error = error else { return }
        XCTAssertEqual(Self.httpStatus(of: error), 500, """
            The emulator answered 500 An internal error occurred; createMessageThread passed \(Self.describe(error)). \
            Pass HTTPStatusError(statusCode: 500, …) with the status the server answered. See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_serverError_keepsMessageThreadsUnchanged() throws {
        emulator.inject(.internalError)
        try createThread()
        settle()
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            `messageThreads` gained a thread although the server failed (500): \
            \(controller.messageThreads.map(ThreadCopy.init)). Append only on success. See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_redirect307_passesAnHTTPStatusError() throws {
        emulator.inject(Self.unfollowedRedirect)
        try requireHTTPStatusErrorOnRedirect(try createThread(), of: exercise)
        // Then a 300, the first status past 2xx, which a success check one too far (`<= 300`) lets through.
        emulator.inject(Self.multipleChoices)
        let controller = self.controller!
        let requestsBefore = emulator.requests.count
        if let error = firstCompletion({ done in controller.createMessageThread(title: "PUT vs POST", completion: done) }) {
            try requireARequestAfterAFailure(since: requestsBefore, got: error, of: exercise)
            try requireHTTPStatusErrorOnRedirect(error, status: 300, of: exercise)
        }
    }

    func test_createMessageThread_noContent204_isNoHTTPStatusError() throws {
        emulator.withService { $0.answersWritesSilently = true }
        let error = try createThread(title: "Silently stored")
        try requireNoHTTPStatusErrorOn204(error, of: exercise)
        guard error == nil else { return }
        let current = { self.controller.messageThreads.map(\.title) }
        eventually(within: 0.5) { current() == ["Silently stored"] }
        XCTAssertEqual(current(), ["Silently stored"], """
            The emulator answered 204 No Content — a success with no body — and createMessageThread called \
            completion(nil), but `messageThreads` does not hold the new thread: it holds \(current()). A 204 is a success \
            like 200, only its body is empty (`data` is empty, or nil): don't leave the handler early on an empty body. \
            See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_status299_isNoHTTPStatusError() throws {
        emulator.inject(Self.lastSuccessStatus)
        try requireNoHTTPStatusErrorOn299(try createThread(title: "Accepted with 299"), of: exercise)
    }

    func test_createMessageThread_transportError_passesTheURLErrorOn() throws {
        emulator.inject(.transportError(.networkConnectionLost))
        let error = try createThread()
        XCTAssertTrue(Self.isURLError(error, .networkConnectionLost), """
            The request failed with URLError(.networkConnectionLost); createMessageThread passed \
            \(Self.describe(error)). Check the data task's `error` first and pass that very error to `completion`. \
            See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_transportError_keepsMessageThreadsUnchanged() throws {
        emulator.inject(.transportError(.networkConnectionLost))
        try createThread()
        settle()
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            `messageThreads` gained a thread although the request never reached the server: \
            \(controller.messageThreads.map(ThreadCopy.init)). Append only on success. See LESSONS.md §1.5.
            """)
    }

    func test_createMessageThread_changesNothingLocally_beforeTheServerAnswered() throws {
        let controller = self.controller!
        let during = stateBeforeTheAnswer { controller.messageThreads.map(ThreadCopy.init) }
        try requireSuccess(try createThread(title: "Not yet", waitingAtLeast: 2.4), of: exercise)
        XCTAssertEqual(during()?.isEmpty, true, """
            While the server had not answered yet (0.2 s after the call, its answer held back), `messageThreads` already held \
            \(during().map { "\($0)" } ?? "?"). Append the thread only once the server has accepted it — not \
            optimistically, to be undone on a failure: until then nobody may see a thread the server can still refuse. \
            See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_twoCallsAtOnce_keepsBothThreads() throws {
        // Two calls in flight at once (a double tap, two screens): each must report its own answer, and each answer
        // must add its thread to the list as it is then — a list built before sending drops the other call's thread.
        let controller = self.controller!
        let titles = ["First of two at once", "Second of two at once"]
        try twoCallsAtOnce(of: exercise) { index, done in controller.createMessageThread(title: titles[index], completion: done) }
        let sent = emulator.requests.compactMap { $0.bodyJSON?.objectValue?["identifier"]?.stringValue }
        let current = { Set(controller.messageThreads.map(\.identifier)) }
        eventually(within: 0.5) { current().isSuperset(of: sent) }
        let lost = sent.filter { !current().contains($0) }
        XCTAssertTrue(lost.isEmpty, """
            createMessageThread was called twice at once (both requests in flight together) and both calls succeeded, \
            but `messageThreads` holds \(controller.messageThreads.map(ThreadCopy.init)): the thread \(lost) was lost. \
            A list built before sending (`let updated = messageThreads + [thread]`, assigned in the handler) holds only \
            what was there when that call began, so assigning it drops what the other call added meanwhile. In the \
            handler, append to the list as it is then: `self.messageThreads.append(thread)`. Or the two appends ran at the \
            same moment on two threads (each in a `Task.detached` or on a concurrent queue): a data race, which can lose \
            one — append where the answers come one at a time, in the session's handler or on the main actor.\
            \(Self.keptInAPropertyNote(Self.duplicates(controller.messageThreads.map(\.identifier)), what: "thread", property: "pendingThread")) \
            See LESSONS.md §1.3.
            """)
    }

    func test_createMessageThread_failureAfterAnotherCallsSuccess_keepsThatThread() throws {
        // One call waits for its answer, a failure; meanwhile a second call succeeds and adds its thread. The failure
        // then must leave the list as it is at that moment: a rollback (removing the last thread) or a copy of the list
        // made before sending, put back on failure, drops the thread the other call added. Once with a 500, once with
        // a transport error: each failure path of the handler.
        let controller = self.controller!
        for (round, fault) in Self.failuresAfterASuccess.enumerated() {
            let kept = try failureAfterAnotherCallsSuccess(of: exercise, fault: fault, failing: { done in
                controller.createMessageThread(title: "Failing, round \(round + 1)", completion: done)
            }, succeeding: {
                try createThread(title: "Accepted meanwhile, round \(round + 1)")
            }, state: { controller.messageThreads.map(ThreadCopy.init) })
            let accepted = emulator.requests.filter { (200...299).contains($0.response.statusCode) }
                .compactMap { $0.bodyJSON?.objectValue?["identifier"]?.stringValue }
            let lost = accepted.filter { identifier in !kept.contains { $0.identifier == identifier } }
            guard lost.isEmpty else {
                throw fail("""
                    One createMessageThread call failed (\(Self.describe(fault))) after another call's thread had been \
                    accepted and added, and `messageThreads` then held \(kept): the failed call removed a thread another \
                    call added (\(lost)). A failure changes nothing: don't undo anything on it — not \
                    `popLast()`/`removeLast()` (a rollback left from code that appended before sending: what it removes is \
                    another call's thread), nor `messageThreads = previous`, a copy made before sending (it lacks what \
                    other calls added meanwhile). Just pass the error to `completion`. See LESSONS.md §1.5 and §1.3.
                    """)
            }
        }
    }

    /// A title of spaces only.
    static let blankTitle = "   "

    func test_createMessageThread_blankTitle_isStoredOrRefused() throws {
        // Sending a blank title as it is (Firebase stores any text) and refusing it with an error, nothing sent, are
        // both right; completion(nil) for a thread that was never stored is not.
        let error = try createThread(title: Self.blankTitle, allowingRefusalOf: "a blank title")
        let controller = self.controller!
        if let error = error {
            XCTAssertTrue(controller.messageThreads.isEmpty, """
                createMessageThread refused the blank title (completion(\(Self.describe(error)))), yet `messageThreads` \
                changed: \(controller.messageThreads.map(ThreadCopy.init)). A refusal changes nothing. See LESSONS.md §1.3.
                """)
            return
        }
        guard let identifier = emulator.requests.last?.bodyJSON?.objectValue?["identifier"]?.stringValue,
              emulator.value(at: "/\(identifier)")["title"] == .string(Self.blankTitle) else {
            throw fail("""
                createMessageThread called completion(nil) for the blank title \(Self.blankTitle.debugDescription), but \
                the database holds no thread with that title: nil tells the caller the thread is stored. Requests: \
                \(TrafficReport(emulator).summary). Send the title as it is given, or refuse it with an error of your \
                own, sending nothing. See LESSONS.md §1.3.
                """)
        }
        let expected = [ThreadCopy(MessageThread(title: Self.blankTitle, identifier: identifier))]
        eventually(within: 0.5) { controller.messageThreads.map(ThreadCopy.init) == expected }
        XCTAssertEqual(controller.messageThreads.map(ThreadCopy.init), expected, """
            The server stored the thread with the blank title, but `messageThreads` holds \
            \(controller.messageThreads.map(ThreadCopy.init)), not that thread: every thread the server accepted is \
            appended, whatever its title. See LESSONS.md §1.3.
            """)
    }
}
