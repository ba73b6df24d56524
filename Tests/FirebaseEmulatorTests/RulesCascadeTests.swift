import XCTest
import FirebaseEmulator

/// `.read` and `.write` cascade: a grant at a location covers everything below and cannot be taken back below.
final class RulesCascadeTests: XCTestCase {
    func test_noRules_allowsEverything_andIgnoresAuth() {
        let emulator = FirebaseEmulator()
        XCTAssertNil(emulator.rules, "Expected no rules by default")
        XCTAssertEqual(status("PUT", "/a.json?auth=not-a-token", 1, on: emulator), 200,
                       "Expected no rules to mean everything allowed and auth= ignored, as the kit always did")
    }

    func test_aReadGrantAbove_cannotBeTakenBackBelow() throws {
        let emulator = try self.emulator(rules: #"{"rules": {"public": {".read": true, "secret": {".read": false}}}}"#,
                                         database: ["public": ["secret": "s", "open": "o"]])
        XCTAssertEqual(status("GET", "/public/secret.json", on: emulator), 200,
                       "Expected .read true on /public to cover /public/secret despite its .read false. See \(RulesDocs.cascade)")
    }

    func test_aGrantBelow_doesNotAllowReadingAbove() throws {
        let emulator = try self.emulator(rules: #"{"rules": {"a": {"b": {".read": true}}}}"#, database: ["a": ["b": 1, "c": 2]])
        XCTAssertEqual(status("GET", "/a/b.json", on: emulator), 200, "Expected /a/b readable. See \(RulesDocs.cascade)")
        XCTAssertEqual(status("GET", "/a.json", on: emulator), 401, "Expected /a unreadable: rules are not filters. See \(RulesDocs.cascade)")
    }

    func test_aWriteGrantAbove_coversWritesBelow() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".write": "true", "locked": {".write": false}}}"#)
        XCTAssertEqual(status("PUT", "/locked/x.json", 1, on: emulator), 200, "Expected the root's grant to cascade. See \(RulesDocs.cascade)")
    }

    func test_denial_is401WithFirebasesExactBody_andChangesNothing() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".read": true}}"#, database: ["a": 1])
        let response = emulator.handle(request("PUT", "/a.json", on: emulator, body: 2))
        XCTAssertEqual(response.statusCode, 401, "Expected 401 without a .write grant. See \(RulesDocs.restErrors)")
        XCTAssertEqual(response.bodyText, "{\n  \"error\" : \"Permission denied\"\n}\n",
                       "Expected Firebase's error body byte for byte. See \(RulesDocs.restErrors)")
        XCTAssertEqual(emulator.database, ["a": 1], "Expected a denied write to change nothing")
    }

    func test_wildcardVariables_bindTheKey() throws {
        let emulator = try self.emulator(rules: #"{"rules": {"rooms": {"$room": {".write": "$room.beginsWith('public-')"}}}}"#)
        XCTAssertEqual(status("PUT", "/rooms/public-1.json", "hi", on: emulator), 200, "Expected $room = public-1 to pass. See \(RulesDocs.conditions)")
        XCTAssertEqual(status("PUT", "/rooms/private.json", "hi", on: emulator), 401, "Expected $room = private to fail. See \(RulesDocs.conditions)")
    }

    func test_eachUserMayWriteOnlyBelowTheirOwnUID() throws {
        let emulator = try self.emulator(rules: #"""
            {"rules": {"users": {"$uid": {".read": "auth != null", ".write": "auth != null && auth.uid === $uid"}}}}
            """#)
        let ada = idToken(uid: "ada")
        XCTAssertEqual(status("PUT", "/users/ada/name.json", "Ada", auth: ada, on: emulator), 200,
                       "Expected ada to write below /users/ada. See \(RulesDocs.conditions)")
        XCTAssertEqual(status("PUT", "/users/bob/name.json", "Bob", auth: ada, on: emulator), 401,
                       "Expected ada not to write below /users/bob. See \(RulesDocs.conditions)")
        XCTAssertEqual(status("PUT", "/users/ada/name.json", "X", on: emulator), 401,
                       "Expected a signed-out write to be denied (auth is null). See \(RulesDocs.conditions)")
        XCTAssertEqual(status("PUT", "/users.json", ["ada": ["name": "A"]], auth: ada, on: emulator), 401,
                       "Expected a write at /users to need a grant at /users, not below. See \(RulesDocs.cascade)")
    }

    func test_patch_isCheckedPerChild() throws {
        let emulator = try self.emulator(rules: #"{"rules": {"open": {".write": true}, "shut": {".write": false}}}"#)
        XCTAssertEqual(status("PATCH", "/.json", ["open/a": 1], on: emulator), 200, "Expected a PATCH of /open/a to pass. See \(RulesDocs.cascade)")
        XCTAssertEqual(status("PATCH", "/.json", ["open/b": 1, "shut/c": 2], on: emulator), 401,
                       "Expected one denied child to deny the whole PATCH. See \(RulesDocs.cascade)")
        XCTAssertEqual(emulator.database, ["open": ["a": 1]], "Expected the denied PATCH to write nothing")
    }

    func test_authTokenClaims_areInAuthToken() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".read": "auth.token.admin === true && auth.provider == 'password'"}}"#)
        XCTAssertEqual(status("GET", "/.json", auth: idToken(uid: "a", extraClaims: [("admin", true)]), on: emulator), 200,
                       "Expected auth.token.admin from the token's claims. See \(RulesDocs.reference)#auth")
        XCTAssertEqual(status("GET", "/.json", auth: idToken(uid: "b"), on: emulator), 401,
                       "Expected a token without the claim denied. See \(RulesDocs.reference)#auth")
    }

    func test_ownerCredential_bypassesTheRules() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".read": false, ".write": false}}"#)
        XCTAssertEqual(status("PUT", "/a.json?access_token=owner", 1, on: emulator), 200,
                       "Expected the emulators' admin credential 'owner' to bypass the rules. See https://firebase.google.com/docs/emulator-suite/connect_rtdb")
    }
}
