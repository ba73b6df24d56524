import XCTest
import FirebaseEmulator

/// Firebase's refusals: bad keys, bad paths, bad JSON, too deep. Nothing is written when a request is refused.
final class ValidationTests: XCTestCase {
    private func errorBody(_ message: String) -> String { "{\n  \"error\" : \"\(message)\"\n}\n" }

    private func put(_ bodyText: String?, at path: String = "/x.json", method: String = "PUT") -> (EmulatorResponse, FirebaseEmulator) {
        let emulator = FirebaseEmulator()
        var urlRequest = request(method, path, on: emulator)
        urlRequest.httpBody = bodyText.map { Data($0.utf8) }
        return (emulator.handle(urlRequest), emulator)
    }

    func test_invalidKeys_are400_withPositionOfTheKey() {
        let cases: [(String, String)] = [
            (#"{"a.b": 1}"#, "1:2"), (#"{"": 1}"#, "1:2"), (#"{"ok": {"b$": 1}}"#, "1:9"),
            ("{\n  \"ok\": 1,\n  \"x#\": 2\n}", "3:3"), (#"{"a": [{"[": 1}]}"#, "1:9"), (#"{"a]": 1}"#, "1:2"),
            (#"{"a/b": 1}"#, "1:2"), (#"{"tab\t": 1}"#, "1:2"), (#"{"del\u007f": 1}"#, "1:2"),
            ("{\"" + String(repeating: "k", count: 769) + "\": 1}", "1:2"),
        ]
        for (body, position) in cases {
            let (response, emulator) = put(body)
            XCTAssertEqual(response.statusCode, 400, "Expected 400 for \(body.prefix(40))")
            XCTAssertEqual(response.bodyText, errorBody(
                "Invalid data; couldn't parse key beginning at \(position). Key value can't be empty or contain $ # [ ] / or ."),
                "Expected the key error at \(position) for \(body.prefix(40))")
            XCTAssertEqual(emulator.database, .null, "Expected nothing written for \(body.prefix(40))")
        }
    }

    func test_validKeys_areAccepted() {
        for body in [#"{"-LJNQ2zNeL4bwG1qpwYB": 1}"#, #"{"héllo wörld 😀": 1}"#, "{\"" + String(repeating: "k", count: 768) + "\": 1}",
                     #"{"a-b_c:d@e!": {"0": [1]}}"#] {
            XCTAssertEqual(put(body).0.statusCode, 200, "Expected \(body.prefix(40)) to be accepted")
        }
    }

    func test_patch_allowsSlashInTopLevelKeysOnly() {
        XCTAssertEqual(put(#"{"a/b": 1}"#, method: "PATCH").0.statusCode, 200, "Expected a multi-path key in PATCH")
        XCTAssertEqual(put(#"{"a": {"b/c": 1}}"#, method: "PATCH").0.statusCode, 400, "Expected / refused below the top level")
        XCTAssertEqual(put(#"{"a/b.c": 1}"#, method: "PATCH").0.statusCode, 400, "Expected . refused in a multi-path key")
    }

    func test_invalidPath_is400() {
        for path in ["/a.b.json", "/users/a$b.json", "/users/a%23b.json", "/users/a%5Bb%5D.json", "/a%2Eb/c.json"] {
            let (response, _) = put(#"{"x": 1}"#, at: path)
            XCTAssertEqual(response.statusCode, 400, "Expected 400 for \(path)")
            XCTAssertEqual(response.bodyText, errorBody("Invalid path: Invalid token in path"), "Expected the path error for \(path)")
        }
        let emulator = FirebaseEmulator()
        XCTAssertEqual(emulator.handle(request("GET", "/a.b.json", on: emulator)).statusCode, 400, "Expected GET paths checked too")
    }

    func test_invalidOrMissingJSON_is400() {
        for method in ["PUT", "POST", "PATCH"] {
            for body in [nil, "", "{", "undefined", "{'a': 1}", "[1,]"] as [String?] {
                let (response, emulator) = put(body, method: method)
                XCTAssertEqual(response.statusCode, 400, "Expected 400 for \(method) with body \(String(describing: body))")
                XCTAssertEqual(response.bodyText, errorBody("Invalid data; couldn't parse JSON object, array, or value."),
                               "Expected Firebase's JSON error for \(method) with body \(String(describing: body))")
                XCTAssertEqual(emulator.database, .null, "Expected nothing written")
            }
        }
    }

    func test_depthLimit32() {
        func nested(_ depth: Int) -> JSONValue { depth == 0 ? 1 : ["k": nested(depth - 1)] }
        let emulator = FirebaseEmulator()
        XCTAssertEqual(emulator.handle(request("PUT", "/.json", on: emulator, body: nested(32))).statusCode, 200,
                       "Expected 32 levels to be accepted")
        XCTAssertEqual(emulator.handle(request("PUT", "/.json", on: emulator, body: nested(33))).statusCode, 400,
                       "Expected 33 levels to be refused")
        XCTAssertEqual(emulator.handle(request("PUT", "/a/b.json", on: emulator, body: nested(31))).statusCode, 400,
                       "Expected the path's depth to count too (2 + 31 > 32)")
    }

    func test_refusedPatch_changesNothing() {
        let emulator = FirebaseEmulator(database: ["a": 1])
        let response = emulator.handle(request("PATCH", "/.json", on: emulator, body: ["b": 2, "c": [".sv": "bogus"]]))
        XCTAssertEqual(response.statusCode, 400, "Expected an unknown server value refused")
        XCTAssertEqual(emulator.database, ["a": 1], "Expected no partial PATCH")
    }
}
