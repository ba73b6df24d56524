import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// `auth=` / `access_token=` (REST "Authenticate REST Requests"): the token names the user the rules see; an expired
/// or unreadable token is refused with 401 whatever the rules; a stream ends with `auth_revoked` when its token expires.
final class RulesAuthTests: XCTestCase {
    private let openToUsers = #"{"rules": {".read": "auth != null", ".write": "auth != null"}}"#

    func test_anExpiredToken_is401AuthTokenIsExpired() throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let emulator = try self.emulator(rules: openToUsers, clock: { start + 3601 })
        let token = idToken(uid: "ada", expires: start.timeIntervalSince1970 + 3600)
        let response = emulator.handle(request("GET", "/.json?auth=\(token)", on: emulator))
        XCTAssertEqual(response.statusCode, 401, "Expected an expired ID token refused. See \(RulesDocs.restAuth)")
        XCTAssertEqual(response.bodyJSON, ["error": "Auth token is expired"], "Expected Firebase's text for it. See \(RulesDocs.restErrors)")
    }

    func test_aTokenThatIsNotAJWT_is401CouldNotParse() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".read": true}}"#)
        for token in ["bogus", "a.b.c", "e30.e30."] {
            let response = emulator.handle(request("GET", "/.json?auth=\(token)", on: emulator))
            XCTAssertEqual(response.statusCode, 401, "Expected auth=\(token) refused even where reading is open. See \(RulesDocs.restErrors)")
            XCTAssertEqual(response.bodyJSON, ["error": "Could not parse auth token."], "Expected Firebase's text. See \(RulesDocs.restErrors)")
        }
    }

    func test_accessTokenParameter_andBearerHeader_workLikeAuth() throws {
        let emulator = try self.emulator(rules: openToUsers)
        let token = idToken(uid: "ada")
        XCTAssertEqual(status("PUT", "/a.json?access_token=\(token)", 1, on: emulator), 200, "Expected access_token= accepted. See \(RulesDocs.restAuth)")
        let bearer = emulator.handle(request("GET", "/a.json", on: emulator, headers: ["Authorization": "Bearer \(token)"]))
        XCTAssertEqual(bearer.statusCode, 200, "Expected Authorization: Bearer accepted. See \(RulesDocs.restAuth)")
        XCTAssertEqual(status("GET", "/a.json", on: emulator), 401, "Expected no credential to mean auth == null. See \(RulesDocs.restAuth)")
    }

    func test_aStreamOpenedWithAToken_endsWithAuthRevoked_whenItExpires() throws {
        let emulator = try self.emulator(rules: openToUsers)
        let server = try serve(emulator)
        let connection = try connect(to: server)
        let token = idToken(uid: "ada", expires: Date().timeIntervalSince1970.rounded(.down) + 2)
        connection.send("GET", "/.json?auth=\(token)", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try connection.readHead().status, 200, "setup: expected the stream to open with a valid token")
        let events = EventStreamReader(connection)
        XCTAssertEqual(try events.next().name, "put", "setup: expected the first put")
        let ending = try events.next(timeout: 4)
        XCTAssertEqual(ending.name, "auth_revoked", "Expected auth_revoked when the token expired. See \(RulesDocs.streaming)")
        XCTAssertEqual(ending.data, #""credential is no longer valid""#, "Expected a JSON string as its data. See \(RulesDocs.streaming)")
        XCTAssertThrowsError(try events.next(timeout: 1), "Expected the stream to end after auth_revoked")
    }

    func test_aStreamIsRefused_whenTheRulesDenyTheRead() throws {
        let emulator = try self.emulator(rules: openToUsers)
        let connection = try connect(to: try serve(emulator))
        connection.send("GET", "/.json", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try connection.readResponse().status, 401, "Expected a signed-out stream refused like a GET. See \(RulesDocs.streaming)")
    }
}
