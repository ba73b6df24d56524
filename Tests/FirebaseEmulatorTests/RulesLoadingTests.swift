import XCTest
import FirebaseEmulator

/// A rules file is checked when it loads: what the kit cannot read is refused with its line and path.
final class RulesLoadingTests: XCTestCase {
    private func loadError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> SecurityRulesError? {
        do {
            _ = try SecurityRules(json: text)
            XCTFail("Expected the rules to be refused:\n\(text)", file: file, line: line)
            return nil
        } catch let error as SecurityRulesError {
            return error
        } catch {
            XCTFail("Expected a SecurityRulesError, got \(error)", file: file, line: line)
            return nil
        }
    }

    func test_anUnknownVariable_isRefusedWithItsLineAndPath() {
        let error = loadError("""
            {
              "rules": {
                "users": {
                  "$uid": {
                    ".write": "auth.uid === $user"
                  }
                }
              }
            }
            """)
        XCTAssertEqual(error?.line, 5, "Expected the line of the rule. See \(RulesDocs.coreSyntax)")
        XCTAssertEqual(error?.path, ["rules", "users", "$uid", ".write"], "Expected the rule's path")
        XCTAssertTrue(error?.message.contains("Unknown variable '$user'") == true, "Expected the reason, got \(error?.message ?? "nil")")
        XCTAssertTrue(error?.description.contains("line 5, rules/users/$uid/.write") == true, "Expected one line naming both: \(error?.description ?? "")")
    }

    func test_syntaxErrors_unknownMethods_andNewDataInRead_areRefused() {
        for (rules, expected) in [
            (#"{"rules": {".read": "auth.uid = 'x'"}}"#, "Unexpected character '='"),
            (#"{"rules": {".read": "data.child('a').values()"}}"#, "Unknown method 'values'"),
            (#"{"rules": {".read": "newData.exists()"}}"#, "Unknown variable 'newData'"),
            (#"{"rules": {".read": "(auth != null"}}"#, "Expected ')'"),
            (#"{"rules": {".read": 1}}"#, "must be true, false or an expression"),
            (#"{"rules": {".reed": true}}"#, "unknown rule .reed"),
            (#"{"rules": {"$a": {}, "$b": {}}}"#, "only one $ wildcard"),
            (#"{"read": true}"#, #"with "rules" at the top"#),
            (#"{"rules": {".read": "'a'.matches(/[/)"}}"#, "Invalid regular expression"),
        ] {
            let error = loadError(rules)
            XCTAssertTrue(error?.message.contains(expected) == true, "For \(rules) expected \(expected), got \(error?.message ?? "nil")")
        }
    }

    func test_indexOn_andComments_areAccepted() throws {
        let rules = try SecurityRules(json: """
            {
              // comments are allowed, as in Firebase's own rules files
              "rules": { /* and block comments */
                "dinosaurs": {".indexOn": ["height", "length"], ".read": true},
                "scores": {".indexOn": "score"}
              }
            }
            """)
        XCTAssertTrue(rules.text.contains(".indexOn"), "Expected .indexOn accepted (the query code reads it)")
    }

    func test_hugeOrDeepRules_areRefusedWithoutCrashing() {
        let huge = #"{"rules": {".read": ""# + String(repeating: "true && ", count: 40_000) + #"true"}}"#
        XCTAssertTrue(loadError(huge)?.message.contains("256 KB") == true, "Expected a file over 256 KB refused")
        let deep = #"{"rules": {".read": ""# + String(repeating: "(", count: 500) + "true" + String(repeating: ")", count: 500) + #""}}"#
        XCTAssertTrue(loadError(deep)?.message.contains("nested too deeply") == true, "Expected deep nesting refused")
        let long = #"{"rules": {".read": ""# + String(repeating: "true && ", count: 1_000) + #"true"}}"#
        XCTAssertTrue(loadError(long)?.message.contains("too deep to evaluate") == true, "Expected a 1,000-long chain refused")
    }

    func test_setRules_keepsTheOldRulesWhenTheNewOnesAreRefused() throws {
        let emulator = FirebaseEmulator()
        try emulator.setRules(#"{"rules": {".read": true}}"#)
        XCTAssertThrowsError(try emulator.setRules(#"{"rules": {".read": "nope"}}"#), "Expected the bad rules refused")
        XCTAssertNotNil(emulator.rules, "Expected the previous rules to stay")
        XCTAssertEqual(emulator.handle(request("PUT", "/a.json", on: emulator, body: 1)).statusCode, 401,
                       "Expected the previous rules still in force (no .write: denied)")
    }
}
