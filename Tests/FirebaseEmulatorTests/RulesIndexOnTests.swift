import XCTest
import FirebaseEmulator

/// One rules file does both jobs, as on Firebase: its `.read`/`.write` decide access and its `.indexOn` entries the
/// queries that may order by a child [https://firebase.google.com/docs/database/security/indexing-data].
final class RulesIndexOnTests: XCTestCase {
    let rules = """
    {"rules": {".read": true, ".write": "auth != null",
               "dinosaurs": {".indexOn": ["height"]}, "scores": {"$game": {".indexOn": ".value"}}}}
    """

    func test_setRules_givesTheQueriesTheRulesIndexes() throws {
        let emulator = FirebaseEmulator(database: ["dinosaurs": ["a": ["height": 2], "b": ["height": 1]]])
        try emulator.setRules(rules)
        XCTAssertTrue(emulator.queryIndexes.isIndexed("height", at: ["dinosaurs"]))
        XCTAssertTrue(emulator.queryIndexes.isIndexed(".value", at: ["scores", "chess"]), "a $wildcard level matches any key")
        XCTAssertFalse(emulator.queryIndexes.isIndexed("length", at: ["dinosaurs"]))
        let query = "/dinosaurs.json?orderBy=%22height%22&limitToFirst=1"
        let response = emulator.handle(request("GET", query, on: emulator))
        XCTAssertEqual(response.statusCode, 200, "an indexed child may be ordered by")
        XCTAssertEqual(response.bodyJSON, ["b": ["height": 1]])
    }

    func test_rulesAndIndexes_belongToTheirNamespace() throws {
        let emulator = FirebaseEmulator(database: .null)
        try emulator.setRules(rules)
        XCTAssertEqual(emulator.handle(request("PUT", "/x.json", on: emulator, body: 1)).statusCode, 401,
                       "setup: expected the default database under its rules")
        XCTAssertEqual(emulator.handle(request("PUT", "/x.json?ns=other", on: emulator, body: 1)).statusCode, 200,
                       "Expected ?ns=other to have its own rules: none, so open, as in Firebase's emulator")
    }
}
