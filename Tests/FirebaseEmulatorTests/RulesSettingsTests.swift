import XCTest
import FirebaseEmulator

/// `/.settings/rules.json` reads and replaces the rules [RULES: https://firebase.google.com/docs/database/rest/app-management],
/// as firebase-tools loads them into its emulator (`PUT …?ns=<instance>`, `Authorization: Bearer owner`).
final class RulesSettingsTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/database/rest/app-management"
    private let owner = ["Authorization": "Bearer owner"]
    private let locked = #"{"rules": {".read": false, ".write": "auth != null"}}"#

    private func putRules(_ text: String, _ target: String = "/.settings/rules.json", on emulator: FirebaseEmulator,
                          headers: [String: String]? = nil) -> EmulatorResponse {
        var put = request("PUT", target, on: emulator, headers: headers ?? owner)
        put.httpBody = Data(text.utf8)
        return emulator.handle(put)
    }

    func test_get_withoutRules_answersTheEmulatorsOpenDefault() throws {
        let emulator = FirebaseEmulator()
        let response = emulator.handle(request("GET", "/.settings/rules.json", on: emulator, headers: owner))
        XCTAssertEqual(response.statusCode, 200, "Expected the owner to read the rules (\(Self.docs))")
        XCTAssertEqual(response.bodyJSON, ["rules": [".read": true, ".write": true]],
                       "Expected the Firebase emulator's default open rules when none are loaded")
    }

    func test_put_replacesTheRules_andGetAnswersTheirText() throws {
        let emulator = FirebaseEmulator()
        let response = putRules(locked, on: emulator)
        XCTAssertEqual(response.statusCode, 200, "Expected the owner's PUT accepted (\(Self.docs)): \(response.bodyText ?? "")")
        XCTAssertEqual(status("PUT", "/a.json", 1, on: emulator), 401, "Expected the new rules in force at once")
        XCTAssertEqual(emulator.handle(request("GET", "/.settings/rules.json", on: emulator, headers: owner)).bodyText, locked,
                       "Expected GET to answer the rules' own text")
        XCTAssertEqual(status("GET", "/a.json?auth=owner", on: emulator), 200, "Expected the owner still to bypass the rules")
    }

    func test_put_ofARuleTheKitCannotRead_is400_andKeepsTheOldRules() throws {
        let emulator = FirebaseEmulator()
        XCTAssertEqual(putRules(locked, on: emulator).statusCode, 200, "setup: expected the first rules loaded")
        let response = putRules(#"{"rules": {".read": "auth.uid ==="}}"#, on: emulator)
        XCTAssertEqual(response.statusCode, 400, "Expected a rule that cannot be read refused (\(Self.docs))")
        XCTAssertTrue(response.bodyJSON?["error"].stringValue?.hasPrefix("Cannot load the security rules (rules") == true,
                      "Expected the loader's message naming the rule; got \(response.bodyText ?? "")")
        XCTAssertEqual(emulator.rules?.text, locked, "Expected the old rules kept")
        XCTAssertEqual(putRules("not json", on: emulator).statusCode, 400, "Expected text that is not JSON refused")
    }

    func test_onlyTheOwner_mayReadOrReplaceTheRules() throws {
        let emulator = FirebaseEmulator()
        let user = ["Authorization": "Bearer \(idToken(uid: "ada"))"]
        for headers in [[:], user] {
            let get = emulator.handle(request("GET", "/.settings/rules.json", on: emulator, headers: headers))
            XCTAssertEqual(get.statusCode, 401, "Expected only an admin credential to read the rules (\(Self.docs))")
            XCTAssertEqual(get.bodyJSON, ["error": "Permission denied"], "Expected Firebase's text")
            XCTAssertEqual(putRules(locked, on: emulator, headers: headers).statusCode, 401, "Expected only the admin to replace them")
        }
        XCTAssertNil(emulator.rules, "Expected refused PUTs to change nothing")
    }

    func test_eachNamespace_hasItsOwnRules() throws {
        let emulator = FirebaseEmulator()
        XCTAssertEqual(putRules(locked, "/.settings/rules.json?ns=locked", on: emulator).statusCode, 200,
                       "setup: expected rules loaded into ns=locked, as firebase-tools does")
        XCTAssertEqual(status("PUT", "/a.json?ns=locked", 1, on: emulator), 401, "Expected ns=locked under its rules")
        XCTAssertEqual(status("PUT", "/a.json", 1, on: emulator), 200, "Expected the default database still open")
        XCTAssertEqual(status("PUT", "/a.json?ns=other", 1, on: emulator), 200, "Expected another namespace open (the emulator's default)")
    }
}
