import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// Lesson 9's tests share this: the Auth emulator and the database emulator under the forum's rules
/// (Fixtures/lesson9/forum.rules.json), each on its own clock the tests move by hand (no test waits for a token to
/// expire), a `ForumSession` pointed at both through one session, and the calls, bounded in time and in requests.
/// The checks and words of each exercise are in Lesson9TestCase+Checks.swift.
class Lesson9TestCase: LabTestCase {
    static let signUp = Exercise("signUp(email:password:)", section: "9.2")
    static let signIn = Exercise("signIn(email:password:)", section: "9.3")
    static let database = Exercise("database(_:_:body:)", section: "9.4")
    static let signOut = Exercise("signOut()", section: "9.5")
    static let listen = Exercise("listen(_:onEvent:)", section: "9.6")

    static let apiKey = "lab-api-key"
    /// Ada's password has a space, quotes and a backslash, as real passwords do: a body built by string
    /// interpolation is no JSON with it.
    static let adaEmail = "ada@example.com", adaPassword = #"analytical "engine" \1843"#
    static let benEmail = "ben@example.com", benPassword = "difference-engine"
    /// An ID token lives an hour; this is past its end.
    static let pastExpiry: TimeInterval = 3601
    /// A call that sends more than this many requests is looping: the test stops it and says so.
    static let requestLimit = 8

    var authClock: TestClock!
    var databaseClock: TestClock!
    var auth: FirebaseAuthEmulator!
    var firebase: FirebaseEmulator!
    var forum: ForumSession!
    /// The Auth requests of the setup (accounts, Ada's sign-in), kept when the log is cleared: their tokens keep their names.
    var setupAuthRequests: [RecordedRequest] = []
    /// The error the last call through `run` threw (nil when it returned): what it sent nothing for, in messages.
    var lastFailure: Error?

    override func setUpWithError() throws {
        try super.setUpWithError()
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let authClock = TestClock(start: start), databaseClock = TestClock(start: start)
        (self.authClock, self.databaseClock) = (authClock, databaseClock)
        auth = FirebaseAuthEmulator(clock: { authClock.now })
        firebase = FirebaseEmulator(clock: { databaseClock.now })
        let rules = String(decoding: try Fixtures.data("lesson9/forum.rules.json"), as: UTF8.self)
        try firebase.setRules(rules)
        // One session reaches both emulators: the kit's URLProtocol finds an emulator by the request's host.
        forum = ForumSession(databaseURL: firebase.baseURL, identityToolkitURL: auth.identityToolkitURL,
                             secureTokenURL: auth.secureTokenURL, apiKey: Self.apiKey, session: firebase.session)
    }

    override func tearDown() {
        auth?.invalidate()
        firebase?.invalidate()
        super.tearDown()
    }

    /// Lets an hour and a second pass on both services: every ID token issued so far has expired.
    func letTheTokenExpire() {
        authClock.advance(Self.pastExpiry)
        databaseClock.advance(Self.pastExpiry)
    }

    // MARK: Accounts made without learner code

    /// Creates an account on the Auth emulator directly (not through the learner's code); returns its user id.
    @discardableResult
    func makeAccount(_ email: String, _ password: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        var request = URLRequest(url: URL(string: auth.identityToolkitURL.absoluteString + "accounts:signUp?key=setup")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": email, "password": password, "returnSecureToken": true])
        guard let uid = auth.handle(request).bodyJSON?["localId"].stringValue else {
            throw fail("setup: the Auth emulator did not create \(email)", file: file, line: line)
        }
        setupAuthRequests += auth.requests
        auth.clearRequests()
        return uid
    }

    /// Deletes the account on the Auth emulator directly, as an admin would: its refresh token stops working.
    func deleteAccount(idToken: String) {
        var request = URLRequest(url: URL(string: auth.identityToolkitURL.absoluteString + "accounts:delete?key=setup")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"idToken":"\#(idToken)"}"#.utf8)
        _ = auth.handle(request)
        setupAuthRequests += auth.requests
        auth.clearRequests()
    }

    /// Ada's account, signed in with the learner's `signIn` (§9.3): setup for the tests of §9.4 and §9.5.
    @discardableResult
    func signedInAsAda(for exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> Credentials {
        try makeAccount(Self.adaEmail, Self.adaPassword, file: file, line: line)
        let outcome = try signIn(file: file, line: line)
        guard case .success(let credentials) = outcome, forum.credentials == credentials else {
            let what = outcome.map { "returned \($0) but kept \(forum.credentials.map { "\($0)" } ?? "nil")" }
            throw fail("""
                setup: \(exercise.function)'s tests sign in first with your signIn(email:password:), which \
                \((try? what.get()) ?? "threw \(Self.describe(outcome.error))"). Its own tests say what is wrong: fix \
                §9.3 first. See \(exercise.reference).
                """, file: file, line: line)
        }
        setupAuthRequests += auth.requests
        auth.clearRequests()
        firebase.clearRequests()
        return credentials
    }

    // MARK: Calling the learner's async functions

    /// `signUp(email:password:)`'s outcome (Ada's email and password unless told).
    /// `settle`: after a success, give credentials kept a moment later (a `Task { }`, `DispatchQueue.main.async`) up to
    /// 0.2 s to arrive, so that mistake is named once, by the keeps-the-credentials tests (which pass false), and the
    /// tests after them see the same thing every run, not whichever side of that race they land on.
    func signUp(_ email: String = Lesson9TestCase.adaEmail, _ password: String = Lesson9TestCase.adaPassword,
                settle: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Credentials, Error> {
        let forum = self.forum!
        let outcome = try run(Self.signUp, file: file, line: line) { try await forum.signUp(email: email, password: password) }
        return settle ? settled(outcome) : outcome
    }

    /// `signIn(email:password:)`'s outcome (Ada's email and password unless told).
    func signIn(_ email: String = Lesson9TestCase.adaEmail, _ password: String = Lesson9TestCase.adaPassword,
                settle: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Credentials, Error> {
        let forum = self.forum!
        let outcome = try run(Self.signIn, file: file, line: line) { try await forum.signIn(email: email, password: password) }
        return settle ? settled(outcome) : outcome
    }

    /// Credentials that never came once (not kept at all): no later call of this run waits for them again.
    static let keptNever = Box<Bool>()

    /// `outcome`, once `credentials` holds what it returned, or 0.2 s have passed (see `signUp`'s `settle`).
    func settled(_ outcome: Result<Credentials, Error>) -> Result<Credentials, Error> {
        guard case .success(let returned) = outcome, forum.credentials != returned, Self.keptNever.get() != true else {
            return outcome
        }
        waitUntil(0.2) { self.forum.credentials == returned }
        if forum.credentials != returned { Self.keptNever.set(true) }
        return outcome
    }

    /// Runs `body` in a task of its own and waits until it returns or throws: at most 2 s, and never while it sends
    /// more than `requestLimit` requests (a loop). Stops the test, saying which, when it does not end.
    func run<T>(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                _ body: @escaping () async throws -> T) throws -> Result<T, Error> {
        let box = Box<Result<T, Error>>()
        let sentBefore = requestCount + Self.requestsThroughSharedSession.count
        let countBefore = requestCount  // the limit is per call: a test that makes several calls is no loop
        let started = Box<Bool>()
        let task = Self.startCall {
            started.set(true)
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
        }
        let deadline = Date(timeIntervalSinceNow: CompletionTimeouts.normal)
        // After a call has hung for good, a call that has not even started in half a second never will (its threads
        // are blocked): say so without waiting the whole timeout, test after test.
        let starvedBy = Self.firstHang.get().map { _ in Date(timeIntervalSinceNow: 0.5) }
        var looping = false
        while box.get() == nil && Date() < deadline {
            if requestCount - countBefore > Self.requestLimit { looping = true; break }
            if let starved = starvedBy, started.get() == nil, Date() > starved { break }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        try stopIfAStubRan(file: file, line: line)
        if let wrongPlace = wrongPlace(exercise) {
            if looping { stopTheLoop(until: { box.get() != nil }) }
            throw fail(wrongPlace, file: file, line: line)
        }
        if looping {
            let traffic = "\(databaseTraffic); \(refreshTraffic)"
            let reference = exercise.section == "9.4" ? exercise.reference : "LESSONS.md §9.4 and \(exercise.reference)"
            let why = needlessRefresh ?? """
                After one refresh and one retry, a request that is still refused is an error (.signInExpired): retrying \
                again can only fail again, forever.
                """
            let message = "\(exercise.function) kept sending requests and was still going. \(why) What it sent: \(traffic). See \(reference)."
            stopTheLoop(until: { box.get() != nil })
            throw fail(message, file: file, line: line)
        }
        guard let outcome = box.get() else {
            task.cancel()
            let test = name
            if started.get() == nil, let (earlier, why) = Self.firstHang.get(), earlier != test {
                let cause = why ?? "a lock held across an `await`, a DispatchSemaphore.wait() or another blocking wait in async code"
                throw fail("""
                    \(exercise.function) never started: no thread was free to run async code. A call in an earlier test \
                    (\(earlier)) hung and left its thread blocked for good: \(cause). Fix that test first. See \(exercise.reference).
                    """, file: file, line: line)
            }
            // Whether the state's guard is held for good: reading `credentials` (on a thread of its own) never ends.
            let locked = credentialsCannotBeRead()
            let refreshAnswered = refreshRequests.last.map { (200...299).contains($0.response.statusCode) } ?? false
            let waitsFor = refreshAnswered
                ? ": the refresh was answered (200), and to keep its tokens it waits for the lock that the request waiting for it holds"
                : ", while the code it waits for needs the same lock"
            let stuckOnTheLock = !locked ? "" : """
                 Even reading `credentials` waits for ever: the lock that guards your state is held and never let go. \
                That is a lock held across an `await` (lock() before it, unlock() in a defer)\(waitsFor). Take the lock \
                only to read or write the state, never around an `await`.
                """
            if Self.firstHang.get() == nil {
                Self.firstHang.set((test, locked ? "a lock held across an `await` (reading `credentials` waited for ever)" : nil))
            }
            throw fail("""
                \(exercise.function) neither returned nor threw within \(Int(CompletionTimeouts.normal)) s (\(databaseTraffic); \
                \(authTraffic)).\(sentBefore == requestCount + Self.requestsThroughSharedSession.count ? Self.nothingSent : "")\(stuckOnTheLock) \
                With `session.data(for:)` nothing can hang; a continuation must be resumed once on every path; a request \
                waiting for a refresh must get its outcome, success or failure; and nothing in async code may block its \
                thread while it waits: a lock held across an `await` (or taken again inside it), or a DispatchSemaphore.wait(), \
                never lets go. See \(exercise.reference).
                """, file: file, line: line)
        }
        lastFailure = outcome.error
        return outcome
    }

    /// Starts `body`, a call of the learner's code, in a detached task whose work runs on a serial queue of its own
    /// (a task executor preference, Swift 6 and later), not on the few threads of the shared pool: a call that
    /// blocks its thread for good (a lock held across an `await`) then leaves the calls of later tests in this
    /// process threads to run on, and each is graded on its own code, not failed as "never started". Tasks the
    /// learner's code starts itself (`Task { }`) still run on the shared pool.
    @discardableResult
    static func startCall(_ body: @escaping () async -> Void) -> Task<Void, Never> {
        #if compiler(>=6.0)
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            return Task.detached(executorPreference: CallExecutor()) { await body() }
        }
        #endif
        return Task.detached { await body() }
    }

    /// The first test in this process whose call hung (class/test), and what held it when that is known: a later
    /// call that never even starts was left no thread by it.
    static let firstHang = Box<(test: String, why: String?)>()

    /// Whether reading `forum.credentials` is still blocked 0.3 s after it was asked for, on a thread of its own (the
    /// test's thread must not wait on the learner's lock): a guard held for good. That thread is left blocked.
    func credentialsCannotBeRead() -> Bool {
        let forum = self.forum!, read = Box<Bool>()
        Thread { _ = forum.credentials; read.set(true) }.start()
        waitUntil(0.3) { read.get() != nil }
        return read.get() == nil
    }

    /// Why a call that hangs sent nothing at all.
    static let nothingSent = """
         Nothing was sent: a data task made with `dataTask(with:)` starts only when you call `resume()` on it \
        (`session.dataTask(with: request) { … }.resume()`).
        """

    /// Ends a looping call the way a lost connection would, rather than by cancelling its task: tasks cancelled by
    /// the hundred while the emulators answer can stop corelibs' URLSession (see EmulatorURLProtocol). Every later
    /// request fails, so a loop over expired answers ends with a transport error; waits up to 1 s for it.
    private func stopTheLoop(until ended: () -> Bool) {
        for _ in 0..<200 {
            firebase.inject(.transportError(.networkConnectionLost))
            auth.inject(.transportError(.networkConnectionLost))
        }
        let deadline = Date(timeIntervalSinceNow: 1)
        while !ended() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005)) }
    }

    /// Runs `body` while a task blocks each thread of the shared pool — one pool per priority, as many threads each
    /// as the machine has cores (Linux) — so that no `Task { }` that `body` starts can run before it ends; then lets
    /// them go.
    /// Whether `body`, run on a thread of its own, ended within `seconds` (it is waited for 2 s more once the pool is
    /// let go, so that it ends within the test).
    static func whileTheSharedPoolIsBusy(for seconds: TimeInterval = 1, _ body: @escaping () -> Void) -> Bool {
        let priorities: [TaskPriority] = [.high, .medium, .low, .background]
        let threads = ProcessInfo.processInfo.activeProcessorCount * priorities.count
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        for priority in priorities {
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                Task.detached(priority: priority) {
                    started.signal()
                    release.wait()
                }
            }
        }
        // They start within milliseconds; a loaded machine gets a second (a pool blocked for good: never).
        let deadline = DispatchTime.now() + 1
        for _ in 0..<threads where started.wait(timeout: deadline) == .timedOut { break }
        let done = Box<Bool>()
        Thread { body(); done.set(true) }.start()
        let bodyDeadline = Date(timeIntervalSinceNow: seconds)
        while done.get() == nil && Date() < bodyDeadline { usleep(200) }
        let inTime = done.get() != nil
        for _ in 0..<threads { release.signal() }
        let lateDeadline = Date(timeIntervalSinceNow: 2)
        while done.get() == nil && Date() < lateDeadline { usleep(1000) }
        return inTime
    }

    /// A call's outcome and `credentials` as they were the moment it returned, read in the call's own task while every
    /// thread of the shared pool is blocked (the call runs on an executor of its own, Swift 6 and later): credentials
    /// kept by a `Task { }` of its own are not there yet, every run, not only when the scheduler happens to be slow.
    /// `keptReadBlocked`: the call returned, but reading `credentials` did not end while the pool was busy (a read that
    /// waits for a Task). Nil before Swift 6, or when the call had not ended 2 s after the pool was let go.
    func outcomeWhileThePoolIsBusy(_ call: @escaping () async throws -> Credentials)
        -> (outcome: Result<Credentials, Error>, kept: Credentials?, keptReadBlocked: Bool)? {
        #if compiler(>=6.0)
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            let forum = self.forum!
            let returned = Box<(Result<Credentials, Error>, Date)>(), kept = Box<Credentials?>()
            let finished = DispatchSemaphore(value: 0)
            let busyUntil = Box<Date>()
            _ = Self.whileTheSharedPoolIsBusy(for: 2.5) {
                Self.startCall {
                    let outcome: Result<Credentials, Error>
                    do { outcome = .success(try await call()) } catch { outcome = .failure(error) }
                    returned.set((outcome, Date()))
                    kept.set(forum.credentials)
                    finished.signal()
                }
                _ = finished.wait(timeout: .now() + 2)
                busyUntil.set(Date())
            }
            waitUntil(2) { kept.get() != nil }
            guard let (outcome, at) = returned.get() else { return nil }
            // Returned well before the busy time was over, yet `finished` only came when it was: the read waited for the pool.
            let blocked = kept.get() == nil || busyUntil.get().map { at < $0.addingTimeInterval(-1) } == true
            return (outcome, kept.get() ?? nil, blocked)
        }
        #endif
        return nil
    }

    /// `call` — `function` (signUp or signIn) — run while the pool is busy (`outcomeWhileThePoolIsBusy`). Stops the
    /// test when reading `credentials` waited for a Task, or when the credentials were kept only later, by a `Task { }`.
    /// The call's outcome, or nil where the pool cannot be kept busy (the caller then makes the call as usual).
    func outcomeKeptOnReturn(of function: String, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                             _ call: @escaping () async throws -> Credentials) throws -> Result<Credentials, Error>? {
        let forum = self.forum!
        let early = outcomeWhileThePoolIsBusy(call)
        try stopIfAStubRan(file: file, line: line)
        guard let early = early else { return nil }
        if early.keptReadBlocked {
            throw fail("""
                \(function) returned, and reading `credentials` right after it waited for as long as the threads that \
                run tasks were busy: it waits for a Task (a DispatchSemaphore, or another blocking wait, for async work). \
                `credentials` is synchronous: read the state under your lock, without waiting for a Task; with every \
                thread of the pool busy, such a wait never ends. See \(exercise.reference).
                """, file: file, line: line)
        }
        if case .success(let returned) = early.outcome, early.kept == nil {
            waitUntil(0.5) { forum.credentials != nil }
            if forum.credentials == returned {
                throw fail("""
                    When \(function) returned \(returned), `credentials` was still nil: they were kept only later, by a \
                    `Task { }` of its own or a `DispatchQueue.main.async { }` (which runs after the caller's turn, not \
                    before the call returns). Keep them before returning (under your lock, in the function itself): a request \
                    made right after \(function) returns must find them. See \(exercise.reference).
                    """, file: file, line: line)
            }
        }
        return early.outcome
    }

    /// Where the requests went wrong, in Lesson 9's words: a `ForumSession` has three URLs, not a `baseURL`, and
    /// each has a static default that names the real service (`Self.identityToolkitURL` is not the instance's).
    func wrongPlace(_ exercise: Exercise) -> String? {
        let traffic = TrafficReport(firebase)
        guard traffic.viaOtherSession.isEmpty, let request = traffic.toOtherHost.first, request.url.host != nil else {
            return traffic.wrongPlace(exercise, baseURL: firebase.baseURL)
        }
        return """
            \(exercise.function) sent \(request.method) \(request.url.absoluteString), to none of the three URLs this \
            ForumSession was given: `databaseURL` (\(firebase.baseURL.absoluteString)), `identityToolkitURL` \
            (\(auth.identityToolkitURL.absoluteString)) and `secureTokenURL` (\(auth.secureTokenURL.absoluteString)). \
            Build every URL from the instance's own property (`identityToolkitURL` inside ForumSession's methods), not \
            from `Self.identityToolkitURL` or `ForumSession.firebaseURL`: those are the static defaults, the real \
            services. See \(exercise.reference).
            """
    }

    /// Runs the run loop until `done` or `seconds` have passed.
    func waitUntil(_ seconds: TimeInterval, _ done: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !done() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005)) }
    }

    /// Requests to either emulator so far.
    var requestCount: Int { auth.requests.count + firebase.requests.count }
}

#if compiler(>=6.0)
/// Runs one call's jobs on a serial dispatch queue of its own (`Lesson9TestCase.startCall`). A serial queue gets a
/// thread of its own when it needs one, so a job that never ends blocks that queue only.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class CallExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "lesson9.call")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif

/// A clock the tests move by hand, read from any thread. It starts at the real time, as a real server's clock agrees
/// with the device's: a client that also refreshes ahead of time, reading the ID token's `exp` against `Date()`, then
/// sees tokens issued now (a fixed date in the past would make every token look expired to it).
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    /// `start`: now, to the whole second; the two services' clocks start from one value, so they agree to the second.
    init(start: Date) { current = start }
    var now: Date { lock.lock(); defer { lock.unlock() }; return current }
    func advance(_ seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
}

extension Result {
    /// The error of a failure; nil for a success.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
