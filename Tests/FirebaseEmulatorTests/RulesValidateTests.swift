import XCTest
import FirebaseEmulator

/// `.validate`: does not cascade; every one on and inside the written data must pass; `newData` is the result.
final class RulesValidateTests: XCTestCase {
    private let messageRules = #"""
        {
          "rules": {
            ".read": true, ".write": true,
            "messages": {
              "$id": {
                // a message has text (a non-empty string under 100 characters) and a number timestamp
                ".validate": "newData.hasChildren(['text', 'timestamp'])",
                "text": {".validate": "newData.isString() && newData.val().length > 0 && newData.val().length < 100"},
                "timestamp": {".validate": "newData.isNumber() && newData.val() <= now"}
              }
            }
          }
        }
        """#

    func test_newDataChecks_acceptAValidMessage_andRefuseABadOne() throws {
        let emulator = try self.emulator(rules: messageRules)
        XCTAssertEqual(status("POST", "/messages.json", ["text": "hi", "timestamp": 1], on: emulator), 200,
                       "Expected a valid message to pass every .validate. See \(RulesDocs.validate)")
        XCTAssertEqual(status("POST", "/messages.json", ["text": 5, "timestamp": 1], on: emulator), 401,
                       "Expected text 5 (not a string) refused. See \(RulesDocs.validate)")
        XCTAssertEqual(status("POST", "/messages.json", ["text": "hi"], on: emulator), 401,
                       "Expected a message without timestamp refused by hasChildren. See \(RulesDocs.validate)")
    }

    func test_validate_doesNotCascade_aTrueAboveDoesNotExcuseAFalseBelow() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".write": true, ".validate": true, "n": {".validate": "newData.isNumber()"}}}"#)
        XCTAssertEqual(status("PUT", "/.json", ["n": "text"], on: emulator), 401,
                       "Expected /n's .validate to run for a write at the root and fail. See \(RulesDocs.validate)")
        XCTAssertEqual(status("PUT", "/.json", ["n": 3], on: emulator), 200, "Expected a number at /n to pass. See \(RulesDocs.validate)")
    }

    func test_validate_isSkippedForADelete() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".write": true, "n": {".validate": "newData.isNumber()"}}}"#, database: ["n": 1])
        XCTAssertEqual(status("DELETE", "/n.json", on: emulator), 200, "Expected deleting /n not to be validated. See \(RulesDocs.validate)")
    }

    func test_dataRootAndParent_seeTheTreeBeforeTheWrite() throws {
        let rules = #"""
            {"rules": {".read": true, "posts": {"$id": {
              ".write": "!data.exists() && root.child('allowed').child(auth.uid).val() === true",
              ".validate": "newData.parent().parent().child('allowed').exists()"
            }}}}
            """#
        let emulator = try self.emulator(rules: rules, database: ["allowed": ["ada": true]])
        let ada = idToken(uid: "ada")
        XCTAssertEqual(status("PUT", "/posts/p1.json", "first", auth: ada, on: emulator), 200,
                       "Expected a new post by an allowed user. See \(RulesDocs.reference)")
        XCTAssertEqual(status("PUT", "/posts/p1.json", "again", auth: ada, on: emulator), 401,
                       "Expected !data.exists() to refuse overwriting. See \(RulesDocs.reference)")
        XCTAssertEqual(status("PUT", "/posts/p2.json", "x", auth: idToken(uid: "bob"), on: emulator), 401,
                       "Expected a user not in /allowed refused. See \(RulesDocs.reference)")
    }

    func test_stringMethodsAndMatches() throws {
        let emulator = try self.emulator(rules: #"""
            {"rules": {"$name": {".write": "$name.matches(/^[a-z]+$/) && newData.val().contains('@') && newData.val().toLowerCase().endsWith('.com') && (newData.val() + '').length < 50"}}}
            """#)
        XCTAssertEqual(status("PUT", "/ada.json", "ada@EXAMPLE.COM", on: emulator), 200, "See \(RulesDocs.reference)#string_methods")
        XCTAssertEqual(status("PUT", "/Ada1.json", "ada@example.com", on: emulator), 401, "Expected matches() to refuse Ada1. See \(RulesDocs.reference)")
        XCTAssertEqual(status("PUT", "/bob.json", "bob.example.com", on: emulator), 401, "Expected contains('@') to refuse. See \(RulesDocs.reference)")
    }

    func test_aRuleThatErrors_denies() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".read": "auth.uid == 'x'", ".write": "data.val() > 3"}}"#, database: "text")
        XCTAssertEqual(status("GET", "/.json", on: emulator), 401, "Expected auth.uid with auth null to be an error, so false. See \(RulesDocs.reference)")
        XCTAssertEqual(status("PUT", "/.json", 1, on: emulator), 401, "Expected 'text' > 3 to be an error, so false. See \(RulesDocs.reference)")
    }

    func test_aServerTimestamp_equalsNowInTheRules() throws {
        let emulator = try self.emulator(rules: #"{"rules": {".write": true, "t": {".validate": "newData.val() === now"}}}"#)
        for _ in 0..<20 {
            XCTAssertEqual(status("PUT", "/t.json", [".sv": "timestamp"], on: emulator), 200,
                           "Expected {\".sv\": \"timestamp\"} to equal now in the same write. See \(RulesDocs.reference)#now")
        }
    }

    func test_aWildcardValidateFalse_refusesUnknownChildren() throws {
        let emulator = try self.emulator(rules: #"""
            {"rules": {".write": true, "profile": {"name": {".validate": "newData.isString()"}, "$other": {".validate": false}}}}
            """#)
        XCTAssertEqual(status("PUT", "/profile.json", ["name": "Ada"], on: emulator), 200, "Expected the named child allowed. See \(RulesDocs.validate)")
        XCTAssertEqual(status("PUT", "/profile.json", ["name": "Ada", "admin": true], on: emulator), 401,
                       "Expected an unknown child refused by $other's .validate false. See \(RulesDocs.validate)")
    }
}
