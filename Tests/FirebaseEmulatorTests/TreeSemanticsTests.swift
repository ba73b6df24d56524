import XCTest
import FirebaseEmulator

/// How the tree stores and reads back data, seen through load/database/value(at:) and writes.
final class TreeSemanticsTests: XCTestCase {
    func test_emptyDatabase_isNull() {
        XCTAssertEqual(FirebaseEmulator().database, .null, "Expected an empty database to read as null")
    }

    func test_load_dropsNullsAndEmptyContainers() {
        let emulator = FirebaseEmulator()
        emulator.load(["a": ["b": nil, "c": [:], "d": []], "e": 1])
        XCTAssertEqual(emulator.database, ["e": 1], "Expected nulls and empty objects/arrays not to be stored")
    }

    func test_valueAt_acceptsPathsWithOrWithoutLeadingSlash() {
        let emulator = FirebaseEmulator(database: ["a": ["b": "x"]])
        XCTAssertEqual(emulator.value(at: "/a/b"), "x", "Expected /a/b")
        XCTAssertEqual(emulator.value(at: "a/b"), "x", "Expected a/b")
        XCTAssertEqual(emulator.value(at: "/"), ["a": ["b": "x"]], "Expected / to be the root")
        XCTAssertEqual(emulator.value(at: "/a/b/c"), .null, "Expected null below a scalar")
        XCTAssertEqual(emulator.value(at: "/missing"), .null, "Expected null for a missing path")
    }

    func test_arrayHeuristic() {
        let emulator = FirebaseEmulator()
        emulator.load(["dense": ["0": "a", "1": "b"], "gaps": ["0": "a", "2": "c"], "sparse": ["0": "a", "2": "c", "9": "j"],
                       "leadingZero": ["0": "a", "01": "b"], "offset": ["1": "b", "2": "c"], "negative": ["-1": "x"]])
        XCTAssertEqual(emulator.value(at: "dense"), ["a", "b"], "Expected consecutive integer keys as an array")
        XCTAssertEqual(emulator.value(at: "gaps"), ["a", nil, "c"], "Expected null in the gap (maxKey 2 < 2 × 2)")
        XCTAssertEqual(emulator.value(at: "sparse"), ["0": "a", "2": "c", "9": "j"], "Expected an object (maxKey 9 >= 2 × 3)")
        XCTAssertEqual(emulator.value(at: "leadingZero"), ["0": "a", "01": "b"], "Expected \"01\" not to count as an index")
        XCTAssertEqual(emulator.value(at: "offset"), [nil, "b", "c"], "Expected keys 1, 2 as an array with null at 0")
        XCTAssertEqual(emulator.value(at: "negative"), ["-1": "x"], "Expected a negative key to make an object")
    }

    func test_arrayWithNulls_isStoredWithoutThem() {
        let emulator = FirebaseEmulator()
        emulator.load(["list": ["a", nil, "c"]])
        XCTAssertEqual(emulator.value(at: "list"), ["a", nil, "c"], "Expected the array back with its gap")
        XCTAssertEqual(emulator.value(at: "list/1"), .null, "Expected nothing stored at the gap")
        XCTAssertEqual(emulator.value(at: "list/2"), "c", "Expected index 2 stored as child \"2\"")
    }

    func test_writingNull_prunesEmptyParents() {
        let emulator = FirebaseEmulator(database: ["a": ["b": ["c": 1]], "z": 1])
        _ = emulator.handle(request("DELETE", "/a/b/c.json", on: emulator))
        XCTAssertEqual(emulator.database, ["z": 1], "Expected a and a/b to disappear once empty")
    }

    func test_writingBelowAScalar_replacesIt() {
        let emulator = FirebaseEmulator(database: ["a": "scalar"])
        _ = emulator.handle(request("PUT", "/a/b.json", on: emulator, body: 1))
        XCTAssertEqual(emulator.database, ["a": ["b": 1]], "Expected the scalar replaced by an object")
    }

    func test_loadReplacesEverything() {
        let emulator = FirebaseEmulator(database: ["old": 1])
        emulator.load(["new": 2])
        XCTAssertEqual(emulator.database, ["new": 2], "Expected load to replace the whole tree")
        emulator.load(.null)
        XCTAssertEqual(emulator.database, .null, "Expected load(.null) to empty it")
    }
}
