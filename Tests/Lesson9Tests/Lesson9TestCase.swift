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
    func signUp(_ email: String = Lesson9TestCase.adaEmail, _ password: String = Lesson9TestCase.adaPassword,
                file: StaticString = #filePath, line: UInt = #line) throws -> Result<Credentials, Error> {
        let forum = self.forum!
        return try run(Self.signUp, file: file, line: line) { try await forum.signUp(email: email, password: password) }
    }

    /// `signIn(email:password:)`'s outcome (Ada's email and password unless told).
    func signIn(_ email: String = Lesson9TestCase.adaEmail, _ password: String = Lesson9TestCase.adaPassword,
                file: StaticString = #filePath, line: UInt = #line) throws -> Result<Credentials, Error> {
        let forum = self.forum!
        return try run(Self.signIn, file: file, line: line) { try await forum.signIn(email: email, password: password) }
    }

    /// Runs `body` in a task of its own and waits until it returns or throws: at most 2 s, and never while it sends
    /// more than `requestLimit` requests (a loop). Stops the test, saying which, when it does not end.
    func run<T>(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                _ body: @escaping () async throws -> T) throws -> Result<T, Error> {
        let box = Box<Result<T, Error>>()
        let sentBefore = requestCount + Self.requestsThroughSharedSession.count
        let started = Box<Bool>()
        let task = Task.detached {
            started.set(true)
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
        }
        let deadline = Date(timeIntervalSinceNow: CompletionTimeouts.normal)
        var looping = false
        while box.get() == nil && Date() < deadline {
            if requestCount > Self.requestLimit { looping = true; break }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        try stopIfAStubRan(file: file, line: line)
        if let wrongPlace = TrafficReport(firebase).wrongPlace(exercise, baseURL: firebase.baseURL) {
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
            if started.get() == nil, let earlier = Self.firstHang.get(), earlier != test {
                throw fail("""
                    \(exercise.function) never started within \(Int(CompletionTimeouts.normal)) s: no thread was free to run \
                    async code. A call in an earlier test (\(earlier)) hung and left its thread blocked for good: a lock held \
                    across an `await`, a DispatchSemaphore.wait() or another blocking wait in async code. Fix that test \
                    first. See \(exercise.reference).
                    """, file: file, line: line)
            }
            if Self.firstHang.get() == nil { Self.firstHang.set(test) }
            throw fail("""
                \(exercise.function) neither returned nor threw within \(Int(CompletionTimeouts.normal)) s (\(databaseTraffic); \
                \(authTraffic)).\(sentBefore == requestCount + Self.requestsThroughSharedSession.count ? Self.nothingSent : "") \
                With `session.data(for:)` nothing can hang; a continuation must be resumed once on every path; a request \
                waiting for a refresh must get its outcome, success or failure; and nothing in async code may block its \
                thread while it waits: a lock held across an `await` (or taken again inside it), or a DispatchSemaphore.wait(), \
                never lets go. See \(exercise.reference).
                """, file: file, line: line)
        }
        lastFailure = outcome.error
        return outcome
    }

    /// The first test in this process whose call hung (class/test): a later call that never even starts was
    /// left no thread by it.
    static let firstHang = Box<String>()

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

    /// Runs the run loop until `done` or `seconds` have passed.
    func waitUntil(_ seconds: TimeInterval, _ done: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !done() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005)) }
    }

    /// Requests to either emulator so far.
    var requestCount: Int { auth.requests.count + firebase.requests.count }
}

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
