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

    func test_rulesAndNamespaces_together_checkTheNamedDatabase() throws {
        let emulator = FirebaseEmulator(database: .null)
        try emulator.setRules(rules)
        let refused = emulator.handle(request("PUT", "/x.json?ns=other", on: emulator, body: 1))
        XCTAssertEqual(refused.statusCode, 401, "the rules hold in every ?ns= database")
        XCTAssertEqual(emulator.handle(request("GET", "/x.json?ns=other", on: emulator)).statusCode, 200)
    }
}
