import XCTest
import FirebaseAuthEmulator

/// The emulator's ID tokens: unsigned JWTs with Firebase's claims (Firebase docs "Verify ID tokens" for the claims;
/// the Auth emulator's `generateJwt` for alg "none").
final class IDTokenTests: XCTestCase {
    static let claimsDocs = "https://firebase.google.com/docs/auth/admin/verify-id-tokens#verify_id_tokens_using_a_third-party_jwt_library"

    func test_idToken_isUnsigned_withFirebasesClaims() throws {
        let clock = TestClock()
        let emulator = FirebaseAuthEmulator(projectId: "demo-lab", clock: { clock.now })
        let created = try signUp(on: emulator)
        let token = try XCTUnwrap(created["idToken"].stringValue)
        XCTAssertTrue(token.hasSuffix("."), "Expected an empty signature (header.claims.). See \(AuthDocs.emulator)")
        let (header, claims) = try XCTUnwrap(UnsignedJWT.decode(token), "Expected a JWT")
        XCTAssertEqual(header["alg"], "none", "See \(AuthDocs.emulator)")
        let now = clock.now.timeIntervalSince1970
        XCTAssertEqual(claims["iss"], "https://securetoken.google.com/demo-lab", "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["aud"], "demo-lab", "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["sub"], created["localId"], "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["user_id"], created["localId"], "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["iat"], .number(now.rounded(.down)), "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["exp"], .number(now.rounded(.down) + 3600), "Expected exp = iat + 3600. See \(Self.claimsDocs)")
        XCTAssertEqual(claims["auth_time"], .number(now.rounded(.down)), "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["email"], "ada@example.com", "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["email_verified"], false, "See \(Self.claimsDocs)")
        XCTAssertEqual(claims["firebase"], ["identities": ["email": ["ada@example.com"]], "sign_in_provider": "password"],
                       "See \(AuthDocs.emulator)")
    }

    func test_tokenLifetime_isSettable_andSetsExpiresInAndExp() throws {
        let emulator = FirebaseAuthEmulator(tokenLifetime: 2)
        let created = try signUp(on: emulator)
        XCTAssertEqual(created["expiresIn"], "2", "Expected expiresIn to follow the lifetime. See \(AuthDocs.signUp)")
        let claims = try XCTUnwrap(UnsignedJWT.decode(created["idToken"].stringValue ?? "")?.claims)
        XCTAssertEqual((claims["exp"]?.numberValue ?? 0) - (claims["iat"]?.numberValue ?? 0), 2, "Expected exp - iat = 2")
    }

    func test_decode_refusesWhatIsNotAJWT_withoutCrashing() {
        for text in ["", ".", "..", "a.b.c", "e30", "e30.W10.", String(repeating: "e", count: 100_000), "e30.e30.e30.e30", "💥.💥."] {
            XCTAssertNil(UnsignedJWT.decode(text), "Expected \(text.prefix(20)) not to decode as a JWT")
        }
        XCTAssertNotNil(UnsignedJWT.decode("e30.e30."), "Expected {}.{}. to decode (an empty header and claims)")
    }
}
