import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.5: `signOut()` forgets the credentials: nothing more is sent as that user.
final class ForumSignOutTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.signOut

    func test_signOut_forgetsTheCredentials() throws {
        try signedInAsAda(for: exercise)
        forum.signOut()
        try stopIfAStubRan()
        XCTAssertNil(forum.credentials, "After signOut(), `credentials` is still \(forum.credentials.map { "\($0)" } ?? "nil"): forget the tokens (set what you keep to nil). See \(exercise.reference).")
    }

    func test_signOut_sendsNoRequest() throws {
        try signedInAsAda(for: exercise)
        forum.signOut()
        try stopIfAStubRan()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        XCTAssertEqual(requestCount, 0, "signOut() sent requests (\(authTraffic); \(databaseTraffic)). Firebase's REST API has no sign-out: forgetting the tokens is signing out. See \(exercise.reference).")
    }

    func test_signOut_thenADatabaseRequest_throwsNotSignedIn() throws {
        let ada = try signedInAsAda(for: exercise)
        forum.signOut()
        try stopIfAStubRan()
        let forum = self.forum!
        let outcome = try run(Self.database) { try await forum.database("GET", "users/\(ada.userID)") }
        XCTAssertTrue(firebase.requests.isEmpty, "After signOut(), database still sent \(databaseTraffic): the signed-out user's token must be gone. See \(exercise.reference).")
        try expectFailure(outcome, .notSignedIn, after: "Ada had signed out", exercise)
    }
}
