import XCTest
import FirebaseAuthEmulator

/// `accounts:lookup` and `accounts:delete` (Firebase Auth REST API: "Get user data", "Delete account").
final class AccountInfoTests: XCTestCase {
    func test_lookup_answersTheUser() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        let response = post("accounts:lookup", json: ["idToken": created["idToken"]], to: emulator)
        XCTAssertEqual(response.statusCode, 200, "Expected lookup to succeed: \(response.bodyText ?? ""). See \(AuthDocs.lookup)")
        let body = try XCTUnwrap(response.bodyJSON)
        XCTAssertEqual(body["kind"], "identitytoolkit#GetAccountInfoResponse", "See \(AuthDocs.lookup)")
        let user = try XCTUnwrap(body["users"].arrayValue?.first, "Expected users[0]. See \(AuthDocs.lookup)")
        XCTAssertEqual(user["localId"], created["localId"], "See \(AuthDocs.lookup)")
        XCTAssertEqual(user["email"], "ada@example.com", "See \(AuthDocs.lookup)")
        XCTAssertEqual(user["emailVerified"], false, "See \(AuthDocs.lookup)")
        XCTAssertEqual(user["providerUserInfo"].arrayValue?.first?["providerId"], "password", "See \(AuthDocs.lookup)")
        XCTAssertNotNil(user["createdAt"].stringValue, "Expected createdAt (ms, as a string). See \(AuthDocs.lookup)")
    }

    func test_lookup_notAJWT_isINVALID_ID_TOKEN() {
        let response = post("accounts:lookup", json: ["idToken": "hello"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "INVALID_ID_TOKEN", "See \(AuthDocs.lookup)")
    }

    func test_lookup_noToken_isMISSING_ID_TOKEN() {
        let response = post("accounts:lookup", json: [:], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_ID_TOKEN", "See \(AuthDocs.lookup)")
    }

    func test_lookup_expiredToken_isTOKEN_EXPIRED() throws {
        let clock = TestClock()
        let emulator = FirebaseAuthEmulator(tokenLifetime: 5, clock: { clock.now })
        let created = try signUp(on: emulator)
        clock.advance(6)
        let response = post("accounts:lookup", json: ["idToken": created["idToken"]], to: emulator)
        XCTAssertEqual(errorMessage(response), "TOKEN_EXPIRED",
                       "Expected an ID token past its exp to be refused, as production does (the emulator never checks exp). See \(AuthDocs.lookup)")
    }

    func test_delete_removesTheUser_thenLookupIsUSER_NOT_FOUND() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        let response = post("accounts:delete", json: ["idToken": created["idToken"]], to: emulator)
        XCTAssertEqual(response.bodyJSON, ["kind": "identitytoolkit#DeleteAccountResponse"], "See \(AuthDocs.delete)")
        XCTAssertTrue(emulator.users.isEmpty, "Expected the user gone. See \(AuthDocs.delete)")
        let lookup = post("accounts:lookup", json: ["idToken": created["idToken"]], to: emulator)
        XCTAssertEqual(errorMessage(lookup), "USER_NOT_FOUND", "See \(AuthDocs.lookup)")
    }

    func test_delete_noToken_isMISSING_ID_TOKEN() {
        let response = post("accounts:delete", json: [:], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_ID_TOKEN", "See \(AuthDocs.delete)")
    }
}
