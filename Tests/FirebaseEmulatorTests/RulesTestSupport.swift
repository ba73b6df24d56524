import XCTest
import FirebaseEmulator

/// Pages the rules tests are pinned to.
enum RulesDocs {
    static let coreSyntax = "https://firebase.google.com/docs/database/security/core-syntax"
    static let cascade = coreSyntax + "#read_and_write_rules_cascade"
    static let validate = "https://firebase.google.com/docs/database/security/core-syntax#validate_rules"
    static let conditions = "https://firebase.google.com/docs/database/security/rules-conditions"
    static let reference = "https://firebase.google.com/docs/reference/security/database"
    static let restAuth = "https://firebase.google.com/docs/database/rest/auth"
    static let restErrors = "https://firebase.google.com/docs/reference/rest/database#section-error-conditions"
    static let streaming = "https://firebase.google.com/docs/reference/rest/database#section-streaming"
}

/// An unsigned ID token like the Auth emulator's, for `uid`, valid until `expires` (seconds since 1970).
func idToken(uid: String, expires: TimeInterval = Date().timeIntervalSince1970 + 3600, extraClaims: [(String, JSONValue)] = []) -> String {
    UnsignedJWT.make(claims: [("user_id", .string(uid)), ("sub", .string(uid)),
                              ("firebase", ["identities": [:], "sign_in_provider": "password"]),
                              ("iat", .number((expires - 3600).rounded(.down))), ("exp", .number(expires.rounded(.down)))] + extraClaims)
}

extension XCTestCase {
    /// An emulator holding `database` under `rules`, failing the setup when the rules do not load.
    func emulator(rules: String, database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
                  file: StaticString = #filePath, line: UInt = #line) throws -> FirebaseEmulator {
        let emulator = FirebaseEmulator(database: database, clock: clock)
        do {
            try emulator.setRules(rules)
        } catch {
            XCTFail("setup: the rules did not load: \(error)", file: file, line: line)
            throw error
        }
        return emulator
    }

    /// The status of `method path` (with `?auth=token` when given) and `body`.
    func status(_ method: String, _ path: String, _ body: JSONValue? = nil, auth token: String? = nil, on emulator: FirebaseEmulator) -> Int {
        let target = token.map { path + (path.contains("?") ? "&" : "?") + "auth=\($0)" } ?? path
        return emulator.handle(request(method, target, on: emulator, body: body)).statusCode
    }
}
