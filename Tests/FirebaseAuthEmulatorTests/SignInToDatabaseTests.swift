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
}
