import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson8

/// §8.4's tests: a ScriptedForum on the kit's socket server (127.0.0.1, a free port) per test — a URLProtocol hands
/// a response over in one piece, so a stream needs a socket — a listener pointed at it, and what its closures got.
/// Every wait has its own timeout; the test writes each event and then waits for the listener's answer.
class ListenerTestCase: Lesson8TestCase {
    /// The header the tests' session configuration adds to every request it sends: a request without it came
    /// through another session.
    static let sessionMark = "X-Lab-Session"
    static let wait: TimeInterval = 2

    private var emulator: Emulator<ScriptedForum>!
    private var server: EmulatorServer!
    private var configuration: URLSessionConfiguration!
    private let mark = UUID().uuidString
    var listener: ForumListener!
    var received: ListenerCalls!

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = Emulator(ScriptedForum())
        server = EmulatorServer(serving: emulator)
        do {
            try server.start()
        } catch {
            throw fail("setup: the test server could not start on 127.0.0.1: \(error)")
        }
        configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = [Self.sessionMark: mark]
        configuration.protocolClasses = [InfiniteTimeoutGuard.self] + (configuration.protocolClasses ?? [])
        listener = ForumListener(baseURL: server.baseURL, threadID: ScriptedForum.threadID, configuration: configuration)
        received = ListenerCalls()
    }

    override func tearDown() {
        if let session = listener?.session { Self.cancelAndWait(session) }
        server?.stop()
        listener?.session.invalidateAndCancel()
        emulator?.invalidate()
        super.tearDown()
    }

    /// Cancels the session's tasks and waits (up to 1 s) until each has ended, before the test stops its server.
    /// Stopping the server first, a task still open ends with a transport error instead of URLError.cancelled, and a
    /// listener that opens the stream again on such an error (a mistake of its own, reported by its test) then made a
    /// task on the session invalidated here: URLSession traps ("Session invalidated"), and the crash was charged to
    /// whichever test came next — another exercise's too.
    static func cancelAndWait(_ session: URLSession) {
        let open = allTasks(of: session, timeout: 1)
        open.forEach { $0.cancel() }
        _ = waitUntil({ open.allSatisfy { $0.state == .completed } }, timeout: 1, every: 0.001)
    }

    /// A second listener, on the kit's Firebase emulator (not the script) served on 127.0.0.1, holding the recorded
    /// forum as the messages of the scripted thread: the real events of real writes.
    func listenToFirebase(file: StaticString = #filePath, line: UInt = #line) throws -> (FirebaseEmulator, ForumListener) {
        let forum = try Fixtures.json("lesson8/forum.json")
        let firebase = FirebaseEmulator(database: [ScriptedForum.threadID: ["title": "Live updates", "messages": forum]])
        let server = EmulatorServer(serving: firebase)
        do {
            try server.start()
        } catch {
            throw fail("setup: the Firebase emulator could not start on 127.0.0.1: \(error)", file: file, line: line)
        }
        let other = ForumListener(baseURL: server.baseURL, threadID: ScriptedForum.threadID, configuration: .ephemeral)
        addTeardownBlock {
            Self.cancelAndWait(other.session)
            server.stop()
            other.session.invalidateAndCancel()
            firebase.invalidate()
        }
        return (firebase, other)
    }

    /// From now on the server answers the stream's GET with `status` (401 Permission denied).
    func refuseStreams(status: Int = 401, message: String = "Permission denied") {
        emulator.withService { $0.refuses = true; $0.refusal = (status, message) }
    }

    /// Another listener on the test's server, through a session of the tests' configuration, and what its closures get.
    func anotherListener() -> (ForumListener, ListenerCalls) {
        let other = ForumListener(baseURL: server.baseURL, threadID: ScriptedForum.threadID, configuration: configuration)
        addTeardownBlock {
            Self.cancelAndWait(other.session)
            other.session.invalidateAndCancel()
        }
        return (other, ListenerCalls())
    }
    var requestCount: Int { emulator.requests.count }

    /// The stream the listener opened, if any.
    var stream: EventStream? { emulator.withService { $0.streams.first } }
    var streamCount: Int { emulator.withService { $0.streams.count } }

    /// Calls `start`, and waits until the listener's stream is open. Stops the test, saying why, when a stub ran,
    /// when no stream opened (what was sent instead), or when it came through another session.
    @discardableResult
    func startListening(file: StaticString = #filePath, line: UInt = #line) throws -> EventStream {
        let calls = received!
        listener.start(onUpdate: { calls.update($0) }, onEnd: { calls.end($0) })
        try requireStarted(file: file, line: line)
        guard Self.waitUntil({ self.stream != nil || !calls.ends.isEmpty || !Self.requestsThroughSharedSession.isEmpty }) else {
            throw fail(noStream(), file: file, line: line)
        }
        if let request = Self.requestsThroughSharedSession.first {
            throw fail("""
                start sent \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") through URLSession.shared, \
                not through the listener's `session`. Only `session` delivers the stream's pieces to this listener (it \
                is the session's delegate). Use `session.dataTask(with: request)`. See \(Self.listener.reference).
                """, file: file, line: line)
        }
        guard let stream = stream else { throw fail(noStream(), file: file, line: line) }
        if let request = emulator.requests.first, request.header(Self.sessionMark) != mark {
            throw fail("""
                start opened the stream through a session of its own, not the listener's `session` (\(request.summary) \
                lacked the header the tests' configuration adds). Make the task with `session.dataTask(with:)`: it \
                is the session made from the configuration you were given, with the listener as its delegate. See \(Self.listener.reference).
                """, file: file, line: line)
        }
        return stream
    }

    private func noStream() -> String {
        let sent = emulator.requests
        var message = "start did not open the stream within \(Int(Self.wait)) s."
        if let request = sent.first {
            let accept = request.header("Accept")
            message += " The server received \(sent.count) request(s), the first: \(request.summary), Accept: \(accept ?? "(none)")."
            if request.method != "GET" {
                message += " Open it with GET: a stream is a read."
            } else if request.path != ScriptedForum.streamPath || !request.hasJSONSuffix {
                message += " The thread's messages are at <baseURL>/<threadID>/messages.json (the thread's key, then `messages`, where Lesson 1 POSTs them)."
            } else if !(accept ?? "").contains("text/event-stream") {
                message += " Without `Accept: text/event-stream` Firebase answers once with JSON and closes: set that header on the request."
            }
        } else if let end = received.ends.first {
            message += " onEnd got \(end) before any request reached the server."
        } else {
            message += " No request reached the server: was the task resumed (`task.resume()`)?"
        }
        return message + " See \(Self.listener.reference)."
    }

    /// Writes `bytes` into the open stream.
    func send(_ bytes: Data, on stream: EventStream) { stream.send(bytes) }
    func send(_ events: [ServerSentEvent], on stream: EventStream) { stream.send(Self.wire(events)) }

    /// Waits (up to 2 s) for the listener's `count`-th update and returns it.
    func update(_ count: Int, after what: String, file: StaticString = #filePath, line: UInt = #line) throws -> [ForumMessage] {
        let calls = received!
        guard Self.waitUntil({ calls.updates.count >= count || !calls.ends.isEmpty }) else {
            let cause = calls.updates.isEmpty
                ? " Make the task with `session.dataTask(with: request)` and no completion handler (with one — or with the async data(for:) — nothing comes before the body has ended, and a stream's never does); feed every piece to the parser, every event it hands on to the model, and after each put or patch call onUpdate(model.messages). Check the spelling: `urlSession(_:dataTask:didReceive:)` exactly (a near miss compiles, with a warning, and is never called)."
                : " Hand on every event parse(_:) returns, not just the first: each put or patch is one onUpdate."
            throw fail("""
                After \(what), onUpdate was called \(calls.updates.count) time(s) in all within \(Int(Self.wait)) s; \
                expected \(count).\(cause) See \(Self.listener.reference).
                """, file: file, line: line)
        }
        if calls.updates.count < count, let end = calls.ends.first {
            let cause = (end as? ForumStreamError) == .httpStatus(200)
                ? " A 200 is the stream opening: go on with it. (Its Content-Type is `text/event-stream; charset=utf-8` — a header may carry parameters after `;`: compare response.mimeType, or the status alone, not the whole header.)"
                : ""
            throw fail("After \(what), the listener ended with \(end) instead of calling onUpdate.\(cause) See \(Self.listener.reference).",
                       file: file, line: line)
        }
        return calls.updates[count - 1]
    }

    /// Waits (up to 2 s) for onEnd and returns what it got.
    /// `cause`: what most likely kept onEnd from being called, said when it was not.
    func end(after what: String, cause: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> Error {
        let calls = received!
        guard Self.waitUntil({ !calls.ends.isEmpty }), let error = calls.ends.first else {
            if delegateQueueIsStuck() {
                throw fail("""
                    After \(what), onEnd was not called within \(Int(Self.wait)) s, and the listener's delegate queue is \
                    stuck: a delegate method never returned, so nothing more can come. Most often a lock taken twice on \
                    one thread — NSLock is not recursive: a delegate method that holds the lock and then calls end() (or \
                    stop()), which takes it again, waits for itself. Let go of the lock before you call anything that \
                    takes it. See \(Self.listener.reference).
                    """, file: file, line: line)
            }
            throw fail("After \(what), onEnd was not called within \(Int(Self.wait)) s.\(cause.isEmpty ? "" : " " + cause) See \(Self.listener.reference).",
                       file: file, line: line)
        }
        return error
    }

    /// Whether the listener's delegate queue runs no more work: an operation added to it has not run 0.5 s later.
    /// (A listener whose session made a queue of its own leaves this one idle: then it is not stuck.)
    func delegateQueueIsStuck() -> Bool {
        let ran = Flag()
        listener.delegateQueue.addOperation { ran.set() }
        return !Self.waitUntil({ ran.isSet }, timeout: 0.5)
    }

    /// Why a `cancel` or `auth_revoked` event did not reach onEnd, most often.
    static let modelErrorEnds = "apply(_:) throws for `cancel` and `auth_revoked` (ForumStreamError): that error is the end of the stream — when apply throws, cancel the task and pass the error to onEnd; do not skip the event and go on."

    /// The states of the tasks the listener's session still has (waits up to 2 s for the session's answer).
    func taskStates() -> [URLSessionTask.State] {
        Self.allTasks(of: listener.session).map(\.state)
    }

    /// The session's tasks (waits up to `timeout` for the session's answer); none if it has not answered.
    static func allTasks(of session: URLSession, timeout: TimeInterval = wait) -> [URLSessionTask] {
        session.tasks(within: timeout) ?? []
    }

    /// True once the transport noticed the client closed the stream.
    func waitForClose(of stream: EventStream) -> Bool { Self.waitUntil { stream.isCancelled } }

    /// Waits up to 2 s, running the run loop, until `condition` holds.
    static func waitUntil(_ condition: @escaping () -> Bool, timeout: TimeInterval = wait, every slice: TimeInterval = 0.01) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() >= deadline { return false }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: slice))
        }
        return true
    }

    /// Lets `seconds` pass, for what must *not* happen.
    func quietly(_ seconds: TimeInterval) { RunLoop.current.run(until: Date(timeIntervalSinceNow: seconds)) }
}

/// What the listener's closures received, from whatever queue.
final class ListenerCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var updateList: [[ForumMessage]] = []
    private var endList: [Error] = []
    private var updatesAtEnd: [Int] = []
    private var running = 0
    private var mostAtOnce = 0
    private var slowness: TimeInterval = 0
    private var afterEnd: (() -> Void)?
    private var afterUpdate: (() -> Void)?

    /// From now on each onUpdate takes `seconds`, as an app's slow screen update would.
    func takeTime(_ seconds: TimeInterval) { lock.lock(); slowness = seconds; lock.unlock() }
    /// Runs `action` in onEnd, after recording the end: what an app does when the stream ends.
    func whenEnded(_ action: @escaping () -> Void) { lock.lock(); afterEnd = action; lock.unlock() }
    /// Runs `action` in onUpdate, after recording the update.
    func whenUpdated(_ action: @escaping () -> Void) { lock.lock(); afterUpdate = action; lock.unlock() }
    /// The most onUpdate calls that were running at one time.
    var mostUpdatesAtOnce: Int { lock.lock(); defer { lock.unlock() }; return mostAtOnce }

    func update(_ messages: [ForumMessage]) {
        lock.lock()
        running += 1
        mostAtOnce = max(mostAtOnce, running)
        let slowness = self.slowness
        lock.unlock()
        if slowness > 0 { Thread.sleep(forTimeInterval: slowness) }
        lock.lock()
        updateList.append(messages)
        running -= 1
        let afterUpdate = self.afterUpdate
        lock.unlock()
        afterUpdate?()
    }

    func end(_ error: Error) {
        lock.lock()
        endList.append(error)
        updatesAtEnd.append(updateList.count)
        let afterEnd = self.afterEnd
        lock.unlock()
        afterEnd?()
    }
    var updates: [[ForumMessage]] { lock.lock(); defer { lock.unlock() }; return updateList }
    var ends: [Error] { lock.lock(); defer { lock.unlock() }; return endList }
    /// How many updates the app had when each onEnd came.
    var updatesBeforeEachEnd: [Int] { lock.lock(); defer { lock.unlock() }; return updatesAtEnd }
}

/// Linux's URLSession turns a request's `timeoutInterval` into whole milliseconds (`Int(timeoutInterval) * 1000`)
/// and traps on an infinite one — or on one too large for that Int (`TimeInterval(Int.max)`,
/// `.greatestFiniteMagnitude`) — taking the test process down: this protocol takes such a request first and fails it
/// with an error that says so.
final class InfiniteTimeoutGuard: URLProtocol {
    struct InfiniteTimeout: Error, CustomStringConvertible {
        let seconds: TimeInterval
        var description: String {
            "an error of the tests: the request's timeoutInterval is \(seconds) s — Linux's URLSession turns it into whole milliseconds, Int(timeoutInterval) * 1000, and traps (the program stops) when that is infinite or past Int.max. Leave the default, or set a finite number of seconds such as 3600 (LESSONS.md §8.1)"
        }
    }
    /// The longest timeout Linux's URLSession can turn into milliseconds.
    static let longest = TimeInterval(Int.max / 1000)
    override class func canInit(with request: URLRequest) -> Bool {
        !(request.timeoutInterval.isFinite && abs(request.timeoutInterval) < longest)
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { client?.urlProtocol(self, didFailWithError: InfiniteTimeout(seconds: request.timeoutInterval)) }
    override func stopLoading() {}
}

/// A flag set from another queue.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
