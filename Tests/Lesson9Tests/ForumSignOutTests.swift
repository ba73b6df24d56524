import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.5: `signOut()` forgets the credentials: nothing more is sent as that user.
final class ForumSignOutTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.signOut

    /// Calls `signOut()` and gives a request it sends from a task of its own (there should be none) 0.3 s to arrive,
    /// so that it is seen in this test, not in the next one's setup.
    private func signOut() throws {
        forum.signOut()
        try stopIfAStubRan()
        let before = requestCount
        waitUntil(0.3) { requestCount > before }
    }

    func test_signOut_forgetsTheCredentials() throws {
        try signedInAsAda(for: exercise)
        try signOut()
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
        Self.startCall {
            do { ended.set(.success(try await forum.database("GET", "users/\(uid)"))) } catch { ended.set(.failure(error)) }
        }
        waitUntil(CompletionTimeouts.normal) { !refreshRequests.isEmpty || ended.get() != nil }
        try stopIfAStubRan()
        guard !refreshRequests.isEmpty else {
            throw fail("setup: after 401 \"Auth token is expired\" database sent no refresh (\(databaseTraffic)). The tests of §9.4 say what is wrong: fix them first. See LESSONS.md §9.4.")
        }
        forum.signOut()
        try stopIfAStubRan()
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
}
