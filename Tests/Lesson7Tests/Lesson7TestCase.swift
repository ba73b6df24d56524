import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import ChatCaveEmulator
import LabSupport
import LabTestSupport
import Lesson7

/// Lesson 7's tests share this: a ChatCave emulator (users ada/lovelace and grace/hopper, a clock that steps a
/// minute per room or message), a service signed in as ada, and `call`, which runs one of the learner's functions
/// and checks what every call must do: exactly one closure, once, after the server answered, through the injected
/// session. A stub stops the test at once ("not started yet"), without waiting.
class Lesson7TestCase: TimeZonedTestCase {
    static let fetchRooms = Exercise("fetchRooms(success:failure:)", section: "7.3")
    static let createRoom = Exercise("createRoom(named:success:failure:)", section: "7.4")
    static let joinRoom = Exercise("joinRoom(id:success:failure:)", section: "7.4")
    static let leaveRoom = Exercise("leaveRoom(id:success:failure:)", section: "7.4")
    static let fetchMessages = Exercise("fetchMessages(inRoom:success:failure:)", section: "7.5")
    static let fetchNewMessages = Exercise("fetchNewMessages(inRoom:success:failure:)", section: "7.5")
    static let postMessage = Exercise("postMessage(_:inRoom:success:failure:)", section: "7.5")
    static let cancelRequest = Exercise("cancelRequest(_:)", section: "7.6")

    static let ada = Credentials(user: "ada", password: "lovelace")
    /// ada's Authorization header, for a request of the test's own (straight to the emulator, not the learner's code).
    static let adasAuthorization = "Basic " + Data("\(ada.user):\(ada.password)".utf8).base64EncodedString()
    static let clockStart = Date(timeIntervalSince1970: 1_795_428_000)  // 2026-11-23T10:00:00Z
    /// Every answer comes this long after the request arrived, so a closure called before the answer is seen as
    /// such in every run.
    static let latency: TimeInterval = 0.05

    var emulator: ChatCaveEmulator!
    var service: ChatCaveService!
    /// The tests run in a time zone that is not UTC (+5:30, no daylight saving), on every machine: a time read in the
    /// device's time zone (a DateFormatter with a quoted 'Z' and no timeZone) is wrong everywhere, not only off UTC.
    /// `NSTimeZone.default` moves DateFormatter's; TimeZonedTestCase moves `TimeZone.current` too (once missed: a
    /// date "converted to local time" with `TimeZone.current.secondsFromGMT()`, a shift of zero on a UTC machine).
    /// The zone TimeZonedTestCase also sets for `TimeZone.current`.
    static let deviceTimeZone = TimeZone(identifier: testTimeZone)!
    private var savedTimeZone: TimeZone?

    override func setUpWithError() throws {
        try super.setUpWithError()
        savedTimeZone = NSTimeZone.default
        NSTimeZone.default = Self.deviceTimeZone
        let clock = SteppingClock(start: Self.clockStart)
        emulator = ChatCaveEmulator(clock: clock.next)
        emulator.latency = Self.latency
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session, credentials: Self.ada)
    }

    override func tearDown() {
        emulator?.releaseHeldResponses()
        emulator?.invalidate()
        if let saved = savedTimeZone { NSTimeZone.default = saved }
        super.tearDown()
    }

    // MARK: Calling the learner's functions

    /// Runs `start` (one call of the learner's service, handed the two closures) and returns what it ended with.
    /// Stops the test when a stub ran, when no closure came within 2 s, when one came before the answer or through
    /// another session, or when closures were called more than once. `setup`: the call is not the test's subject.
    /// `quietMain`: the main thread first waits for it (at most 0.5 s) without running the main queue's work.
    func call<Value>(_ exercise: Exercise, setup: String? = nil, quietMain: DispatchSemaphore? = nil,
                     file: StaticString = #filePath, line: UInt = #line,
                     _ start: @escaping (CallLog<Value>) -> Void) throws -> Outcome<Value> {
        let log = CallLog<Value>()
        let before = emulator.requests.count
        let problem = { (why: String) -> TestStopped in
            self.fail(setup.map { "setup: \($0) needs \(exercise.function) to work, and it did not: \(why)" } ?? why,
                      file: file, line: line)
        }
        // On another thread, so that a call that never returns (a lock it already holds) stops this test, not the
        // test process.
        let returned = Flag()
        DispatchQueue.global().async {
            start(log)
            returned.set()
        }
        _ = quietMain?.wait(timeout: .now() + 0.5)
        _ = eventually { returned.isSet || !StubLog.recorded.isEmpty }
        if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }  // LabTestCase says "not started"
        guard returned.isSet else { throw problem(Self.neverReturned(exercise)) }
        _ = eventually { !log.calls.isEmpty || !StubLog.recorded.isEmpty }
        if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }
        // A closure called at once, before the request even reached the emulator (success() right after resume()):
        // give the request a moment to arrive, so the check below sees the closure came before the answer.
        if !log.calls.isEmpty, emulator.requests.count == before {
            _ = eventually(within: 0.3) { emulator.requests.count > before }
        }
        let sent = Array(emulator.requests.dropFirst(before))
        if let wrongPlace = wrongPlace(exercise) { throw problem(wrongPlace) }
        guard let first = log.calls.first else { throw problem(noClosure(exercise, sent: sent)) }
        if let request = sent.first, first.at < request.receivedAt.addingTimeInterval(Self.latency) {
            throw problem("""
                \(exercise.function) called \(first.outcome.described) before the server's answer to \(request.summary) \
                arrived. Call a closure only inside the data task's completion handler. See \(exercise.reference).
                """)
        }
        // A second call usually follows at once: give it a moment to show.
        _ = eventually(within: 0.03) { false }
        let calls = log.calls
        if calls.count > 1 {
            throw problem("""
                \(exercise.function) called its closures \(calls.count) times (\(calls.map(\.outcome.described).joined(separator: ", then "))); \
                exactly one of success and failure must be called, once. After calling failure, `return` — a missing \
                `return` runs on into the next check or the success path. See \(exercise.reference).
                """)
        }
        return first.outcome
    }

    /// Why a call that did not return within 2 s (while its answer was not held) never returns.
    static func neverReturned(_ exercise: Exercise) -> String {
        """
        \(exercise.function) did not return within 2 s: the call itself waits for something that never comes — most \
        often a lock. An NSLock is not recursive: `lock()` on a thread that already holds it waits forever (a helper \
        that locks, called while the lock is held; a `defer { lock.unlock() }` whose scope still includes the call \
        that sends), and so does every `lock()` after one left without its `unlock()` on some path. A \
        DispatchSemaphore used as a lock starts at 1 (`DispatchSemaphore(value: 1)`): made with 0, its first wait \
        never ends. See \(exercise.reference), and §7.6 on guarding shared state.
        """
    }

    /// Calls `service.cancelRequest(id)` on another thread, so that one that never returns stops this test, not the
    /// test process; `onTheSessionsQueue`: on the session's delegate queue, where a cancelled task's handler runs
    /// only after cancelRequest returned.
    func cancel(_ id: RequestID, on service: ChatCaveService, onTheSessionsQueue: Bool = false,
                file: StaticString = #filePath, line: UInt = #line) throws {
        let returned = Flag()
        let call = {
            service.cancelRequest(id)
            returned.set()
        }
        if onTheSessionsQueue {
            service.session.delegateQueue.addOperation(call)
        } else {
            DispatchQueue.global().async(execute: call)
        }
        _ = eventually(within: 1) { returned.isSet || !StubLog.recorded.isEmpty }
        if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }
        guard returned.isSet else {
            throw fail("""
                cancelRequest did not return within 1 s: it waits for something that never comes — most often a lock \
                it already holds\(onTheSessionsQueue ? ", or the session's own queue, on which it was called here" : ""). \
                An NSLock is not recursive: a cancelRequest that locks, then calls a helper that \
                locks again (to forget the task, say), waits for itself forever. Take the lock once — remove the task \
                inside it, unlock, then cancel it. See LESSONS.md §7.6.
                """, file: file, line: line)
        }
    }

    /// The value of a successful call; stops the test, explaining the failure, otherwise.
    func requireSuccess<Value>(_ outcome: Outcome<Value>, of exercise: Exercise, setup: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) throws -> Value {
        switch outcome {
        case .success(let value):
            return value
        case .failure(let error):
            var why = "\(exercise.function) called failure(\(Outcome<Value>.describe(error))). Requests: \(summary)."
            if case .server(let status, _) = error, (200...299).contains(status) {
                // Issue 20 (a POST checked with `statusCode != 200`, as in Tomoya-K-0504/health's playground).
                why += " \(status) is a success: every status in 200...299 is (201 Created, 204 No Content), not only 200."
            } else if let refused = emulator.requests.last(where: { !(200...299).contains($0.response.statusCode) }) {
                why += " The emulator refused \(refused.method) \(refused.path) with \(refused.response.statusCode)"
                why += refused.response.bodyJSON?.objectValue?["error"]?.stringValue.map { ": \"\($0)\"." } ?? "."
                if let queryInPath = Self.queryInPath(refused) { why += " \(queryInPath)" }
                if refused.response.statusCode == 401 { why += " Every request needs `Authorization: Basic <base64 of user:password>` (§7.2)." }
            } else if let empty = emulator.requests.last(where: { $0.response.statusCode == 204 }) {
                // Issue 20 (`guard !data.isEmpty else { failure(…) }`): any failure after a 204, not only .decoding.
                why += " The server answered \(empty.summary): 204 No Content is a success with no body — nothing to decode, and an empty body is no error: check the status, then call success()."
            } else if case .decoding(let decoding) = error {
                why += " The server answered 2xx, but decoding failed: \(Self.explain(decoding))"
            } else {
                why += " The server accepted every request, so the call should succeed."
            }
            let message = "\(why) See \(exercise.reference)."
            throw fail(setup.map { "setup: \($0) needs \(exercise.function) to succeed, and it failed: \(message)" } ?? message,
                       file: file, line: line)
        }
    }

    /// The one request the call sent; stops the test when it sent none or several.
    func onlyRequest(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        let requests = emulator.requests
        guard requests.count == 1, let request = requests.first else {
            throw fail("""
                \(exercise.function) should send exactly one request; the emulator received \(requests.count): \
                \(summary). See \(exercise.reference).
                """, file: file, line: line)
        }
        if let queryInPath = Self.queryInPath(request) {
            throw fail("\(exercise.function) sent \(request.summary). \(queryInPath) See \(exercise.reference).",
                       file: file, line: line)
        }
        return request
    }

    /// Why a request's URL has `%3F` in its path, when it has: a query glued onto the path
    /// (`baseURL.appendingPathComponent("rooms/1/messages?since=3")`) is percent-encoded into it.
    static func queryInPath(_ request: RecordedRequest) -> String? {
        guard let url = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
              url.percentEncodedPath.range(of: "%3F", options: .caseInsensitive) != nil else { return nil }
        return """
            Its `?` arrived as %3F, part of the path: the URL has no query, and the server knows no such path. \
            appendingPathComponent (and appending(path:)) percent-encodes a `?`; add a query with URLComponents and \
            `queryItems = [URLQueryItem(name: "since", value: …)]`.
            """
    }

    /// Every request the emulator received, for the end of a message.
    var summary: String {
        let requests = emulator.requests
        return requests.isEmpty ? "(none reached the emulator)" : requests.map(\.summary).joined(separator: "; ")
    }

    // MARK: Setting up

    /// Rooms 1 "Swift" (by ada) and 2 "Random" (by grace, who is in it; ada too when `adaInRandom`), no messages.
    @discardableResult
    func seedTwoRooms(adaInRandom: Bool = false) -> [ChatCaveAPI.Room] {
        [emulator.seedRoom(named: "Swift", by: "ada"),
         emulator.seedRoom(named: "Random", by: "grace", chatters: adaInRandom ? ["grace", "ada"] : ["grace"])]
    }

    /// The rooms as the learner's model holds them.
    static func model(_ rooms: [ChatCaveAPI.Room]) -> [Room] {
        rooms.map { Room(id: $0.id, name: $0.name, createdBy: $0.createdBy, createdAt: $0.createdAt) }
    }

    static func model(_ messages: [ChatCaveAPI.Message]) -> [Message] {
        messages.map { Message(id: $0.id, roomID: $0.roomID, userID: $0.userID, text: $0.text, sentAt: $0.sentAt) }
    }

    // MARK: Messages

    /// Why a DecodingError happened, in the lesson's words.
    /// Why a 2xx answer did not decode. The error itself is already in the message (`failure(.decoding(…))`), in a
    /// few words: it is not repeated here.
    static func explain(_ error: Error) -> String {
        let text = "\(error)"
        if text.contains("Date") || text.contains("created_at") || text.contains("sent_at") {
            return "ChatCave's times are ISO 8601 strings in whole seconds (\"2026-11-23T10:00:00Z\", no fractional part: a formatter with .withFractionalSeconds, or a format with .SSS, reads none of them): give your JSONDecoder `dateDecodingStrategy = .iso8601` (§7.1)."
        }
        return "decode the answer as the model the contract names ([Room], Room, [Message], Message), with the given models' coding keys (§7.1)."
    }

    /// When `got` differs from `expected` only in its times, each off by the same whole number of minutes: why (a time
    /// read in the device's time zone, `deviceTimeZone`; or, whole days off, a format's date part read as something
    /// else). Compares the values with their times set equal.
    static func timeZoneHint(got: [Date], expected: [Date], sameOtherwise: Bool) -> String? {
        guard sameOtherwise, got.count == expected.count, let first = got.first, let firstExpected = expected.first else { return nil }
        let offset = first.timeIntervalSince(firstExpected)
        guard offset != 0, offset.truncatingRemainder(dividingBy: 60) == 0,
              zip(got, expected).allSatisfy({ $0.timeIntervalSince($1) == offset }) else { return nil }
        // Whole days off, the time of day right: not a time zone (at most 14 h), the date part of a DateFormatter's
        // format (`yyyy-mm-dd`, moment.js's `YYYY-MM-DD`) — read in January here, every test's times being in November.
        if abs(offset) >= 86_400 {
            return """
                Every time is \(Int(abs(offset)) / 86_400) days \(offset > 0 ? "late" : "early"), its time of day right: the \
                date part was read wrong. In a DateFormatter's format, `MM` is the month — `mm` is the minute — and `dd` \
                the day of the month — `DD` is the day of the year (moment.js's `YYYY-MM-DD` is not Foundation's); write \
                "yyyy-MM-dd'T'HH:mm:ssXXXXX", or let `dateDecodingStrategy = .iso8601` read the times. See LESSONS.md §7.1.
                """
        }
        let minutes = Int(abs(offset)) / 60
        return """
            Every time is \(minutes / 60) h \(minutes % 60) min \(offset > 0 ? "late" : "early"): it was read in the device's time \
            zone (the tests run in \(deviceTimeZone.identifier), UTC+5:30). ChatCave's times end in Z: UTC. A \
            DateFormatter whose format has a quoted 'Z' treats it as a letter and uses its own time zone unless you set \
            `timeZone = TimeZone(identifier: "UTC")`; `dateDecodingStrategy = .iso8601` reads the Z. And a Date is a \
            moment, the same in every time zone: "converting" it to local time (adding \
            `TimeZone.current.secondsFromGMT()`) moves it — time zones matter only when a date is shown. See LESSONS.md §7.3.
            """
    }

    private func wrongPlace(_ exercise: Exercise) -> String? {
        let traffic = TrafficReport(emulator)
        if let request = traffic.viaOtherSession.first {
            return """
                \(exercise.function) sent \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") through \
                URLSession.shared (or a session of its own), not through the service's `session`: the tests hand your \
                service a session that talks to their emulator. See \(exercise.reference).
                """
        }
        if let request = traffic.toOtherHost.first {
            return """
                \(exercise.function) sent \(request.method) \(request.url.absoluteString), which is not under the \
                service's `baseURL` (\(emulator.baseURL.absoluteString)). Build every URL from `baseURL`. See \(exercise.reference).
                """
        }
        return nil
    }

    private func noClosure(_ exercise: Exercise, sent: [RecordedRequest]) -> String {
        guard let last = sent.last else {
            // Issue 20 (Recipes' DownloadManager skips a URL it has a task for, and never forgets finished tasks).
            if !emulator.requests.isEmpty {
                return """
                    \(exercise.function) called neither closure within 2 s and sent no request, though earlier calls in this \
                    test sent theirs. Was it skipped as a repeat (tasks kept by URL, never forgotten when they finish, so a \
                    call to the same URL is dropped)? Every call sends its own request. See \(exercise.reference).
                    """
            }
            return """
                \(exercise.function) called neither closure within 2 s, and no request reached the emulator: was the \
                data task started (`resume()`)? Or the code returned early without calling `failure`. See \(exercise.reference).
                """
        }
        if let lost = last.response.transportError {
            // `guard let data = data, let http = response as? HTTPURLResponse else { return }` before the error check.
            return """
                \(exercise.function) called neither closure within 2 s: the connection was lost (\(last.summary)), so the \
                data task's completion handler got error URLError(\(lost.code.rawValue)) with no data and no response, and \
                returned without a word. Check `error` first and call failure(.transport(error)); a `guard let data` or \
                `response as? HTTPURLResponse` before that check ends there. See \(exercise.reference).
                """
        }
        // Issue 20 (caidence/beans' `guard let mime = response.mimeType, mime == "application/json" else { return }`).
        let noContent = last.response.statusCode == 204
            ? " A 204 No Content has no body and no Content-Type: a guard on the data or on the MIME type ends there."
            : ""
        return """
            \(exercise.function) called neither closure within 2 s, although the emulator answered (\(last.summary)).\(noContent) \
            Every path through the completion handler must call `success` or `failure` — check each `return` and \
            `guard … else`. See \(exercise.reference).
            """
    }
}

/// Polls, running the run loop (so work sent to the main queue runs), until `condition` holds or `timeout` passes.
func eventually(within timeout: TimeInterval = 2, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002)) }
    return condition()
}

extension Lesson7TestCase {
    /// Calls fetchRooms on another thread, so that a call waiting for its own answer blocks that thread and not the
    /// test's; the flag is set once the call has returned.
    func fetchRoomsOnAnotherThread(into log: CallLog<[Room]>) -> Flag {
        let service = self.service!
        let returned = Flag()
        DispatchQueue.global().async {
            service.fetchRooms(success: log.success, failure: log.failure)
            returned.set()
        }
        return returned
    }
}
