import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// REST queries as Firebase documents them [RETR: https://firebase.google.com/docs/database/rest/retrieve-data,
/// "Filtering Data" and "How Data is Ordered"; indexes: https://firebase.google.com/docs/database/security/indexing-data].
final class QueryTests: XCTestCase {
    static let retrieve = "https://firebase.google.com/docs/database/rest/retrieve-data"
    static let dinosaurs: JSONValue = [
        "lambeosaurus": ["height": 2.1, "length": 12.5],
        "stegosaurus": ["height": 4, "length": 9],
        "bruhathkayosaurus": ["height": 25, "length": 44],
        "linhenykus": ["height": 0.6, "length": 1],
        "pterodactyl": ["length": 2],
    ]
    static let rules: JSONValue = ["rules": ["dinosaurs": [".indexOn": ["height", "length"]], "scores": [".indexOn": ".value"]]]

    private func makeEmulator(_ database: JSONValue = ["dinosaurs": dinosaurs], rules: JSONValue? = rules) throws -> FirebaseEmulator {
        let emulator = FirebaseEmulator(database: database)
        if let rules = rules { emulator.queryIndexes = try QueryIndexes(rules: rules) }
        return emulator
    }

    /// GET `target` (query text as written in Firebase's docs, percent-encoded here).
    private func get(_ target: String, on emulator: FirebaseEmulator) -> EmulatorResponse {
        let encoded = target.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "$", with: "%24")
        return emulator.handle(request("GET", encoded, on: emulator))
    }

    private func keys(_ response: EmulatorResponse) -> [String] {
        response.bodyJSON?.objectValue?.keys.sorted() ?? []
    }

    private func assertRefused(_ response: EmulatorResponse, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.statusCode, 400, "Expected 400 (\(Self.retrieve))", file: file, line: line)
        XCTAssertEqual(response.bodyJSON, ["error": .string(message)], "Expected Firebase's text (\(Self.retrieve))", file: file, line: line)
    }

    func test_orderByKey_limitToFirst_givesTheFirstChildByKey() throws {
        let response = get(#"/dinosaurs.json?orderBy="$key"&limitToFirst=1"#, on: try makeEmulator())
        XCTAssertEqual(keys(response), ["bruhathkayosaurus"], "Expected the first dinosaur by name (\(Self.retrieve) orderBy \"$key\")")
    }

    func test_keyOrder_puts32BitIntegerKeysFirst_numerically() throws {
        let emulator = try makeEmulator(["k": ["b": 1, "a": 1, "A": 1, "-x": 1, "10": 1, "9": 1, "3000000000": 1]])
        XCTAssertEqual(keys(get(#"/k.json?orderBy="$key"&limitToFirst=2"#, on: emulator)), ["10", "9"],
                       "Expected 9 and 10 first: keys that parse as 32-bit integers sort first, numerically (\(Self.retrieve) orderBy \"$key\")")
        XCTAssertEqual(keys(get(#"/k.json?orderBy="$key"&limitToLast=3"#, on: emulator)), ["A", "a", "b"],
                       "Expected the string keys last, lexicographically (3000000000 is beyond 32 bits: a string) (\(Self.retrieve))")
    }

    func test_orderByValue_limitToLast_givesTheLargest() throws {
        let emulator = try makeEmulator(["scores": ["bruhathkayosaurus": 55, "lambeosaurus": 21, "linhenykus": 80, "pterodactyl": 93]])
        XCTAssertEqual(get(#"/scores.json?orderBy="$value"&limitToLast=1"#, on: emulator).bodyJSON, ["pterodactyl": 93],
                       "Expected the highest score (\(Self.retrieve) orderBy \"$value\")")
    }

    func test_valueOrder_falseTrueNumbersStringsObjects() throws {
        let emulator = try makeEmulator(["scores": ["o": ["z": 1], "s": "x", "n": 5, "t": true, "f": false]])
        XCTAssertEqual(keys(get(#"/scores.json?orderBy="$value"&limitToFirst=2"#, on: emulator)), ["f", "t"],
                       "Expected false then true first (\(Self.retrieve) \"How Data is Ordered\")")
        XCTAssertEqual(keys(get(#"/scores.json?orderBy="$value"&limitToLast=1"#, on: emulator)), ["o"], "Expected objects last (\(Self.retrieve))")
        XCTAssertEqual(keys(get(#"/scores.json?orderBy="$value"&startAt=5&endAt="x""#, on: emulator)), ["n", "s"],
                       "Expected numbers before strings, bounds inclusive (\(Self.retrieve))")
    }

    func test_orderByChild_startAt_keepsChildrenAtOrAbove() throws {
        XCTAssertEqual(keys(get(#"/dinosaurs.json?orderBy="height"&startAt=3"#, on: try makeEmulator())),
                       ["bruhathkayosaurus", "stegosaurus"], "Expected heights ≥ 3 (\(Self.retrieve) startAt)")
    }

    func test_endAt_andEqualTo_areInclusive() throws {
        let emulator = try makeEmulator()
        XCTAssertEqual(keys(get(#"/dinosaurs.json?orderBy="height"&endAt=2.1"#, on: emulator)),
                       ["lambeosaurus", "linhenykus", "pterodactyl"],
                       "Expected heights ≤ 2.1, and the one with no height (null sorts first) (\(Self.retrieve) endAt)")
        XCTAssertEqual(keys(get(#"/dinosaurs.json?orderBy="$key"&equalTo="linhenykus""#, on: emulator)), ["linhenykus"],
                       "Expected only linhenykus (\(Self.retrieve) equalTo)")
    }

    func test_ties_areBrokenByKey() throws {
        let emulator = try makeEmulator(["dinosaurs": ["c": ["height": 1], "a": ["height": 1], "b": ["height": 1]]])
        XCTAssertEqual(keys(get(#"/dinosaurs.json?orderBy="height"&limitToFirst=2"#, on: emulator)), ["a", "b"],
                       "Expected equal heights ordered by key (\(Self.retrieve) \"How Data is Ordered\")")
    }

    func test_filterWithoutOrderBy_is400() throws {
        assertRefused(get("/dinosaurs.json?limitToFirst=1", on: try makeEmulator()),
                      "orderBy must be defined when other query parameters are defined")
    }

    func test_orderByNotJSONQuoted_is400() throws {
        assertRefused(get("/dinosaurs.json?orderBy=height", on: try makeEmulator()), "orderBy must be a valid JSON encoded path")
    }

    func test_bothLimits_is400() throws {
        let response = get(#"/dinosaurs.json?orderBy="$key"&limitToFirst=1&limitToLast=1"#, on: try makeEmulator())
        XCTAssertEqual(response.statusCode, 400, "Expected 400 for both limits (\(Self.retrieve))")
    }

    func test_aBoundThatIsNotAJSONPrimitive_is400() throws {
        assertRefused(get(#"/dinosaurs.json?orderBy="height"&startAt=tall"#, on: try makeEmulator()),
                      "Constraint index field must be a JSON primitive")
    }

    func test_orderByAChildWithoutIndexOn_is400_namingTheRule() throws {
        assertRefused(get(#"/dinosaurs.json?orderBy="weight"&limitToFirst=1"#, on: try makeEmulator()),
                      #"Index not defined, add ".indexOn": "weight", for path "/dinosaurs", to the rules"#)
        assertRefused(get(#"/dinosaurs.json?orderBy="height""#, on: try makeEmulator(rules: nil)),
                      #"Index not defined, add ".indexOn": "height", for path "/dinosaurs", to the rules"#)
    }

    func test_orderByValue_needsAValueIndex() throws {
        assertRefused(get(#"/dinosaurs.json?orderBy="$value""#, on: try makeEmulator()),
                      #"Index not defined, add ".indexOn": ".value", for path "/dinosaurs", to the rules"#)
    }

    func test_orderByKey_needsNoIndex() throws {
        let response = get(#"/dinosaurs.json?orderBy="$key"&limitToLast=1"#, on: try makeEmulator(rules: nil))
        XCTAssertEqual(keys(response), ["stegosaurus"], "Expected $key to work without rules (\(Self.retrieve))")
    }

    func test_indexOnUnderAWildcard_matchesEveryKey() throws {
        let emulator = try makeEmulator(["rooms": ["r1": ["m": ["a": ["t": 2], "b": ["t": 1]]]]],
                                        rules: ["rules": ["rooms": ["$room": ["m": [".indexOn": "t"]]]]])
        XCTAssertEqual(keys(get(#"/rooms/r1/m.json?orderBy="t"&limitToFirst=1"#, on: emulator)), ["b"],
                       "Expected the $room wildcard's .indexOn to apply at /rooms/r1/m")
    }

    func test_badIndexOn_isRefusedWithItsPlace() {
        XCTAssertThrowsError(try QueryIndexes(rules: ["rules": ["a": [".indexOn": 3]]])) { error in
            XCTAssertTrue("\(error)".contains("/a"), "Expected the message to name /a, got \(error)")
        }
        XCTAssertThrowsError(try QueryIndexes(rules: ["a": true]), "Expected a document without \"rules\" refused")
    }

    func test_shallowWithAQuery_is400() throws {
        let response = get(#"/dinosaurs.json?shallow=true&orderBy="$key""#, on: try makeEmulator())
        XCTAssertEqual(response.statusCode, 400, "Expected 400: shallow cannot be mixed with other query parameters (\(Self.retrieve) shallow)")
    }

    func test_queryThroughTheSession_matchesTheCore() throws {
        let emulator = try makeEmulator()
        var request = URLRequest(url: URL(string: emulator.baseURL.absoluteString + "dinosaurs.json?orderBy=%22height%22&limitToLast=2")!)
        request.httpMethod = "GET"
        let outcome = run(request, on: emulator.session)
        XCTAssertEqual(outcome?.data.flatMap { try? JSONValue(data: $0) }?.objectValue.map { $0.keys.sorted() },
                       ["bruhathkayosaurus", "stegosaurus"], "Expected the two tallest through URLSession (\(Self.retrieve))")
    }
}
