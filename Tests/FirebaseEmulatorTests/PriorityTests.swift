import XCTest
import FirebaseEmulator

/// Priorities [REF "Priorities": https://firebase.google.com/docs/reference/rest/database]: `.priority` in written data
/// (`.value` for a leaf), `/.priority.json`, `format=export` to read them, `orderBy="$priority"` to sort by them.
final class PriorityTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/reference/rest/database (Priorities, format=export)"

    func test_writtenPriorities_areLeftOutOfReads_andShownByFormatExport() {
        let emulator = FirebaseEmulator()
        let put = emulator.handle(request("PUT", "/users/jack.json", on: emulator, body: ["name": "Jack", ".priority": 5]))
        XCTAssertEqual(put.statusCode, 200, "Expected .priority accepted in data (\(Self.docs))")
        _ = emulator.handle(request("PUT", "/users/jill.json", on: emulator, body: [".value": "Jill", ".priority": "b"]))
        XCTAssertEqual(emulator.handle(request("GET", "/users.json", on: emulator)).bodyJSON, ["jack": ["name": "Jack"], "jill": "Jill"],
                       "Expected plain reads without priorities (\(Self.docs))")
        XCTAssertEqual(emulator.handle(request("GET", "/users.json?format=export", on: emulator)).bodyJSON,
                       ["jack": ["name": "Jack", ".priority": 5], "jill": [".value": "Jill", ".priority": "b"]],
                       "Expected format=export to include the priorities (\(Self.docs))")
    }

    func test_thePriorityPath_readsAndSetsOnePriority() {
        let emulator = FirebaseEmulator(database: ["a": "x"])
        XCTAssertEqual(emulator.handle(request("PUT", "/a/.priority.json", on: emulator, body: 3)).statusCode, 200,
                       "Expected PUT /a/.priority.json to set the priority (\(Self.docs))")
        XCTAssertEqual(emulator.handle(request("GET", "/a/.priority.json", on: emulator)).bodyJSON, 3, "Expected the priority read back")
        XCTAssertEqual(emulator.value(at: "a"), "x", "Expected the value kept")
        XCTAssertEqual(emulator.handle(request("POST", "/a/.priority.json", on: emulator, body: 1)).statusCode, 400,
                       "Expected nothing but GET, PUT and DELETE at a priority")
    }

    func test_orderByPriority_nullsThenNumbersThenStrings() {
        let emulator = FirebaseEmulator(database: ["p": [
            "s": [".value": 1, ".priority": "a"], "n2": [".value": 1, ".priority": 2], "n1": [".value": 1, ".priority": 1], "none": 1,
        ]])
        let first = emulator.handle(request("GET", "/p.json?orderBy=%22$priority%22&limitToFirst=2", on: emulator)).bodyJSON
        XCTAssertEqual(first?.objectValue.map { $0.keys.sorted() }, ["n1", "none"],
                       "Expected no priority first, then the lowest number (https://firebase.google.com/docs/database/rest/retrieve-data orderBy \"$priority\")")
        let last = emulator.handle(request("GET", "/p.json?orderBy=%22$priority%22&limitToLast=1", on: emulator)).bodyJSON
        XCTAssertEqual(last, ["s": 1], "Expected string priorities after numbers")
    }

    func test_aBadPriority_isRefused() {
        let emulator = FirebaseEmulator()
        for body: JSONValue in [["a": 1, ".priority": true], [".value": 1, "b": 2], [".value": ["x": 1]]] {
            XCTAssertEqual(emulator.handle(request("PUT", "/x.json", on: emulator, body: body)).statusCode, 400,
                           "Expected \(body) refused: a priority is a number, a string or null; .value stands alone (\(Self.docs))")
        }
        let patch = emulator.handle(request("PATCH", "/.json", on: emulator, body: ["x/.priority": ["y": 1]]))
        XCTAssertEqual(patch.statusCode, 400, "Expected a PATCH that makes a priority an object refused")
        XCTAssertEqual(emulator.database, .null, "Expected nothing written")
    }
}
