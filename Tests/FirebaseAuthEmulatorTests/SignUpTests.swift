import XCTest
import FirebaseAuthEmulator

/// `accounts:signUp` (Firebase Auth REST API: "Sign up with email / password", "Sign in anonymously").
final class SignUpTests: XCTestCase {
    func test_signUp_answersTheNewUsersTokens() throws {
        let emulator = FirebaseAuthEmulator()
        let body = try signUp("Ada@Example.com", on: emulator)
        XCTAssertEqual(body["kind"], "identitytoolkit#SignupNewUserResponse", "Expected the emulator's kind. See \(AuthDocs.signUp)")
        XCTAssertEqual(body["email"], "ada@example.com", "Expected the email lower-cased, as the emulator stores it. See \(AuthDocs.signUp)")
        XCTAssertEqual(body["expiresIn"], "3600", "Expected expiresIn as a string of seconds. See \(AuthDocs.signUp)")
        XCTAssertEqual(body["localId"].stringValue?.count, 28, "Expected a 28-character localId. See \(AuthDocs.signUp)")
        XCTAssertNotNil(body["idToken"].stringValue, "Expected an idToken. See \(AuthDocs.signUp)")
        XCTAssertNotNil(body["refreshToken"].stringValue, "Expected a refreshToken. See \(AuthDocs.signUp)")
        XCTAssertEqual(emulator.users.map(\.email), ["ada@example.com"], "Expected the user stored. See \(AuthDocs.signUp)")
    }

    func test_signUp_bodyIsPrettyJSONWithTheEmulatorsKeyOrder() throws {
        let emulator = FirebaseAuthEmulator()
        let response = post("accounts:signUp", json: ["email": "a@b.c", "password": "secret1"], to: emulator)
        let text = try XCTUnwrap(response.bodyText)
        XCTAssertTrue(text.hasPrefix("{\n  \"kind\": \"identitytoolkit#SignupNewUserResponse\",\n  \"localId\": \""),
                      "Expected Express's json spaces 2 and the emulator's order, got \(text). See \(AuthDocs.emulator)")
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8", "Expected JSON. See \(AuthDocs.signUp)")
    }

    func test_signUp_existingEmail_isEMAIL_EXISTS_inGooglesErrorShape() throws {
        let emulator = FirebaseAuthEmulator()
        _ = try signUp(on: emulator)
        let response = post("accounts:signUp", json: ["email": "ADA@example.com", "password": "another1"], to: emulator)
        XCTAssertEqual(response.statusCode, 400, "Expected 400. See \(AuthDocs.signUp)")
        XCTAssertEqual(response.bodyJSON, ["error": ["code": 400, "message": "EMAIL_EXISTS",
                                                     "errors": [["message": "EMAIL_EXISTS", "reason": "invalid", "domain": "global"]]]],
                       "Expected the emulator's error body exactly. See \(AuthDocs.signUp)")
    }

    func test_signUp_shortPassword_isWEAK_PASSWORD() {
        let response = post("accounts:signUp", json: ["email": "a@b.c", "password": "12345"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "WEAK_PASSWORD : Password should be at least 6 characters",
                       "Expected the emulator's text. See \(AuthDocs.signUp)")
    }

    func test_signUp_emailWithoutAt_isINVALID_EMAIL() {
        let response = post("accounts:signUp", json: ["email": "ada.example.com", "password": "secret1"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "INVALID_EMAIL", "See \(AuthDocs.signUp)")
    }

    func test_signUp_passwordWithoutEmail_isMISSING_EMAIL() {
        let response = post("accounts:signUp", json: ["password": "secret1"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_EMAIL", "See \(AuthDocs.signUp)")
    }

    func test_signUp_emailWithoutPassword_isMISSING_PASSWORD() {
        let response = post("accounts:signUp", json: ["email": "a@b.c"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_PASSWORD", "See \(AuthDocs.signUp)")
    }

    func test_signUp_withNothing_isAnAnonymousUser() throws {
        let emulator = FirebaseAuthEmulator()
        let response = post("accounts:signUp", json: ["returnSecureToken": true], to: emulator)
        XCTAssertEqual(response.statusCode, 200, "Expected an anonymous sign-up. See \(AuthDocs.anonymous)")
        let token = try XCTUnwrap(response.bodyJSON?["idToken"].stringValue)
        let claims = try XCTUnwrap(UnsignedJWT.decode(token)?.claims)
        XCTAssertEqual(claims["firebase"]?["sign_in_provider"], "anonymous", "See \(AuthDocs.anonymous)")
        XCTAssertEqual(claims["provider_id"], "anonymous", "Expected provider_id for an anonymous user only. See \(AuthDocs.emulator)")
        XCTAssertNil(response.bodyJSON?["email"].stringValue, "Expected no email. See \(AuthDocs.anonymous)")
    }

    func test_signUp_withoutAPIKey_is403PermissionDenied() {
        let response = post("accounts:signUp", #"{"email":"a@b.c","password":"secret1"}"#, to: FirebaseAuthEmulator(), key: nil)
        XCTAssertEqual(response.statusCode, 403, "Expected 403 without ?key=. See \(AuthDocs.reference) (API_KEY)")
        XCTAssertEqual(response.bodyJSON?["error"]["status"], "PERMISSION_DENIED", "See \(AuthDocs.emulator)")
        XCTAssertEqual(errorMessage(response), "The request is missing a valid API key.", "See \(AuthDocs.emulator)")
    }

    func test_signUp_apiKeyInTheHeader_isAccepted() {
        let response = post("accounts:signUp", "{}", to: FirebaseAuthEmulator(), key: nil, headers: ["x-goog-api-key": "k"])
        XCTAssertEqual(response.statusCode, 200, "Expected x-goog-api-key to count as the key. See \(AuthDocs.emulator)")
    }
}
