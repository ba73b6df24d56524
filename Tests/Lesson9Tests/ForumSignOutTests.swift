import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.5: `signOut()` forgets the credentials: nothing more is sent as that user.
final class ForumSignOutTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.signOut

    /// What `credentials` held the moment `signOut()` returned.
    private var heldWhenSignOutReturned: Credentials?

    /// Calls `signOut()` and gives a request it sends from a task of its own (there should be none) 0.3 s to arrive,
    /// so that it is seen in this test, not in the next one's setup. `credentials` is read as soon as it returns,
    /// while every thread of the shared pool is kept busy: a sign-out left to a `Task { }` has not happened yet,
    /// every run, not only when the scheduler happens to be slow.
    private func signOut() throws {
        let forum = self.forum!
        let held = Box<Credentials?>()
        let returned = Self.whileTheSharedPoolIsBusy {
            forum.signOut()
            held.set(forum.credentials)
        }
        try stopIfAStubRan()
        guard returned else {
            throw fail("""
                signOut(), or reading `credentials` right after it, had not returned 1 s later, while the threads that \
                run tasks were busy: it waits for async work — a DispatchSemaphore (or another blocking wait) for a \
                Task. Both are synchronous: forget the credentials (and read them) right there, under your lock, \
                without waiting for a Task; with every thread of the pool busy, such a wait never ends. See \(exercise.reference).
                """)
        }
        heldWhenSignOutReturned = held.get() ?? nil
        let before = requestCount
        waitUntil(0.3) { requestCount > before }
    }

    func test_signOut_forgetsTheCredentials() throws {
        try signedInAsAda(for: exercise)
        try signOut()
        if let held = heldWhenSignOutReturned, forum.credentials == nil {
            throw fail("""
                When signOut() returned, `credentials` still held \(held); they were forgotten only later. signOut \
                forgets them before it returns (not in a Task { } of its own): a database request made right after it \
                must already throw .notSignedIn. See \(exercise.reference).
                """)
        }
        XCTAssertNil(forum.credentials, "After signOut(), `credentials` is still \(forum.credentials.map { "\($0)" } ?? "nil"): forget the tokens (set what you keep to nil). See \(exercise.reference).")
    }

    func test_signOut_sendsNoRequest() throws {
        try signedInAsAda(for: exercise)
        try signOut()
        XCTAssertEqual(requestCount, 0, "signOut() sent requests (\(authTraffic); \(databaseTraffic)). Firebase's REST API has no sign-out: forgetting the tokens is signing out. See \(exercise.reference).")
    }

    func test_signOut_thenADatabaseRequest_throwsNotSignedIn() throws {
        let ada = try signedInAsAda(for: exercise)
        try signOut()
        let forum = self.forum!
        let outcome = try run(Self.database) { try await forum.database("GET", "users/\(ada.userID)") }
        XCTAssertTrue(firebase.requests.isEmpty, "After signOut(), database still sent \(databaseTraffic): the signed-out user's token must be gone. See \(exercise.reference).")
        try expectFailure(outcome, .notSignedIn, after: "Ada had signed out", exercise)
    }

    func test_signOut_duringARefresh_staysSignedOut() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()  // the next database request refreshes
        auth.holdResponses()  // the refresh stays under way until Ada has signed out
        let forum = self.forum!, uid = ada.userID, ended = Box<Result<Data, Error>>()
        defer {  // however the test ends, the call ends within it: a request sent after it would reach the next test
            auth.releaseHeldResponses()
            waitUntil(CompletionTimeouts.normal) { ended.get() != nil }
        }
        try startARefresh(ofUser: uid, into: ended)
        let signedOut = Box<Bool>()
        Thread { forum.signOut(); signedOut.set(true) }.start()  // a signOut that waits for the held refresh never returns
        waitUntil(1) { signedOut.get() != nil }
        try stopIfAStubRan()
        guard signedOut.get() != nil else {
            auth.releaseHeldResponses()
            waitUntil(CompletionTimeouts.normal) { signedOut.get() != nil }
            throw fail("""
                signOut() did not return while a refresh was under way (the test held its answer back for 1 s): it \
                waits for the refresh. Signing out cannot wait for the network (Secure Token may take a minute to \
                answer, or never): forget the credentials at once, and let the refresh, when it ends, see that the \
                credentials it replaces are gone and keep nothing. See \(exercise.reference) and LESSONS.md §9.4.
                """)
        }
        guard forum.credentials == nil else {
            throw fail("After signOut(), `credentials` is still \(forum.credentials.map { "\($0)" } ?? "nil"): forget the tokens. See \(exercise.reference).")
        }
        auth.releaseHeldResponses()
        waitUntil(CompletionTimeouts.normal) { ended.get() != nil }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        XCTAssertNil(forum.credentials, """
            Ada signed out while a refresh was under way, and when it ended `credentials` held \(forum.credentials.map { "\($0)" } ?? "nil"): \
            the refresh signed her back in. Keep a refresh's tokens only if the credentials it replaces are still the kept ones. \
            See LESSONS.md §9.4 and §9.5.
            """)
    }

    func test_signOut_duringARefresh_thenAnotherSignIn_keepsTheNewUser() throws {
        try signOutAndSignInBenDuringARefresh(refused: false)
    }

    func test_signOut_duringARefusedRefresh_thenAnotherSignIn_keepsTheNewUser() throws {
        try signOutAndSignInBenDuringARefresh(refused: true)
    }

    func test_signOut_duringARefresh_thenAnotherSignIn_hisNextExpiryRefreshesHisOwnToken() throws {
        try signOutAndSignInBenDuringARefresh(refused: false, thenBensTokenExpires: true)
    }

    /// Ada's refresh is held while she signs out and Ben signs in; then it ends: answered, or (`refused`, her account
    /// deleted) refused with INVALID_REFRESH_TOKEN. Either way, Ben stays signed in. `thenBensTokenExpires`: then
    /// Ben's token expires, and his next request gets a refresh of his own.
    private func signOutAndSignInBenDuringARefresh(refused: Bool, thenBensTokenExpires: Bool = false) throws {
        let ada = try signedInAsAda(for: exercise)
        try makeAccount(Self.benEmail, Self.benPassword)
        if refused { deleteAccount(idToken: ada.idToken) }  // her refresh token stops working
        letTheTokenExpire()  // Ada's next request refreshes
        auth.holdResponses()  // the refresh stays under way until Ada has signed out and Ben has signed in
        let forum = self.forum!, uid = ada.userID, ended = Box<Result<Data, Error>>()
        var releaseTheRefresh: () -> Void = {}
        defer {  // however the test ends, the call ends within it
            releaseTheRefresh()
            auth.releaseHeldResponses()
            waitUntil(CompletionTimeouts.normal) { ended.get() != nil }
        }
        try startARefresh(ofUser: uid, into: ended)
        let held = auth.holdOnlyTheResponsesSoFar()  // the refresh's answer waits; Ben's sign-in goes through
        releaseTheRefresh = { held.release() }
        let signedOut = Box<Bool>()
        Thread { forum.signOut(); signedOut.set(true) }.start()
        waitUntil(1) { signedOut.get() != nil }
        try stopIfAStubRan()
        guard signedOut.get() != nil, forum.credentials == nil else {
            throw fail("setup: signOut() during a refresh \(signedOut.get() == nil ? "did not return" : "left `credentials` set"). The test test_signOut_duringARefresh_staysSignedOut says what is wrong. See \(exercise.reference).")
        }
        let signedIn = try signIn(Self.benEmail, Self.benPassword)
        guard case .success(let ben) = signedIn, forum.credentials == ben else {
            throw fail("setup: Ben's sign-in while Ada's refresh was under way gave \(Self.describe(signedIn)), and `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"). Fix §9.3 first; a sign-in does not wait for a refresh.")
        }
        held.release()
        waitUntil(CompletionTimeouts.normal) { ended.get() != nil }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        let kept = forum.credentials
        if refused {
            XCTAssertEqual(kept, ben, """
                Ada signed out and Ben signed in while her refresh was under way; the refresh was then refused \
                (INVALID_REFRESH_TOKEN: her account is gone), and `credentials` became \(kept.map { "\($0)" } ?? "nil"): \
                Ada's dead refresh token signed Ben out. A refused refresh forgets the credentials only if they are still \
                the ones it refreshed (signedIn == the credentials it started from), as a successful one keeps its tokens \
                only then. See LESSONS.md §9.4 and \(exercise.reference).
                """)
            return
        }
        XCTAssertEqual(kept, ben, """
            Ada signed out and Ben signed in while her refresh was under way, and when the refresh ended `credentials` \
            held \(kept.map { $0.userID == ada.userID ? "Ada's refreshed tokens" : "\($0)" } ?? "nil"): the refresh \
            replaced Ben's sign-in. Keep a refresh's tokens only if the credentials it replaces are still the kept ones \
            (the same user and tokens it refreshed) — not whenever someone is signed in. See LESSONS.md §9.4 and \(exercise.reference).
            """)
        guard thenBensTokenExpires, kept == ben else { return }
        setupAuthRequests += auth.requests
        auth.clearRequests()
        firebase.clearRequests()
        letTheTokenExpire()
        let outcome = try run(Self.database) { try await forum.database("GET", "users/\(ben.userID)") }
        let retry = firebase.requests.dropFirst().first
        if refreshRequests.isEmpty, let retry = retry, retry.query["auth"] != ben.idToken {
            throw fail("""
                Ada signed out and Ben signed in while her refresh was under way; when Ben's token expired, database \
                sent the retry (\(brief(retry))) without refreshing Ben's token: it took the answer of Ada's refresh, \
                which had ended after she signed out and was never forgotten, and sent Ben's request with her token. \
                A refresh that ends is forgotten (refreshing = nil) whether or not it keeps its tokens. See LESSONS.md \
                §9.4 and \(exercise.reference).
                """)
        }
        try checkRefreshedOnce(outcome, what: "Ben's token expired (after Ada's refresh had ended while she was signed out)")
    }

    /// Starts `database("GET", "users/<uid>")` with the token expired and the Auth emulator holding its answers, and
    /// returns once it has sent its refresh; the call's result lands in `ended`.
    private func startARefresh(ofUser uid: String, into ended: Box<Result<Data, Error>>,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let forum = self.forum!
        Self.startCall {
            do { ended.set(.success(try await forum.database("GET", "users/\(uid)"))) } catch { ended.set(.failure(error)) }
        }
        waitUntil(CompletionTimeouts.normal) { !refreshRequests.isEmpty || ended.get() != nil }
        try stopIfAStubRan(file: file, line: line)
        guard !refreshRequests.isEmpty else {
            throw fail("setup: after 401 \"Auth token is expired\" database sent no refresh (\(databaseTraffic)). The tests of §9.4 say what is wrong: fix them first. See LESSONS.md §9.4.",
                       file: file, line: line)
        }
    }
}
