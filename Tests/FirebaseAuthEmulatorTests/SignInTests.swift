import XCTest
import FirebaseAuthEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `accounts:signInWithPassword` (Firebase Auth REST API: "Sign in with email / password").
final class SignInTests: XCTestCase {
    func test_signIn_answersTheUsersTokens_registeredTrue() throws {
        let emulator = FirebaseAuthEmulator()
        let created = try signUp(on: emulator)
        let response = post("accounts:signInWithPassword", json: ["email": "ada@example.com", "password": "secret1", "returnSecureToken": true],
                            to: emulator)
        XCTAssertEqual(response.statusCode, 200, "Expected the sign-in to succeed: \(response.bodyText ?? ""). See \(AuthDocs.signIn)")
        let body = try XCTUnwrap(response.bodyJSON)
        XCTAssertEqual(body["kind"], "identitytoolkit#VerifyPasswordResponse", "See \(AuthDocs.signIn)")
        XCTAssertEqual(body["registered"], true, "See \(AuthDocs.signIn)")
        XCTAssertEqual(body["localId"], created["localId"], "Expected the same user. See \(AuthDocs.signIn)")
        XCTAssertEqual(body["email"], "ada@example.com", "See \(AuthDocs.signIn)")
        XCTAssertEqual(body["expiresIn"], "3600", "See \(AuthDocs.signIn)")
        XCTAssertNotNil(body["idToken"].stringValue, "See \(AuthDocs.signIn)")
        XCTAssertNotNil(body["refreshToken"].stringValue, "See \(AuthDocs.signIn)")
    }

    func test_signIn_unknownEmail_isEMAIL_NOT_FOUND() {
        let response = post("accounts:signInWithPassword", json: ["email": "nobody@example.com", "password": "secret1"], to: FirebaseAuthEmulator())
        XCTAssertEqual(response.statusCode, 400, "See \(AuthDocs.signIn)")
        XCTAssertEqual(errorMessage(response), "EMAIL_NOT_FOUND", "Expected the emulator's default answer. See \(AuthDocs.signIn)")
    }

    func test_signIn_wrongPassword_isINVALID_PASSWORD() throws {
        let emulator = FirebaseAuthEmulator()
        _ = try signUp(on: emulator)
        let response = post("accounts:signInWithPassword", json: ["email": "ada@example.com", "password": "wrong!!"], to: emulator)
        XCTAssertEqual(errorMessage(response), "INVALID_PASSWORD", "See \(AuthDocs.signIn)")
    }

    func test_signIn_withEmailEnumerationProtection_isINVALID_LOGIN_CREDENTIALS() throws {
        let emulator = FirebaseAuthEmulator()
        emulator.withService { $0.improvedEmailPrivacy = true }
        _ = try signUp(on: emulator)
        let wrongPassword = post("accounts:signInWithPassword", json: ["email": "ada@example.com", "password": "wrong!!"], to: emulator)
        let unknown = post("accounts:signInWithPassword", json: ["email": "bob@example.com", "password": "secret1"], to: emulator)
        XCTAssertEqual(errorMessage(wrongPassword), "INVALID_LOGIN_CREDENTIALS", "See \(AuthDocs.signIn) and \(AuthDocs.emulator)")
        XCTAssertEqual(errorMessage(unknown), "INVALID_LOGIN_CREDENTIALS", "See \(AuthDocs.signIn)")
    }

    func test_signIn_missingPassword_isMISSING_PASSWORD() {
        let response = post("accounts:signInWithPassword", json: ["email": "a@b.c"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_PASSWORD", "See \(AuthDocs.signIn)")
    }

    func test_signIn_missingEmail_isMISSING_EMAIL() {
        let response = post("accounts:signInWithPassword", json: ["password": "secret1"], to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "MISSING_EMAIL", "See \(AuthDocs.signIn)")
    }

    func test_signIn_throughTheSession_andTheLegacyV3Path() throws {
        let emulator = FirebaseAuthEmulator()
        _ = try signUp(on: emulator)
        var request = URLRequest(url: URL(string: emulator.baseURL.absoluteString
            + "www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"email":"ada@example.com","password":"secret1","returnSecureToken":true}"#.utf8)
        XCTAssertEqual(emulator.handle(request).bodyJSON?["registered"], true,
                       "Expected the v3 verifyPassword path old tutorials use to sign in too. See \(AuthDocs.emulator)")
    }

    func test_signIn_throughTheSession_likeLearnerCode() throws {
        let emulator = FirebaseAuthEmulator()
        _ = try signUp(on: emulator)
        var request = URLRequest(url: URL(string: emulator.identityToolkitURL.absoluteString + "accounts:signInWithPassword?key=k")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"email":"ada@example.com","password":"secret1","returnSecureToken":true}"#.utf8)
        let done = expectation(description: "the data task's completion")
        let received = Received()
        emulator.session.dataTask(with: request) { data, response, _ in
            received.set((response as? HTTPURLResponse)?.statusCode, data.flatMap { try? JSONValue(data: $0) })
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 2)
        let (status, body) = received.get()
        XCTAssertEqual(status, 200, "Expected the sign-in through emulator.session, in-process. See \(AuthDocs.signIn)")
        XCTAssertEqual(body?["registered"], true, "See \(AuthDocs.signIn)")
    }
}

/// What the completion received; it runs on the session's queue, the test reads after the wait.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Int?, JSONValue?) = (nil, nil)
    func set(_ status: Int?, _ body: JSONValue?) { lock.lock(); value = (status, body); lock.unlock() }
    func get() -> (Int?, JSONValue?) { lock.lock(); defer { lock.unlock() }; return value }
}
