import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson1

/// Lesson 1's tests share this: an emulator loaded with the course's sample database, a controller pointed at it,
/// and a way to call the learner's functions that records every call of their completion handler: with what, when,
/// from where, and what the local state was at that moment.
class Lesson1TestCase: LabTestCase {
    static let createThread = Exercise("createMessageThread(title:completion:)", section: "1.3")
    static let createMessage = Exercise("createMessage(messageThread:text:sender:completion:)", section: "1.4")
    /// The thread in Fixtures/databases/message-board-sample.json.
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"
    /// The sample message, as the model holds it.
    static let sampleMessage = MessageThread.Message(
        text: "This is a test to make sure the API works!", sender: "Spencer",
        timestamp: Date(timeIntervalSinceReferenceDate: 5.55405872056162E8))

    var emulator: FirebaseEmulator!
    var controller: MessageThreadController!
    /// The completion calls of every learner call made in this test, checked again when the test ends.
    private var recorders: [(Exercise, CompletionRecorder)] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = FirebaseEmulator(database: try Fixtures.database("message-board-sample"))
        controller = MessageThreadController(baseURL: emulator.baseURL, session: emulator.session)
    }

    override func tearDown() {
        // A completion handler called a second time after the test's own checks is still a mistake.
        for (exercise, recorder) in recorders where recorder.calls.count > 1 && !recorder.reported {
            XCTFail(Self.calledMoreThanOnce(exercise, recorder.calls))
        }
        recorders = []
        emulator?.invalidate()
        super.tearDown()
    }

    // MARK: Calling the learner's functions

    /// Calls `createMessageThread(title:completion:)` and waits for its completion. Returns what it was called with;
    /// `lastCall` then holds when and how.
    @discardableResult
    func createThread(title: String = "PUT vs POST", waitingAtLeast minimumWait: TimeInterval = 0,
                      holdingTheMainQueue: Bool = false, allowingRefusalOf refusable: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let controller = self.controller!
        return try call(Self.createThread, minimumWait: minimumWait, holdingTheMainQueue: holdingTheMainQueue,
                        refusable: refusable, file: file, line: line,
                        state: { LocalState(threads: controller.messageThreads.map(ThreadCopy.init)) }) { done in
            controller.createMessageThread(title: title, completion: done)
        }
    }

    /// The sample thread as the app knows it locally: without messages, or with the one the database holds.
    func sampleThread(withItsMessage: Bool = false) -> MessageThread {
        MessageThread(title: "REST APIs", identifier: Self.sampleThreadID, messages: withItsMessage ? [Self.sampleMessage] : [])
    }

    @discardableResult
    func createMessage(in thread: MessageThread, text: String = "PUT puts, POST appends", sender: String = "Ada",
                       waitingAtLeast minimumWait: TimeInterval = 0, holdingTheMainQueue: Bool = false,
                       allowingRefusalOf refusable: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let controller = self.controller!
        return try call(Self.createMessage, minimumWait: minimumWait, holdingTheMainQueue: holdingTheMainQueue,
                        refusable: refusable, file: file, line: line,
                        state: { LocalState(messages: thread.messages) }) { done in
            controller.createMessage(messageThread: thread, text: text, sender: sender, completion: done)
        }
    }

    /// For a write that went out as a GET: the ways code that *meant* to write sends one (`method`: the one it
    /// should have used). Empty for any other method.
    static func plainGETNote(_ request: RecordedRequest, shouldBe method: String) -> String {
        guard request.method == "GET" else { return "" }
        let copy = "URLRequest is a struct: what a helper sets on its own copy (its parameter made a `var`) never "
            + "reaches the request you send. Set it on that very request, pass the request `inout` (`func configure(_ "
            + "request: inout URLRequest)`, called with `&request`), or return the changed copy."
        guard (request.body ?? Data()).isEmpty else {
            return " A URLRequest is a GET until you set its method: `request.httpMethod = \"\(method)\"`. Or it was set on a copy: " + copy
        }
        return " A GET with no body is what `session.dataTask(with: url)` sends: given a URL instead of your URLRequest, "
            + "the task knows nothing of its httpMethod and httpBody. Pass the request, `session.dataTask(with: request)` "
            + "(and set its `httpMethod`: a URLRequest is a GET until you do). Or the method and the body were set on a "
            + "copy: " + copy
    }

    /// For a write sent as a PATCH (`method`: the one it should have used): what PATCH does in Firebase. Empty for any
    /// other method.
    static func patchNote(_ request: RecordedRequest, shouldBe method: String) -> String {
        guard request.method == "PATCH" else { return "" }
        let instead = method == "PUT"
            ? "creating a thread at the key you chose is a PUT, which stores exactly its body at the thread's own URL"
            : "a new message gets a key the server chooses, a push ID, which only a POST to the messages makes"
        return " PATCH is Firebase's update: it merges the children named in its body into what is already at the URL "
            + "(keys you chose, kept beside the others); \(instead)."
    }

    /// The completion calls of the last learner call.
    var lastCall: CompletionRecorder? { recorders.last?.1 }

    /// Runs `start`, handing it a completion handler that records each call, and waits (with the kit's
    /// `awaitCompletion`) for the first. Then stops the test when the handler was called right away, from inside the
    /// learner's function (before any answer could have come), or more than once.
    /// `minimumWait`: how long to wait for the first call before the kit's wait starts (for a test that slows the
    /// emulator down, so a shorter wait after an earlier miss cannot cut it short).
    /// `holdingTheMainQueue`: keep the main queue from running anything until the first call (or until the answer
    /// has had time to come), so the state recorded at that call is the state then, not one a block hopped to the main
    /// queue changed a moment later; a correct hop to the main queue then runs as soon as the hold ends.
    private func call(_ exercise: Exercise, minimumWait: TimeInterval, holdingTheMainQueue: Bool, refusable: String? = nil,
                      file: StaticString, line: UInt,
                      state: @escaping () -> LocalState, _ start: (@escaping (Error?) -> Void) -> Void) throws -> Error? {
        let recorder = CompletionRecorder()
        recorders.append((exercise, recorder))
        let requestsBefore = emulator.requests.count
        let latency = emulator.latency
        // With the answer slowed down (a test of waiting), it is also held until the function returns (at most
        // `Self.answerHeld` s): a function that waits for its answer cannot return before it, and a correct one that
        // the scheduler stalls after resume() (a loaded machine) still returns before its completion runs.
        let heldAnswers = latency >= 0.25 ? HeldAnswers(emulator, atMost: Self.answerHeld) : nil
        var began = Date(), returned = Date()
        let value: Error? = try awaitCompletion(of: exercise, on: emulator, file: file, line: line) { done in
            let caller = Thread.current
            began = Date()
            recorder.setInside(true)
            start { error in
                // The state first, before anything else can happen: what the caller would read in its completion.
                let snapshot = state()
                let synchronous = recorder.isInside && Thread.current == caller
                if recorder.record(error, synchronous: synchronous, state: snapshot) { done(error) }
            }
            recorder.setInside(false)
            returned = Date()
            heldAnswers?.release()
            if holdingTheMainQueue { Self.holdTheMainQueue(until: { !recorder.calls.isEmpty }, requestsBefore: requestsBefore, on: emulator) }
            if minimumWait > 0 {
                let before = emulator.requests.count
                _ = Self.wait(until: { !recorder.calls.isEmpty }, timeout: minimumWait, orNoTrafficAfter: CompletionTimeouts.quietTimeout(for: exercise, normally: minimumWait)) {
                    self.emulator.requests.count == before
                }
            }
        }
        // A second call usually follows at once, from the same handler (or from the main queue): give it a moment.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        let calls = recorder.calls
        // The call made from inside the function, even when the task's handler (on another thread) got in first.
        if let first = calls.first(where: \.synchronous) {
            recorder.reported = true
            // Called at once and nothing ever sent: the cause is the path that gave up, not the moment.
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
            let traffic = TrafficReport(emulator)
            if emulator.requests.count == requestsBefore, traffic.viaOtherSession.isEmpty, traffic.toOtherHost.isEmpty {
                // Input the app may refuse: an error at once, with nothing sent, is a refusal; nil is a claim of success.
                if let refusable = refusable, calls.count == 1 {
                    if let error = first.error { return error }
                    throw fail(Self.reportedStoredUnsent(exercise, refusable), file: file, line: line)
                }
                throw fail(Self.calledWithoutRequest(exercise, value: first.error), file: file, line: line)
            }
            if let took = blockingTime(of: start) {
                throw fail(Self.waitedForTheAnswer(exercise, first.error, fromInside: true, latency: 0.3, took: took), file: file, line: line)
            }
            throw fail("""
                \(exercise.function) called completion(\(Self.describe(first.error))) before the server answered: \
                while \(exercise.function) itself was still running, so before its request had even been answered \
                (resume() only starts the task; its handler runs later, on another queue). Call `completion` from inside \
                the data task's completion handler, once the response is in\
                \(calls.count > 1 ? "; it was then called again (\(calls.count) calls in all)" : ""). See \(exercise.reference) and §1.2.1.
                """, file: file, line: line)
        }
        // With the answer held and slowed down, a function that returns only after its completion ran waited for the
        // answer (a correct one returns right after resume(), long before).
        let took = returned.timeIntervalSince(began)
        if latency >= 0.25, took >= latency - 0.05, let first = calls.first, first.at <= returned {
            throw fail(Self.waitedForTheAnswer(exercise, first.error, fromInside: false, latency: latency, took: took), file: file, line: line)
        }
        let sent = Array(emulator.requests.dropFirst(requestsBefore))
        // Returned long after its request was answered, its completion still to come: it waited (a semaphore with a
        // time-out) for work that needed the very thread it blocked — a hop to the main queue, with the caller on it.
        if took >= 0.8, let answered = sent.first?.receivedAt, returned.timeIntervalSince(answered) >= 0.6 + latency,
           let first = calls.first, first.at > returned {
            throw fail(Self.blockedItsOwnHop(exercise, took: took, afterTheAnswer: returned.timeIntervalSince(answered)), file: file, line: line)
        }
        // A request that failed and was sent again (a retry): named before what the retry made of the failure.
        if sent.count > 1, let first = sent.first, !(200...299).contains(first.response.statusCode) {
            recorder.reported = true
            throw fail(Self.retried(exercise, first: first, requests: sent.count), file: file, line: line)
        }
        if calls.count > 1 {
            recorder.reported = true
            throw fail(Self.calledMoreThanOnce(exercise, calls), file: file, line: line)
        }
        let traffic = TrafficReport(emulator)
        if traffic.received.isEmpty, traffic.viaOtherSession.isEmpty, traffic.toOtherHost.isEmpty,
           let error = value, Self.isURLError(error) {
            if let why = UnsendableURL.explanation(of: error) {  // it never reached any session's protocol
                throw fail("""
                    No request reached the emulator, and \(exercise.function)'s completion got \(Self.describe(error)) \
                    from the data task: \(why) See LESSONS.md §1.2.
                    """, file: file, line: line)
            }
            // Nothing reached the emulator or the kit's tripwires, yet a URLSession answered: a session of the
            // learner's own making sent the request (the emulator's session never lets one out).
            throw fail("""
                No request reached the emulator, yet \(exercise.function)'s completion got \(Self.describe(error)) \
                from a URLSession: the request went out through a session the tests did not give you (a \
                `URLSession(configuration:)` of your own). Send it through the controller's `session`. \
                See LESSONS.md §0.1 and \(exercise.reference).
                """, file: file, line: line)
        }
        return value
    }

    /// For `completion(nil)` at once, nothing sent, for input the app may refuse (`what`: "a blank title").
    static func reportedStoredUnsent(_ exercise: Exercise, _ what: String) -> String {
        let thing = exercise.section == "1.3" ? "thread" : "message"
        return """
            Given \(what), \(exercise.function) called completion(nil) at once without sending any request: nil tells the \
            caller the \(thing) is stored, and nothing was. Send it as it is (Firebase stores any text), or, if your app \
            refuses blank input, call `completion` with an error of your own, sending nothing; never completion(nil) for \
            a \(thing) the server did not accept. See \(exercise.reference).
            """
    }

    /// How long a test of waiting holds the answer while the learner's function has not returned (`HeldAnswers`).
    static let answerHeld: TimeInterval = 1

    /// Called when the learner's function called its completion before returning, after sending a request: runs it
    /// once more with the emulator answering 0.3 s late. A function that waits for the answer (a semaphore) takes that
    /// long to return, and the time is returned; one that calls completion right after resume() returns at once (nil).
    private func blockingTime(of start: (@escaping (Error?) -> Void) -> Void) -> TimeInterval? {
        let latency = emulator.latency
        emulator.latency = 0.3
        defer { emulator.latency = latency }
        let called = CompletionRecorder()
        let requestsBefore = emulator.requests.count
        let began = Date()
        start { error in _ = called.record(error, synchronous: false, state: LocalState()) }
        let took = Date().timeIntervalSince(began)
        // Let the probe's request be answered, so it cannot turn up in a later test as a stray.
        _ = eventually(within: 1) {
            let sent = self.emulator.requests.dropFirst(requestsBefore)
            return !sent.isEmpty && sent.allSatisfy { Date().timeIntervalSince($0.receivedAt) > 0.35 }
        }
        return took >= 0.25 && called.calls.first.map { $0.at.timeIntervalSince(began) >= 0.25 } == true ? took : nil
    }

    /// The message for a function that kept the caller's thread long after its request was answered, and whose
    /// completion came only once it had returned: it waited for a hop to the thread it was blocking.
    static func blockedItsOwnHop(_ exercise: Exercise, took: TimeInterval, afterTheAnswer: TimeInterval) -> String {
        """
        \(exercise.function) took \(String(format: "%.2f", took)) s to return, \(String(format: "%.2f", afterTheAnswer)) s \
        after its request had arrived, and its completion ran only once it had returned: it waited for something that \
        could not happen while it waited. A DispatchSemaphore (or a group's wait()) blocked the caller's thread — the \
        main thread, in an app and here — while the handler's `DispatchQueue.main.async` needed that very thread to run, \
        so nothing moved until the wait timed out (and without a time-out, never: a deadlock). Don't wait: return right \
        after resume(), and let the handler (or its hop to the main queue) call `completion`. See \(exercise.reference) \
        and §1.2.1.
        """
    }

    /// The message for a function that waited for its request's answer before returning.
    static func waitedForTheAnswer(_ exercise: Exercise, _ error: Error?, fromInside: Bool, latency: TimeInterval, took: TimeInterval) -> String {
        let what = fromInside
            ? "called completion(\(describe(error))) from inside itself, after waiting for the server's answer"
            : "waited for the server's answer before returning (its completion(\(describe(error))) ran meanwhile, from the task's handler)"
        return """
            \(exercise.function) \(what): with the emulator answering \(String(format: "%.1f", latency)) s late, it took \
            \(String(format: "%.2f", took)) s to return. A DispatchSemaphore (or a group's wait(), or a loop) blocked the \
            caller's thread — in an app the main thread, so the screen freezes until the network answers. Don't wait: \
            return right after resume(), and call `completion` from inside the data task's handler. \
            See \(exercise.reference) and §1.2.1.
            """
    }

    /// Blocks the main thread (so nothing hopped to the main queue runs) until `isDone`, or until a request has been
    /// answered for 0.2 s, or 0.3 s passed with no request, at most 1 s.
    static func holdTheMainQueue(until isDone: () -> Bool, requestsBefore: Int, on emulator: FirebaseEmulator) {
        let start = Date()
        while !isDone(), Date().timeIntervalSince(start) < 1 {
            let requests = emulator.requests
            if requests.count > requestsBefore, let last = requests.last {
                if Date().timeIntervalSince(last.receivedAt) > 0.2 + emulator.latency { return }
            } else if Date().timeIntervalSince(start) > 0.3 {
                return
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Starts two calls of the learner's function one right after the other, with the emulator's answers held until
    /// both requests have arrived (at most 1 s), so both are in flight at once. Returns what each completion first got;
    /// stops the test when a stub ran, when a completion was not called within 3 s, or when a call failed.
    /// `start(index, done)` makes call `index` (0 or 1).
    func twoCallsAtOnce(of exercise: Exercise, _ start: (Int, @escaping (Error?) -> Void) -> Void,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let outcomes = [Box<Error?>(), Box<Error?>()]
        let requestsBefore = emulator.requests.count
        let held = HeldAnswers(emulator, atMost: 1)
        for index in 0..<2 {
            start(index) { error in
                if outcomes[index].get() == nil { outcomes[index].set(error) }
            }
        }
        try stopIfAStubRan(file: file, line: line)
        let bothSent = eventually(within: 1) { self.emulator.requests.count >= requestsBefore + 2 }
        held.release()
        let finished = eventually(within: 3) { outcomes.allSatisfy { $0.get() != nil } }
        let traffic = TrafficReport(emulator)
        if let wrongPlace = traffic.wrongPlace(exercise, baseURL: emulator.baseURL) { throw fail(wrongPlace, file: file, line: line) }
        // Without both requests there is nothing to judge: a call that sends nothing and calls `completion(nil)`
        // would otherwise pass "every thread sent is kept" with none sent.
        guard bothSent || emulator.requests.count >= requestsBefore + 2 else {
            throw fail("""
                \(exercise.function) was called twice at once (the second call right after the first), and the emulator \
                received \(emulator.requests.count - requestsBefore) request(s) from those calls in 1 s: each call must \
                send its own request, whatever other calls are running. Requests: \(traffic.summary). \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        let got = outcomes.map { $0.get() }
        guard finished else {
            let which = got.enumerated().filter { $0.element == nil }.map { "call \($0.offset + 1)" }.joined(separator: " and ")
            throw fail("""
                \(exercise.function) was called twice at once (the second call right after the first, both requests in \
                flight together), and \(which) never called its completion (waited 3 s). Each call must report its own \
                answer, whatever other calls are running. Requests: \(traffic.summary). See \(exercise.reference).
                """, file: file, line: line)
        }
        for (index, outcome) in got.enumerated() {
            guard case .some(.some(let error)) = outcome else { continue }
            let cancelled = Self.isURLError(error, .cancelled) || error is CancellationError
                ? " That error means its request was cancelled — by the other call: code that keeps one task (a data " +
                    "task or a Task) in a property and cancels it when the next call starts. That suits a search box, not a write: each " +
                    "call sends its own request, and cancelling one the user made loses it. Don't cancel an earlier call's task."
                : ""
            throw fail("""
                \(exercise.function) was called twice at once (the second call right after the first, both requests in \
                flight together, and the server accepted both), but call \(index + 1)'s completion got \
                \(Self.describe(error)).\(cancelled) Requests: \(traffic.summary). See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// A failure that comes after another call's success: starts `failing` with `fault` (a 500, a transport error)
    /// injected for its request and its answer held, runs `succeeding` (a graded call) to its completion meanwhile, then
    /// delivers the failure and waits (at most 2 s) for the failing call's completion. Returns what the state was once
    /// both had answered; stops the test when a stub ran or when either call did not do its part (earlier tests say why).
    func failureAfterAnotherCallsSuccess<State>(of exercise: Exercise, fault: Fault,
                                                failing: (@escaping (Error?) -> Void) -> Void,
                                                succeeding: () throws -> Error?, state: @escaping () -> State,
                                                file: StaticString = #filePath, line: UInt = #line) throws -> State {
        let requestsBefore = emulator.requests.count
        emulator.holdResponses()
        emulator.inject(fault)
        let failed = Box<Error?>()
        failing { error in
            if failed.get() == nil { failed.set(error) }
        }
        try stopIfAStubRan(file: file, line: line)
        let sent = eventually(within: 1) { self.emulator.requests.count > requestsBefore }
        let held = emulator.holdOnlyTheResponsesSoFar()
        defer { held.release() }
        guard sent else {
            emulator.clearFaults()
            throw fail("""
                setup: \(exercise.function) was called and sent no request in 1 s, so this test cannot check what a failure \
                does to the state another call changed. The earlier tests of \(exercise.function) say what is wrong. \
                Requests: \(TrafficReport(emulator).summary). See \(exercise.reference).
                """, file: file, line: line)
        }
        try requireSetupSuccess(try succeeding(), "the call that succeeds while the failing one waits for its answer", of: exercise, file: file, line: line)
        // The failing call's answer is still held: a completion of it now was called for the other call's answer (the
        // call above already waited a moment after its own completion, so one called beside it shows without a wait).
        if let early = failed.get() {
            throw fail("""
                \(exercise.function) was called twice, the first call's request still waiting for its answer (held back by \
                the test), and when the second call's answer came, the first call's completion was called too, with \
                \(Self.describe(early)): it reported an answer it never had. Code that keeps the waiting completions in \
                a property (an array of them, or the last one) and calls them when any answer comes does that. Each call \
                must report its own answer: its own handler calls the `completion` that call was given, captured in its \
                closure. See \(exercise.reference).
                """, file: file, line: line)
        }
        held.release()
        guard eventually(within: 2, { failed.get() != nil }), case .some(.some) = failed.get() else {
            throw fail("""
                setup: the call whose request failed (\(Self.describe(fault))) did not pass an error to its completion \
                within 2 s, so this test cannot check what a failure does to the state another call changed. The earlier \
                tests of \(exercise.function) (500, transport error) say what is wrong. See \(exercise.reference).
                """, file: file, line: line)
        }
        settle()
        return state()
    }

    /// How a failure the tests inject reads in a message: "500", "a transport error, URLError(code -1005)".
    static func describe(_ fault: Fault) -> String {
        switch fault {
        case .httpError(let status, _), .answer(let status, _), .page(let status, _, _): return "\(status)"
        case .transportError(let code): return "a transport error, URLError(code \(code.rawValue))"
        case .malformedBody: return "a malformed body"
        }
    }

    /// The two failures the after-another-call's-success tests send, one per path of the handler: a status outside
    /// 200...299 and a transport error.
    static let failuresAfterASuccess: [Fault] = [.internalError, .transportError(.networkConnectionLost)]

    /// The values that occur more than once in `values`, in order.
    static func duplicates(_ values: [String]) -> [String] {
        var seen = Set<String>(), repeated: [String] = []
        for value in values where !seen.insert(value).inserted && !repeated.contains(value) { repeated.append(value) }
        return repeated
    }

    /// Added to a two-calls-at-once failure when the list holds one item twice: both handlers added the same one.
    static func keptInAPropertyNote(_ duplicates: [String], what: String, property: String) -> String {
        guard !duplicates.isEmpty else { return "" }
        return " It holds one \(what) twice (\(duplicates.joined(separator: ", "))): both handlers added the same \(what) — one "
            + "kept in a property (`\(property)`) that the second call replaced before the first answer came. Keep each "
            + "call's \(what) in a local constant that its own handler captures."
    }

    /// Added to a wrong-text failure when the text sent is the text passed in, percent-encoded.
    static func percentEncodedNote(sent: String, passed: String) -> String {
        guard sent != passed, sent.removingPercentEncoding == passed else { return "" }
        return " What was sent is the text passed in, percent-encoded: percent-encoding is for URLs. In a JSON body "
            + "the text goes as it is — JSONEncoder escapes what JSON needs."
    }

    /// Added to a wrong-text failure when the text sent is the text passed in with its ends trimmed, or its line breaks
    /// made spaces: "cleaned" input. `what`: "title" or "text".
    static func cleanedTextNote(sent: String, passed: String, what: String) -> String {
        guard sent != passed else { return "" }
        if sent == passed.trimmingCharacters(in: .whitespacesAndNewlines) || sent == passed.trimmingCharacters(in: .whitespaces) {
            return " What was sent is the \(what) passed in, trimmed of the space at its end (`trimmingCharacters(in:)`): "
                + "send the \(what) as it is given. Whether to accept or clean up what the user typed is the screen's "
                + "decision, made before it calls you; the request stores what it was handed."
        }
        if sent == passed.replacingOccurrences(of: "\n", with: " ") || sent == passed.replacingOccurrences(of: "\n", with: "") {
            return " What was sent is the \(what) passed in with its line break removed: a JSON string holds line breaks "
                + "(JSONEncoder writes them as \\n), so send the \(what) as it is given."
        }
        return ""
    }

    /// Added to a "not a JSON object" failure when the body is a JSON string that itself holds a JSON object.
    static func encodedTwiceNote(_ json: JSONValue) -> String {
        guard let text = json.stringValue, let inner = try? JSONValue(data: Data(text.utf8)), inner.objectValue != nil else { return "" }
        return " It is a JSON string holding JSON: the value was encoded twice (JSONEncoder's Data made into a String, "
            + "and that String encoded again). Send the Data JSONEncoder gives you as the body, as it is."
    }

    /// Added to a wrong-path failure when the path differs from the right one only in upper and lower case.
    static func caseNote(_ path: String, _ expected: String) -> String {
        guard path != expected, path.lowercased() == expected.lowercased() else { return "" }
        return " The paths differ only in upper and lower case: Firebase keys are case-sensitive, so that is another key."
    }

    /// Added to a "not in it yet at completion" failure when the change did come, just later.
    static func changedAfterCompletionNote(_ what: String) -> String {
        " It was there a moment later: \(what) was changed after `completion(nil)` had run — on another queue (a "
            + "`DispatchQueue.main.async` holding only the change, say) while `completion(nil)` was called at once, "
            + "outside it. Make the change and call `completion(nil)` in the same block of code (§1.2.1)."
    }

    /// The message for a function that sent its request again after it failed.
    static func retried(_ exercise: Exercise, first: RecordedRequest, requests: Int) -> String {
        let what = first.response.transportError.map { "the request failed with URLError(code \($0.code.rawValue))" }
            ?? "the emulator answered \(first.response.statusCode) \(oneLine(first.response.bodyText ?? ""))"
        return """
            \(what), and \(exercise.function) sent the request again: \(requests) requests for one call (a retry). \
            Send one request and pass what happened to it to `completion` — the very URLError, or an HTTPStatusError \
            with the status — so the caller sees the failure and decides whether to try again. (A PUT is safe to \
            repeat, but that is the caller's choice; a POST retried after a time-out can store the message twice, \
            since the first one may have reached the server.) See LESSONS.md §1.5.
            """
    }

    /// Says how a handler called more than once was called, and names a cause only when the calls show it.
    static func calledMoreThanOnce(_ exercise: Exercise, _ calls: [CompletionRecorder.Call]) -> String {
        let list = calls.map { "completion(\(describe($0.error)))" }.joined(separator: ", then ")
        var message = "\(exercise.function) called its completion \(calls.count) times: \(list). It must be called exactly once, on every path."
        if calls.count >= 2, calls[0].error != nil, calls[1].error == nil {
            message += " It reported the error and then carried on as if the request had succeeded: a `return` is missing after `completion(error)`."
        } else if calls.count >= 2, calls[0].error == nil, calls[1].error == nil {
            message += " Both calls reported success: look for a second `completion(nil)` on the success path (one in the handler and one after it, or a call in a loop)."
        } else if calls.count == 2, calls[0].error == nil, calls[1].error != nil {
            message += " It reported success first and the error after it: the error was reported later, from a block run "
                + "on another queue (`DispatchQueue.main.async { completion(error); return }`, say), and the handler carried on "
                + "to the success path meanwhile. A `return` inside such a closure ends only that closure, not the handler: "
                + "put the `return` in the handler itself, right after the hop."
        } else {
            message += " Follow each path of your handler: each one must end in exactly one call of `completion`."
        }
        return message + " See \(exercise.reference)."
    }

    static func describe(_ error: Error?) -> String {
        guard let error = error else { return "nil" }
        if isURLError(error) { return "URLError(code \((error as NSError).code))" }
        return "\(type(of: error)): \(oneLine(error))"
    }

    // MARK: Checking what happened

    func requireSuccess(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        if let status = Self.httpStatus(of: error), (200...299).contains(status) {
            throw fail("""
                \(exercise.function) passed HTTPStatusError(statusCode: \(status)) to its completion, but \(status) is a \
                success: any status in 200...299 means the server accepted the write (Firebase answers 200 to a PUT or a \
                POST, 204 with ?print=silent). Only a status outside 200...299 is an HTTPStatusError. \
                Requests: \(TrafficReport(emulator).summary). See LESSONS.md §1.5.
                """, file: file, line: line)
        }
        if let decoding = error as? DecodingError, TrafficReport(emulator).received.allSatisfy({ (200...299).contains($0.response.statusCode) }) {
            throw fail("""
                \(exercise.function) passed a DecodingError to its completion, though the server accepted the write: \
                \(oneLine(decoding)). Your code decoded the server's answer as something it is not — a POST answers \
                {"name": "<push ID>"}, only the key Firebase chose, and a PUT answers the data you sent — and reported \
                the failure. You need not decode the answer at all: a status in 200...299 is the success, and what you \
                append is what you sent. Requests: \(TrafficReport(emulator).summary). See \(exercise.reference).
                """, file: file, line: line)
        }
        try requireSuccess(error, of: exercise, on: emulator, file: file, line: line)
    }

    /// Checks that a write the emulator answered 204 No Content (a success with no body; `answersWritesSilently`) did
    /// not reach completion as an HTTPStatusError: only a status outside 200...299 is one.
    func requireNoHTTPStatusErrorOn204(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let status = Self.httpStatus(of: error), (200...299).contains(status) else { return }
        throw fail("""
            The emulator answered \(exercise.function)'s request with 204 No Content — a success with no body (as \
            Firebase answers a write with ?print=silent) — but completion got HTTPStatusError(statusCode: \(status)). \
            Any status in 200...299 is a success, not only 200: only a status outside 200...299 is an HTTPStatusError. \
            Requests: \(TrafficReport(emulator).summary). See LESSONS.md §1.5.
            """, file: file, line: line)
    }

    /// 299, the last status of 2xx, with a text body: a success, which a check written `200..<299` (the half-open
    /// operator with the closed range's end) refuses.
    static let lastSuccessStatus = Fault.answer(status: 299, body: "Accepted")

    /// Checks that a write the emulator answered 299 (`lastSuccessStatus`) did not reach completion as an
    /// HTTPStatusError. Other errors are other tests' business.
    func requireNoHTTPStatusErrorOn299(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let status = Self.httpStatus(of: error), (200...299).contains(status) else { return }
        throw fail("""
            The emulator answered \(exercise.function)'s request with 299, the last status of 2xx — a success — but \
            completion got HTTPStatusError(statusCode: \(status)). Success is every status in 200...299: `200..<299` (the \
            half-open operator with the closed range's end) leaves out 299. Write `200...299` or `200..<300`. \
            See LESSONS.md §1.5.
            """, file: file, line: line)
    }

    /// How many calls the append-before-completion tests make at most (see there).
    static let orderRounds = 4

    /// Calls `start` (a learner function, outside the graded calls' bookkeeping) and returns `state` as it was at the
    /// moment its completion was first called — read before anything else — or nil when that was not `completion(nil)`
    /// within 2 s (other tests say why).
    func stateAtCompletion<State>(_ start: (@escaping (Error?) -> Void) -> Void, _ state: @escaping () -> State) -> State? {
        let seen = Box<(State, Bool)>()
        start { error in
            let snapshot = state()
            if seen.get() == nil { seen.set((snapshot, error == nil)) }
        }
        eventually(within: 2) { seen.get() != nil }
        guard let (snapshot, succeeded) = seen.get(), succeeded else { return nil }
        return snapshot
    }

    /// A 3xx that URLSession hands to the task's handler as it is (it has no Location to follow), with a body that is
    /// text, not Firebase's JSON: as a proxy or a moved server may answer. Outside 200...299, so a failure.
    static let unfollowedRedirect = Fault.answer(status: 307, body: "Temporary Redirect")

    /// 300 Multiple Choices, also without a Location: the first status past 2xx, which a check one off
    /// (`statusCode <= 300`, `200...300`) takes for a success. The redirect tests send it after the 307.
    static let multipleChoices = Fault.answer(status: 300, body: "Multiple Choices")

    /// Checks that the answer `unfollowedRedirect` (or, with `status: 300`, `multipleChoices`) reached completion as
    /// HTTPStatusError with that status.
    func requireHTTPStatusErrorOnRedirect(_ error: Error?, status: Int = 307, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let reason = status == 307 ? "Temporary Redirect" : "Multiple Choices"
        let situation = "The emulator answered \(status) \(reason) (the text body \"\(reason)\", and no Location " +
            "header to follow, so URLSession handed the \(status) to your handler as it is)"
        let offByOne = status == 300
            ? " 300 is the first status past 2xx: a check such as `statusCode <= 300` or `200...300` is one too far; " +
                "success is `200...299` (or `200..<300`)."
            : ""
        guard let error = error else {
            throw fail("""
                \(situation), but \(exercise.function) called completion(nil). A \(status) is not a success: anything outside \
                200...299 is a failure, not only a status of 400 or more (a 3xx too).\(offByOne) Check that the status is in \
                200...299 and pass an HTTPStatusError otherwise. See LESSONS.md §1.5.
                """, file: file, line: line)
        }
        if Self.httpStatus(of: error) == status { return }
        let why = error is DecodingError
            ? "The answer's body is not JSON (it is the text \"\(reason)\"): your code decoded it and passed the " +
                "DecodingError on. Pass HTTPStatusError(statusCode: \(status), body: …) with the body as text, whatever it holds: " +
                "`String(decoding: data ?? Data(), as: UTF8.self)`, no decoding."
            : "Pass HTTPStatusError(statusCode: \(status), …) with the status the server answered: anything outside 200...299 is one."
        throw fail("\(situation); \(exercise.function) passed \(Self.describe(error)). \(why) See LESSONS.md §1.5.", file: file, line: line)
    }

    /// Stops the test when a call made after an earlier one failed sent no request (`requestsBefore`: the emulator's
    /// count before it) and its completion got `error` all the same: something kept from the failure refused it.
    func requireARequestAfterAFailure(since requestsBefore: Int, got error: Error?, of exercise: Exercise,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        settle()
        guard emulator.requests.count == requestsBefore else { return }
        let traffic = TrafficReport(emulator)
        guard traffic.viaOtherSession.isEmpty, traffic.toOtherHost.isEmpty else { return }
        throw fail("""
            After a call of \(exercise.function) had failed (307), the next call sent no request: its completion got \
            \(Self.describe(error)) without anything reaching the emulator. Each call sends its own request, whatever \
            happened to an earlier one: a flag that refuses a call while another is in flight (a double-tap guard) \
            stays set when a failure path does not clear it, and then refuses every later call. Clear it on every path — \
            or leave it out: two calls at once are each their own write. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// Calls `start` (a learner function, outside the graded calls' bookkeeping: an earlier graded call of the same
    /// test has checked how it calls completion) and returns what its completion first got — `.some(nil)` for
    /// `completion(nil)` — or nil when it was not called within 2 s.
    func firstCompletion(_ start: (@escaping (Error?) -> Void) -> Void) -> Error?? {
        let first = Box<Error??>()
        start { error in
            if first.get() == nil { first.set(.some(error)) }
        }
        eventually(within: 2) { first.get() != nil }
        return first.get() ?? nil
    }

    /// Fails when the URL holds a percent-encoded slash (`%2F`): `appending(component:)` (or a percent-encoding of a
    /// whole path) turned the slash between two keys into part of one key, which Firebase refuses. The path the tests
    /// read is percent-decoded, so it would not show otherwise.
    func requireNoEncodedSlash(in request: RecordedRequest, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let encoded = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        guard encoded.range(of: "%2F", options: .caseInsensitive) != nil else { return }
        throw fail("""
            \(exercise.function)'s URL holds a percent-encoded slash, `%2F`: \(request.url.absoluteString). The slash \
            between two keys was encoded as part of one key, so Firebase reads one key with a slash in it and refuses it \
            (\(request.response.statusCode) \(oneLine(request.response.bodyText ?? ""))). `appending(component:)` encodes every \
            slash in the text it is given: give it one key at a time (`appending(components: a, b)`), or use \
            `appendingPathComponent` / `appending(path:)`, which keep slashes. See LESSONS.md §1.2.
            """, file: file, line: line)
    }

    /// Added to a URL failure when the URL ends in `..json`: `appendingPathExtension(".json")`, with the dot.
    static func doubleDotNote(_ request: RecordedRequest) -> String {
        guard request.url.absoluteString.hasSuffix("..json") else { return "" }
        return " The URL ends in `..json`: appendingPathExtension takes the extension without its dot — "
            + "`appendingPathExtension(\"json\")` — and adds the dot itself."
    }

    /// Added to a "no .json" failure when the URL is the database's root, with nothing added: the new URLs that
    /// `appendingPathComponent` and `appendingPathExtension` return were thrown away.
    static func unchangedBaseURLNote(_ request: RecordedRequest) -> String {
        guard request.path == "/", !request.hasJSONSuffix else { return "" }
        return " That is `baseURL` itself, with nothing added: `appendingPathComponent(_:)` and `appendingPathExtension(_:)` "
            + "return a new URL and leave the one they are called on as it was, so a call whose result is unused (Swift "
            + "warns: \"result of call … is unused\") changes nothing. Use the result — `let url = baseURL"
            + ".appendingPathComponent(…).appendingPathExtension(\"json\")` — or the mutating `url.appendPathComponent(…)` on a `var`."
    }

    /// Added to a wrong-path failure when the URL ends in `.json.json`: the extension was added twice.
    static func jsonTwiceNote(_ request: RecordedRequest) -> String {
        guard request.url.path.hasSuffix(".json.json") else { return "" }
        return " The URL ends in `.json.json`: the extension was added twice — once in the text of a component (\"….json\") "
            + "and again by `appendingPathExtension(\"json\")` (or a helper that adds it). Add it once, at the end."
    }

    /// Added to a "no .json" failure when `.json` is in the middle of the path: the extension went on before a later
    /// component (on `baseURL` itself, or on a key before the next one).
    static func jsonInTheMiddleNote(_ request: RecordedRequest) -> String {
        let path = request.url.path
        guard !path.hasSuffix(".json/"), let range = path.range(of: ".json/") else { return "" }
        let rest = String(path[range.upperBound...])
        let how = path.hasPrefix("/.json/")
            ? "it went on `baseURL` itself (`baseURL.appendingPathExtension(\"json\")`) before any key was added"
            : "the extension went on before the next path component was added"
        return " `.json` is in the middle of it, before `\(rest)`: \(how). An extension belongs to the URL's last component: "
            + "add every key first, then `appendingPathExtension(\"json\")`, once, last."
    }

    /// Added to a "no .json" failure when the URL ends in `json` without its dot (text pasted together), or in the key
    /// `/json` (the extension added as a path component).
    static func extensionWithoutDotNote(_ request: RecordedRequest) -> String {
        let path = request.url.path
        if path.hasSuffix("/json") {
            return " It ends in `/json`: \"json\" was added as a path component, a key of its own, not as the extension "
                + "(`appendingPathExtension(\"json\")` adds `.json` to the last key)."
        }
        guard path.hasSuffix("json"), !path.hasSuffix(".json") else { return "" }
        return " It ends in `json` without the dot: in a URL written as text the extension needs its dot, \".json\" (only "
            + "`appendingPathExtension(\"json\")` adds the dot itself)."
    }

    /// Added to a wrong-path failure when the path holds how Swift prints a MessageThread object (`"\(thread)"`).
    static func objectInPathNote(_ path: String) -> String {
        guard path.contains("MessageThread") else { return "" }
        return " `\(path.dropFirst())` is how Swift prints the MessageThread object itself (`\"\\(thread)\"` in a string): "
            + "put the thread's `identifier` in the URL, not the thread."
    }

    /// Added to a wrong-path failure when `component` (the expected path's last key) follows a dot instead of a slash:
    /// it was added as a path extension.
    static func componentAsExtensionNote(_ path: String, expected: String) -> String {
        guard let slash = expected.lastIndex(of: "/"), slash != expected.startIndex else { return "" }
        let component = String(expected[expected.index(after: slash)...])
        guard path == expected[..<slash] + "." + component else { return "" }
        return " `\(component)` follows a dot: it was added as a path extension (`appendPathExtension(\"\(component)\")`), "
            + "which puts a dot before it. Add it as a path component (`appendingPathComponent(\"\(component)\")`), then "
            + "the extension \"json\"."
    }

    /// Added to a "no .json" failure when the URL ends in `.json/`: a slash after the extension hides it.
    static func trailingSlashNote(_ request: RecordedRequest) -> String {
        guard request.url.absoluteString.hasSuffix(".json/") else { return "" }
        return " It ends in `.json/`: the slash after the extension hides it (`appendingPathComponent(_:isDirectory: true)` "
            + "adds one). The URL must end in `.json` itself."
    }

    /// For a call a test needs before the behaviour it checks: stops it with a "setup: …" message when it failed.
    func requireSetupSuccess(_ error: Error?, _ what: String, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let error = error else { return }
        throw fail("""
            setup: \(what) failed, so this test cannot check its own behaviour: completion got \(Self.describe(error)). \
            Requests: \(TrafficReport(emulator).summary). The earlier tests of \(exercise.function) say what is wrong. \
            See \(exercise.reference).
            """, file: file, line: line)
    }

    func onlyRequest(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        try onlyRequest(from: exercise, on: emulator, file: file, line: line)
    }

    /// The body of `request`, or a stop saying it has none (and why, when an upload task hid it).
    func body(of request: RecordedRequest, from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        if let body = request.body, !body.isEmpty { return body }
        if request.uploadBodyHidden {
            throw fail("""
                \(exercise.function) sent its body with an upload task (\(request.summary)). That is correct code, but on \
                this platform no URLProtocol — so not the tests' emulator either — can see an upload task's body, so \
                the tests cannot check it. To be graded here, put the body in `request.httpBody` and use \
                `session.dataTask(with:)`. See LESSONS.md §0.5.
                """, file: file, line: line)
        }
        throw fail("""
            \(exercise.function)'s request has no body: \(request.summary). Encode the value with JSONEncoder and send \
            it as the request's body. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// Holds the emulator's answers, reads `state` 0.2 s from now on another queue, then lets the answers go: what the
    /// local state is while the answer to a call started now has not come yet, however slow the machine (no timing
    /// luck: the answer waits for the reading). Returns a reader of that snapshot.
    func stateBeforeTheAnswer<State>(_ state: @escaping () -> State) -> () -> State? {
        emulator.holdResponses()
        let snapshot = Box<State>()
        let emulator: FirebaseEmulator = self.emulator
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            snapshot.set(state())
            emulator.releaseHeldResponses()
        }
        return { snapshot.get() }
    }

    /// Spins the main run loop (so work hopped to the main queue runs) until `condition` holds or `timeout` passes.
    @discardableResult
    func eventually(within timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() >= deadline { return false }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        return true
    }

    /// Lets late work (a handler that changes state after calling completion, a hop to the main queue) happen.
    func settle(_ seconds: TimeInterval = 0.1) {
        RunLoop.current.run(until: Date(timeIntervalSinceNow: seconds))
    }

    /// The status the error reports when it is the HTTPStatusError the contract names; nil otherwise.
    static func httpStatus(of error: Error?) -> Int? {
        (error as? HTTPStatusError)?.statusCode
    }

    /// True when `error` is the URLError with `code` (any code when nil), as URLSession passes it, possibly
    /// bridged through NSError.
    static func isURLError(_ error: Error?, _ code: URLError.Code? = nil) -> Bool {
        guard let error = error else { return false }
        if let urlError = error as? URLError { return code.map { urlError.code == $0 } ?? true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && (code.map { nsError.code == $0.rawValue } ?? true)
    }

    /// Sends `recorded` to the emulator once more, as if the app had retried it.
    func replay(_ recorded: RecordedRequest) {
        var request = URLRequest(url: recorded.url)
        request.httpMethod = recorded.httpMethod
        request.httpBody = recorded.body
        recorded.headers.forEach { request.setValue($0.value, forHTTPHeaderField: $0.key) }
        _ = emulator.handle(request)
    }
}

/// A thread as it was at one moment (MessageThread is a class: a copy keeps what it held then).
struct ThreadCopy: Equatable, CustomStringConvertible {
    let title: String
    let identifier: String
    let messages: [MessageThread.Message]

    init(_ thread: MessageThread) {
        title = thread.title
        identifier = thread.identifier
        messages = thread.messages
    }

    var description: String { "\"\(title)\" (\(identifier), \(messages.count) message(s))" }
}

/// The learner-visible state a completion call saw.
struct LocalState {
    var threads: [ThreadCopy] = []
    var messages: [MessageThread.Message] = []
}

/// Records every call of one completion handler, from whatever queue it comes.
final class CompletionRecorder {
    struct Call {
        let error: Error?
        let at: Date
        /// Made from inside the learner's function, on the thread that called it: before any answer could arrive.
        let synchronous: Bool
        /// The local state at the moment of the call.
        let state: LocalState
    }

    private let lock = NSLock()
    private var entries: [Call] = []
    private var inside = false
    /// Set once a test has reported this handler's extra calls, so the end-of-test check does not repeat it.
    var reported = false

    /// Returns true for the first call.
    func record(_ error: Error?, synchronous: Bool, state: LocalState) -> Bool {
        lock.lock()
        entries.append(Call(error: error, at: Date(), synchronous: synchronous, state: state))
        let first = entries.count == 1
        lock.unlock()
        return first
    }

    func setInside(_ value: Bool) {
        lock.lock(); inside = value; lock.unlock()
    }

    var isInside: Bool {
        lock.lock(); defer { lock.unlock() }
        return inside
    }

    var calls: [Call] {
        lock.lock(); defer { lock.unlock() }
        return entries
    }
}

/// The emulator's answers held from now until `release()` or for `atMost` seconds, whichever comes first: released
/// once, so a late timer cannot open a hold a later call made.
final class HeldAnswers {
    private let emulator: FirebaseEmulator
    private let lock = NSLock()
    private var released = false

    init(_ emulator: FirebaseEmulator, atMost limit: TimeInterval) {
        self.emulator = emulator
        emulator.holdResponses()
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { [weak self] in self?.release() }
    }

    func release() {
        lock.lock()
        defer { lock.unlock() }
        guard !released else { return }
        released = true
        emulator.releaseHeldResponses()
    }
}
