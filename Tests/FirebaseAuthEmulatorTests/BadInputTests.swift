import XCTest
import FirebaseAuthEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bodies that are not what the API expects answer Google's 400 INVALID_ARGUMENT, never a crash.
final class BadInputTests: XCTestCase {
    func test_malformedJSON_isInvalidJSONPayload() {
        let response = post("accounts:signUp", #"{"email": "a@b.c", "password": }"#, to: FirebaseAuthEmulator())
        XCTAssertEqual(response.statusCode, 400, "See \(AuthDocs.reference)")
        XCTAssertEqual(response.bodyJSON?["error"]["status"], "INVALID_ARGUMENT", "See \(AuthDocs.emulator)")
        XCTAssertTrue(errorMessage(response)?.hasPrefix("Invalid JSON payload received. ") == true,
                      "Expected Google's prefix, got \(errorMessage(response) ?? "nil"). See \(AuthDocs.emulator)")
    }

    func test_aJSONArrayBody_isRootElementMustBeAMessage() {
        let response = post("accounts:signUp", "[1,2]", to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "Invalid JSON payload received. Root element must be a message.", "See \(AuthDocs.emulator)")
    }

    func test_anObjectWhereAStringBelongs_isRefused() {
        let response = post("accounts:signUp", #"{"email":{"a":1},"password":"secret1"}"#, to: FirebaseAuthEmulator())
        XCTAssertEqual(errorMessage(response), "Invalid JSON payload received. /email should be string", "See \(AuthDocs.emulator)")
    }

    func test_unknownEndpointOrMethod_is404() {
        let emulator = FirebaseAuthEmulator()
        XCTAssertEqual(post("accounts:signInWithMagic", "{}", to: emulator).statusCode, 404, "See \(AuthDocs.emulator)")
        var get = URLRequest(url: emulator.identityToolkitURL.appendingPathComponent("accounts:signUp"))
        get.httpMethod = "GET"
        XCTAssertEqual(emulator.handle(get).statusCode, 404, "Expected GET to be refused: every endpoint is POST. See \(AuthDocs.reference)")
    }

    func test_binaryBody_andHugeToken_areRefusedCleanly() {
        let emulator = FirebaseAuthEmulator()
        XCTAssertEqual(emulator.handle({ () -> URLRequest in
            var request = URLRequest(url: URL(string: emulator.identityToolkitURL.absoluteString + "accounts:signUp?key=k")!)
            request.httpMethod = "POST"
            request.httpBody = Data([0xFF, 0xFE, 0x00, 0x41])
            return request
        }()).statusCode, 400, "Expected a body that is not UTF-8 to be a 400")
        let huge = String(repeating: "A", count: 1 << 20)
        XCTAssertEqual(errorMessage(post("accounts:lookup", json: ["idToken": .string(huge)], to: emulator)), "INVALID_ID_TOKEN")
        XCTAssertEqual(errorMessage(post("token", "grant_type=refresh_token&refresh_token=\(huge)", to: emulator)), "INVALID_REFRESH_TOKEN")
    }
}
