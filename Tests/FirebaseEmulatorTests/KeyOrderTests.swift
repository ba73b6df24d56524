import XCTest
import FirebaseEmulator

/// Firebase writes an object's keys in its key order: keys that are 32-bit integers first, numerically, then the
/// others lexicographically [RETR "How Data is Ordered": https://firebase.google.com/docs/database/rest/retrieve-data].
/// (JSON objects are unordered, so graded tests never depend on it; a learner reading curl output sees it.)
final class KeyOrderTests: XCTestCase {
    func test_bodies_listIntegerKeysFirst_numerically() {
        let emulator = FirebaseEmulator(database: ["k": ["b": 1, "a": 1, "A": 1, "-x": 1, "10": 1, "9": 1]])
        XCTAssertEqual(emulator.handle(request("GET", "/k.json", on: emulator)).bodyText, #"{"9":1,"10":1,"-x":1,"A":1,"a":1,"b":1}"#,
                       "Expected Firebase's key order (https://firebase.google.com/docs/database/rest/retrieve-data)")
    }
}
