import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LabSupport
import LabTestSupport
import Lesson7

/// Calls from many threads at once, for the service's shared state (§7.6: calls come from any thread, answers on
/// the session's queue). The answers come back while 8 threads are still calling and cancelling: the service's state
/// is read and written from many threads together, hundreds of times a round. Unguarded
/// state loses entries (closures that never come, or come twice, or come after a cancel) or breaks (the test crashes,
/// and `lab` names the Dictionary or Array that broke). The calls go through `ThreadsSession`, a URLSession that
/// answers from memory: through the emulator's session every thread queued on the session's own work queue for each
/// task, so two threads rarely met in the service's state — with no lock at all this test failed 5 runs in 10 on a
/// 2-core machine at load 10; through ThreadsSession, 20 in 20 (and 10 in 10 with a lock around adding only). Every
/// round runs on a new service, as many as fit in 1.6 s (a round starts only when one as long as the longest so far
/// still ends in time).
extension Lesson7TestCase {
    /// Runs `rounds` rounds of `threads` × `callsEach` calls; `start(thread, index, log)` makes one call and returns
    /// whether it cancelled it. Stops the test at the first round where a call that was not cancelled never ended,
    /// a cancelled one ended anyway, or any call ended twice, with `what` naming the state that was lost.
    func callFromManyThreads(_ exercise: Exercise, what: String, threads: Int = 8, callsEach: Int = 60, rounds: Int = 20,
                             budget: TimeInterval = 1.6,
                             file: StaticString = #filePath, line: UInt = #line,
                             _ start: @escaping (ChatCaveService, Int, Int, CallLog<Void>) -> Bool) throws {
        let session = ThreadsSession.make(configuration: emulator.session.configuration)
        defer { session.invalidateAndCancel() }
        // Calls that take the session's own path (see ThreadsSession) reach the emulator: their answers come 0.2 s
        // after the request, long after any cancel — corelibs stops the program when a cancel meets its answer.
        let latency = emulator.latency
        emulator.latency = 0.2
        defer { emulator.latency = latency }
        let started = Date()
        var longestRound: TimeInterval = 0
        // Rounds while the next one, as long as the longest so far, still ends within `budget`: on a machine grading
        // a class (or a loaded one) the rounds are slower and fewer, and the test never nears the grader's 5 s.
        for _ in 1...rounds where Date().timeIntervalSince(started) + longestRound < budget {
            let roundStarted = Date()
            defer { longestRound = max(longestRound, Date().timeIntervalSince(roundStarted)) }
            // A new service each round: its state starts empty and grows while the threads run (a growing
            // Dictionary moves its storage: the moment two unguarded writers break it).
            let service = ChatCaveService(baseURL: emulator.baseURL, session: session, credentials: Self.ada)
            let logs = (0..<threads * callsEach).map { _ in CallLog<Void>() }
            let cancelled = (0..<threads * callsEach).map { _ in Flag() }
            session.startRound { cancelled[$0].isSet }
            // Threads of their own rather than concurrentPerform: a Dictionary broken by two writers can make a lookup
            // loop forever, and the test must still end, and say so.
            let callers = DispatchGroup()
            for thread in 0..<threads {
                DispatchQueue.global().async(group: callers) {
                    for index in 0..<callsEach {
                        let call = thread * callsEach + index
                        // The data task this call makes on this thread is marked with the call's number.
                        Thread.current.threadDictionary[ThreadsSession.callKey] = NSNumber(value: call)
                        let didCancel = start(service, thread, index, logs[call])
                        Thread.current.threadDictionary.removeObject(forKey: ThreadsSession.callKey)
                        // Set once cancelRequest has returned.
                        if didCancel { cancelled[call].set() }
                    }
                }
            }
            // (ThreadsSession answers in 10 ms, so these waits are long; they are short enough that a thread stuck in a
            // broken Dictionary is named here, well within the grader's 5 s, even on a loaded machine.)
            let returned = callers.wait(timeout: .now() + 1.5) == .success
            if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }
            guard returned else {
                throw fail("""
                    \(threads) threads made \(logs.count) calls at once, and after 1.5 s some calls had still not returned: \
                    the service's shared state (\(what)) was changed from several threads at once, with no lock — a \
                    Dictionary broken that way can even make a lookup loop forever. Guard every read and write of it — \
                    an NSLock around each, or a serial DispatchQueue. See \(exercise.reference).
                    """, file: file, line: line)
            }
            let kept = logs.indices.filter { !cancelled[$0].isSet }.map { logs[$0] }
            _ = eventually(within: 1) { kept.allSatisfy { !$0.calls.isEmpty } }
            _ = eventually(within: 0.05) { false }
            let unanswered = kept.filter { $0.calls.isEmpty }.count
            let twice = logs.filter { $0.calls.count > 1 }.count
            // A removal lost to a writer on another thread brings a cancelled call back: its handler then finds it and
            // reports the cancelled task's URLError.cancelled. (Only cancelRequest cancels a task here; an answer that
            // came before the cancel is a success, and fine.)
            let revived = logs.filter { log in
                log.calls.contains { call in
                    guard case .failure(.transport(let error)) = call.outcome else { return false }
                    return (error as? URLError)?.code == .cancelled
                }
            }.count
            // A call cancelled before its answer came, whose task was never cancelled, and which still called success:
            // cancelRequest found nothing to cancel when it ran (the task stored later, from a Task or an async block),
            // or cancelled only later (through getAllTasks, say). (An answer already on its way when cancel() came
            // may still be passed on: that is the URLError.cancelled check's way, and fine.)
            let late = session.answersAfterCancelReturned.filter { call in
                logs[call].calls.contains { if case .success = $0.outcome { return true } else { return false } }
            }
            guard late.isEmpty else {
                throw fail("""
                    \(threads) threads made \(logs.count) calls at once, cancelling every other one as soon as it returned: \
                    \(late.count) cancelled calls still called success, with an answer that came after cancelRequest returned \
                    — their tasks were never cancelled. When cancelRequest runs, the call's task must already be stored \
                    under its id — stored before `resume()`, before the call returns (not later, from a `Task { }` or an \
                    async block) — and cancelRequest must cancel it (or mark the call) before it returns, with every read \
                    and write of the tasks by id under the lock. See \(exercise.reference).
                    """, file: file, line: line)
            }
            guard unanswered == 0, twice == 0, revived == 0 else {
                throw fail("""
                    \(threads) threads made \(logs.count) calls at once (cancelling \(logs.count - kept.count)): \(unanswered) \
                    of the \(kept.count) calls not cancelled never called success or failure\(twice > 0 ? ", and \(twice) called them twice" : "")\
                    \(revived > 0 ? ", and \(revived) cancelled calls called failure with URLError.cancelled" : ""). \
                    The service lost track of \(what): its shared state was changed from several threads at once, \
                    with no lock. Guard every read and write of it — an NSLock around each, or a serial \
                    DispatchQueue. (Or a call's task was stored under its id only after its answer came — from a \
                    `Task { }` or an async block: store it before `resume()`, before the call returns.) \
                    See \(exercise.reference).
                    """, file: file, line: line)
            }
        }
    }
}

/// A URLSession for `callFromManyThreads`: its data tasks answer from memory, on one serial queue (as a session's
/// delegate queue does), `latency` after `resume()` — 200 with `[]` — or at once with URLError.cancelled after
/// `cancel()`; each task's handler runs once. Nothing in it makes the callers wait for one another. A data task asked
/// for from inside Swift concurrency (`session.data(for:)` of an async solution, whose machinery needs the session's
/// own tasks) is the session's own, and goes to the emulator its configuration names.
final class ThreadsSession: URLSession, @unchecked Sendable {
    static let latency: TimeInterval = 0.01
    let answers = DispatchQueue(label: "ThreadsSession.answers")

    static func make(configuration: URLSessionConfiguration) -> ThreadsSession {
        #if canImport(FoundationNetworking)
        return ThreadsSession(configuration: configuration)
        #else
        return ThreadsSession()  // Darwin's init(configuration:) is not inherited by subclasses
        #endif
    }

    /// The thread-dictionary key under which `callFromManyThreads` puts the number of the call a thread is making.
    static let callKey = "ThreadsSession.call"

    override func dataTask(with request: URLRequest,
                           completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void) -> URLSessionDataTask {
        if withUnsafeCurrentTask(body: { $0 != nil }) {
            return super.dataTask(with: request, completionHandler: completionHandler)
        }
        let call = (Thread.current.threadDictionary[Self.callKey] as? NSNumber)?.intValue
        let task = DataTask(request: request, session: self, identifier: nextIdentifier(), call: call, handler: completionHandler)
        if tracksTasks {
            madeLock.lock()
            made.append(Made(task))
            madeLock.unlock()
        }
        return task
    }

    /// Each task's `taskIdentifier`, unique in this session as a real session's are: a URLSessionDataTask made by a
    /// subclass's own init has 0, and a service that keys its tasks by taskIdentifier (Netable does) would find every
    /// call under one key. Counted from 1 000 000, apart from those of the session's own tasks (see `dataTask`).
    private var identifiers = 1_000_000
    private func nextIdentifier() -> Int {
        madeLock.lock()
        defer { madeLock.unlock() }
        identifiers += 1
        return identifiers
    }

    /// A task this session made, held weakly: gone once nothing (the service, an answer on its way) holds it.
    struct Made {
        weak var task: DataTask?
        init(_ task: DataTask) { self.task = task }
        var isGone: Bool { task == nil }
    }
    private let madeLock = NSLock()
    private var made: [Made] = []
    /// Set before the first call (callFromManyThreads leaves it off: its threads should meet in the service only).
    var tracksTasks = false
    /// Answer inside `resume()`, before it returns (as a session may, when the answer is already there): the handler
    /// runs on the answers queue at once, and `resume()` waits for it (at most 0.2 s: a `resume()` called under the
    /// service's own lock must not wait for a handler that needs that lock). Set before the first call.
    var answersAtOnce = false
    /// Run a cancelled task's handler (with URLError.cancelled) before `cancel()` returns, as a session may: the handler
    /// runs on the answers queue at once, and `cancel()` waits for it (at most 0.2 s, as `answersAtOnce` does). Set
    /// before the first call.
    var cancelsAtOnce = false

    /// Runs `work` on the answers queue and waits for it, at most 0.2 s: a `resume()` or `cancel()` called under the
    /// service's own lock must not wait for a handler that needs that lock.
    func runOnAnswersAndWait(_ work: @escaping () -> Void) {
        let ran = DispatchSemaphore(value: 0)
        answers.async {
            work()
            ran.signal()
        }
        _ = ran.wait(timeout: .now() + 0.2)
    }
    private var status = 200
    /// The status of the answers from now on: 200 with `[]`, or this status with ChatCave's `{"error": …}`.
    var answerStatus: Int {
        get { madeLock.lock(); defer { madeLock.unlock() }; return status }
        set { madeLock.lock(); status = newValue; madeLock.unlock() }
    }
    private var cancelReturned: ((Int) -> Bool)?
    private var late: [Int] = []
    /// A new round of `callFromManyThreads`: `cancelReturned(call)` says whether cancelRequest has returned for that
    /// call's number.
    func startRound(cancelReturned: @escaping (Int) -> Bool) {
        madeLock.lock()
        self.cancelReturned = cancelReturned
        late = []
        madeLock.unlock()
    }
    /// The numbers of this round's calls whose answer came after cancelRequest had returned for them, while their task
    /// had not been cancelled.
    var answersAfterCancelReturned: [Int] {
        madeLock.lock()
        defer { madeLock.unlock() }
        return late
    }
    fileprivate func answering(call: Int?, taskCancelled: Bool) {
        guard let call = call, !taskCancelled else { return }
        madeLock.lock()
        defer { madeLock.unlock() }
        if cancelReturned?(call) == true { late.append(call) }
    }

    /// How long after `resume()` an answer comes (`latency` unless a test sets it).
    var answerLatency: TimeInterval {
        get { madeLock.lock(); defer { madeLock.unlock() }; return slowness }
        set { madeLock.lock(); slowness = newValue; madeLock.unlock() }
    }
    private var slowness = ThreadsSession.latency
    private var suspendedOnly: Set<Int> = []
    /// Tasks whose `suspend()` was called and whose `cancel()` never was: paused, not stopped.
    var suspendedNotCancelled: Int {
        madeLock.lock()
        defer { madeLock.unlock() }
        return suspendedOnly.count
    }
    fileprivate func suspending(_ identifier: Int, cancelled: Bool) {
        madeLock.lock()
        defer { madeLock.unlock() }
        if cancelled { suspendedOnly.remove(identifier) } else { suspendedOnly.insert(identifier) }
    }

    /// Every data task this session made (not the emulator's) while `tracksTasks`, weakly.
    var tasksMade: [Made] {
        madeLock.lock()
        defer { madeLock.unlock() }
        return made
    }

    final class DataTask: URLSessionDataTask, @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable (Data?, URLResponse?, Error?) -> Void)?
        private let request: URLRequest
        private let owner: ThreadsSession
        private let identifier: Int
        /// The number of the `callFromManyThreads` call that made it, when one did.
        private let call: Int?
        private var cancelled = false

        init(request: URLRequest, session: ThreadsSession, identifier: Int, call: Int?,
             handler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void) {
            self.request = request
            self.owner = session
            self.identifier = identifier
            self.call = call
            self.handler = handler
            super.init()
        }

        override var taskIdentifier: Int { identifier }

        /// The handler, once: nil after the first take.
        private func take() -> (@Sendable (Data?, URLResponse?, Error?) -> Void)? {
            lock.lock()
            defer { lock.unlock() }
            let handler = self.handler
            self.handler = nil
            return handler
        }

        override func resume() {
            let url = request.url ?? URL(fileURLWithPath: "/")
            let status = owner.answerStatus
            let answer = { [self] in
                let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                               headerFields: ["Content-Type": "application/json"])
                let body = status == 200 ? "[]" : "{\"error\": \"the chat server is down\"}"
                guard let handler = take() else { return }
                lock.lock()
                let cancelled = self.cancelled
                lock.unlock()
                owner.answering(call: call, taskCancelled: cancelled)
                handler(Data(body.utf8), response, nil)
            }
            guard owner.answersAtOnce else {
                return owner.answers.asyncAfter(deadline: .now() + owner.answerLatency, execute: answer)
            }
            owner.runOnAnswersAndWait(answer)
        }

        override func suspend() {
            owner.suspending(identifier, cancelled: false)
        }

        override func cancel() {
            lock.lock()
            cancelled = true
            lock.unlock()
            owner.suspending(identifier, cancelled: true)
            guard owner.cancelsAtOnce else {
                return owner.answers.async { [self] in take()?(nil, nil, URLError(.cancelled)) }
            }
            owner.runOnAnswersAndWait { [self] in take()?(nil, nil, URLError(.cancelled)) }
        }
    }
}

/// Set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
