import XCTest
import FirebaseAuthEmulator

/// `securetoken.googleapis.com/v1/token` (Firebase Auth REST API: "Exchange a refresh token for an ID token").
final class RefreshTests: XCTestCase {
    func test_refresh_withAForm_answersSnakeCaseFields() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        let refreshToken = try XCTUnwrap(created["refreshToken"].stringValue)
        let response = post("token", "grant_type=refresh_token&refresh_token=\(refreshToken)", to: emulator,
                            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        XCTAssertEqual(response.statusCode, 200, "Expected the refresh to succeed: \(response.bodyText ?? ""). See \(AuthDocs.refresh)")
        let body = try XCTUnwrap(response.bodyJSON)
        XCTAssertEqual(Set(body.objectValue?.keys.map { $0 } ?? []),
                       ["id_token", "access_token", "expires_in", "refresh_token", "token_type", "user_id", "project_id"],
                       "Expected exactly the emulator's fields. See \(AuthDocs.refresh)")
        XCTAssertEqual(body["token_type"], "Bearer", "See \(AuthDocs.refresh)")
        XCTAssertEqual(body["expires_in"], "3600", "See \(AuthDocs.refresh)")
        XCTAssertEqual(body["user_id"], created["localId"], "See \(AuthDocs.refresh)")
        XCTAssertEqual(body["project_id"], "12345", "Expected the emulator's fixed project number. See \(AuthDocs.emulator)")
        let claims = try XCTUnwrap(UnsignedJWT.decode(body["id_token"].stringValue ?? "")?.claims, "Expected id_token to be a JWT")
        XCTAssertEqual(claims["user_id"], created["localId"], "Expected a token of the same user. See \(AuthDocs.refresh)")
    }

    func test_refresh_withJSON_isAcceptedToo() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        let response = post("token", json: ["grant_type": "refresh_token", "refresh_token": created["refreshToken"]], to: emulator)
        XCTAssertEqual(response.statusCode, 200, "Expected a JSON body to work, as the emulator accepts it. See \(AuthDocs.emulator)")
    }

    func test_refresh_garbageToken_isINVALID_REFRESH_TOKEN() {
        let response = post("token", "grant_type=refresh_token&refresh_token=not-a-token", to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "INVALID_REFRESH_TOKEN", "See \(AuthDocs.refresh)")
    }

    func test_refresh_ofADeletedUser_isINVALID_REFRESH_TOKEN() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        _ = post("accounts:delete", json: ["idToken": created["idToken"]], to: emulator)
        let response = post("token", json: ["grant_type": "refresh_token", "refresh_token": created["refreshToken"]], to: emulator)
        XCTAssertEqual(errorMessage(response), "INVALID_REFRESH_TOKEN", "See \(AuthDocs.refresh)")
    }

    func test_refresh_wrongGrantType_isINVALID_GRANT_TYPE() {
        let response = post("token", "grant_type=password&refresh_token=x", to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "INVALID_GRANT_TYPE", "See \(AuthDocs.refresh)")
    }

    func test_refresh_noGrantType_isMISSING_GRANT_TYPE() {
        let response = post("token", "refresh_token=x", to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_GRANT_TYPE", "See \(AuthDocs.refresh)")
    }

    func test_refresh_noRefreshToken_isMISSING_REFRESH_TOKEN() {
        let response = post("token", "grant_type=refresh_token", to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_REFRESH_TOKEN", "See \(AuthDocs.refresh)")
    }
}
