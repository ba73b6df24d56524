import XCTest
import FirebaseAuthEmulator
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The two emulators together: the Auth emulator's ID token, sent as `auth=`, is the user the database's rules see.
final class SignInToDatabaseTests: XCTestCase {
    func test_theAuthEmulatorsToken_isAuthUIDInTheRules() throws {
        let auth = FirebaseAuthEmulator()
        let created = try signUp(on: auth)
        let uid = try XCTUnwrap(created["localId"].stringValue)
        let token = try XCTUnwrap(created["idToken"].stringValue)
        let database = FirebaseEmulator()
        try database.setRules(#"{"rules": {"users": {"$uid": {".write": "auth.uid === $uid && auth.token.email === 'ada@example.com'"}}}}"#)
        var put = URLRequest(url: URL(string: database.baseURL.absoluteString + "users/\(uid)/name.json?auth=\(token)")!)
        put.httpMethod = "PUT"
        put.httpBody = Data(#""Ada""#.utf8)
        XCTAssertEqual(database.handle(put).statusCode, 200,
                       "Expected the signed-up user to write below /users/<their localId>. See \(AuthDocs.signUp) and https://firebase.google.com/docs/database/rest/auth")
    }

    func test_aShortLivedToken_expiresOnTheDatabase_andARefreshedOneWorks() throws {
        let clock = TestClock()
        let auth = FirebaseAuthEmulator(tokenLifetime: 5, clock: { clock.now })
        let database = FirebaseEmulator(clock: { clock.now })
        try database.setRules(#"{"rules": {".read": "auth != null"}}"#)
        let created = try signUp(on: auth)
        func read(with token: String) -> EmulatorResponse {
            database.handle(URLRequest(url: URL(string: database.baseURL.absoluteString + ".json?auth=\(token)")!))
        }
        let token = try XCTUnwrap(created["idToken"].stringValue)
        XCTAssertEqual(read(with: token).statusCode, 200, "setup: expected the fresh token to read")
        clock.advance(6)
        let expired = read(with: token)
        XCTAssertEqual(expired.statusCode, 401, "Expected the token refused 6 s into a 5 s lifetime. See https://firebase.google.com/docs/database/rest/auth")
        XCTAssertEqual(expired.bodyJSON, ["error": "Auth token is expired"], "Expected Firebase's text for an expired token")
        let refreshed = post("token", json: ["grant_type": "refresh_token", "refresh_token": created["refreshToken"]], to: auth)
        let fresh = try XCTUnwrap(refreshed.bodyJSON?["id_token"].stringValue, "setup: refresh failed: \(refreshed.bodyText ?? "")")
        XCTAssertEqual(read(with: fresh).statusCode, 200, "Expected the refreshed token to read again. See \(AuthDocs.refresh)")
    }
}
