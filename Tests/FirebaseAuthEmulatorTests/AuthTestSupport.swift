import XCTest
import FirebaseAuthEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pages the tests are pinned to.
enum AuthDocs {
    static let reference = "https://firebase.google.com/docs/reference/rest/auth"
    static let signUp = reference + "#section-create-email-password"
    static let anonymous = reference + "#section-sign-in-anonymously"
    static let signIn = reference + "#section-sign-in-email-password"
    static let refresh = reference + "#section-refresh-token"
    static let lookup = reference + "#section-get-account-info"
    static let delete = reference + "#section-delete-account"
    static let emulator = "https://firebase.google.com/docs/emulator-suite/connect_auth (unsigned ID tokens); firebase-tools src/emulator/auth/operations.ts"
}

extension XCTestCase {
    /// POSTs `body` (JSON unless `form`) to `endpoint` ("accounts:signUp", or "token" for securetoken) with an API key.
    func post(_ endpoint: String, _ body: String?, to emulator: FirebaseAuthEmulator, key: String? = "fake-api-key",
              headers: [String: String] = [:]) -> EmulatorResponse {
        let base = endpoint == "token" ? emulator.secureTokenURL : emulator.identityToolkitURL.appendingPathComponent(endpoint)
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        if let key = key { components.queryItems = [URLQueryItem(name: "key", value: key)] }
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return emulator.handle(request)
    }

    func post(_ endpoint: String, json: JSONValue, to emulator: FirebaseAuthEmulator) -> EmulatorResponse {
        post(endpoint, json.description, to: emulator)
    }

    /// Signs up `email` with `password` and returns the answer's fields, failing the setup when it does not succeed.
    func signUp(_ email: String = "ada@example.com", password: String = "secret1", on emulator: FirebaseAuthEmulator,
                file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let response = post("accounts:signUp", json: ["email": .string(email), "password": .string(password), "returnSecureToken": true],
                            to: emulator)
        XCTAssertEqual(response.statusCode, 200, "setup: sign-up answered \(response.bodyText ?? "")", file: file, line: line)
        return try XCTUnwrap(response.bodyJSON, "setup: sign-up's body is not JSON", file: file, line: line)
    }

    /// The `error.message` of a Google API error body.
    func errorMessage(_ response: EmulatorResponse) -> String? {
        response.bodyJSON?["error"]["message"].stringValue
    }
}

/// A clock a test moves by hand.
final class TestClock {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = start }
    var now: Date { lock.lock(); defer { lock.unlock() }; return current }
    func advance(_ seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
}
