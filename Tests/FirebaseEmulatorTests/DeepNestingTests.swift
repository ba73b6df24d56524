import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// Firebase stores at most 32 levels [LIMITS: https://firebase.google.com/docs/database/usage/limits]. Deeper bodies
/// are refused with 400 before anything recursive reads them: 500 levels (3 KB) used to crash `lab serve`.
final class DeepNestingTests: XCTestCase {
    private static let limits = "https://firebase.google.com/docs/database/usage/limits (depth of child nodes: 32)"
    private static let tooDeep = #"{"error":"Invalid data; data is nested too deeply (more than 32 levels)."}"#
    private let depths = [100, 1_000, 100_000]

    /// `{"a":{"a":…1…}}`, `levels` objects deep.
    private func nested(_ levels: Int) -> Data {
        Data((String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)).utf8)
    }

    /// Each way to write a body: method, target suffix and headers.
    private let writes: [(name: String, method: String, query: String, headers: [String: String])] = [
        ("PUT", "PUT", "", [:]),
        ("POST", "POST", "", [:]),
        ("PATCH", "PATCH", "", [:]),
        ("POST + X-HTTP-Method-Override: PUT", "POST", "", ["X-HTTP-Method-Override": "PUT"]),
        ("POST ?x-http-method-override=PATCH", "POST", "?x-http-method-override=PATCH", [:]),
    ]

    private func assertRefused(status: Int?, body: Data?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(status, 400, "\(what): expected 400 (\(Self.limits))", file: file, line: line)
        XCTAssertEqual(body.flatMap { try? JSONValue(data: $0) }, try? JSONValue(data: Data(Self.tooDeep.utf8)),
                       "\(what): expected Firebase's depth error body", file: file, line: line)
    }

    func test_deepBodies_areRefusedOverTheURLProtocol() throws {
        let emulator = FirebaseEmulator(database: ["kept": true])
        for depth in depths {
            for write in writes {
                var request = request(write.method, "/deep.json\(write.query)", on: emulator, headers: write.headers)
                request.httpBody = nested(depth)
                let outcome = run(request, on: emulator.session)
                assertRefused(status: outcome?.response?.statusCode, body: outcome?.data, "\(write.name) of \(depth) levels (URLProtocol)")
            }
        }
        XCTAssertEqual(emulator.database, ["kept": true], "Expected nothing written (\(Self.limits))")
    }

    func test_deepBodies_areRefusedOverTheSocketServer_andItKeepsServing() throws {
        let emulator = FirebaseEmulator(database: ["kept": true])
        let server = try serve(emulator)
        for depth in depths {
            for write in writes {
                let connection = try connect(to: server)
                connection.send(write.method, "/deep.json\(write.query)", body: nested(depth), headers: write.headers)
                let response = try connection.readResponse(timeout: 10)
                assertRefused(status: response.status, body: response.body, "\(write.name) of \(depth) levels (socket)")
            }
        }
        let after = try connect(to: server)
        after.send("GET", "/.json")
        XCTAssertEqual(try after.readResponse().bodyText, #"{"kept":true}"#, "Expected the server alive and nothing written")
    }

    func test_anUnclosedDeepBody_isRefusedToo() {
        let emulator = FirebaseEmulator()
        var request = request("PUT", "/deep.json", on: emulator)
        request.httpBody = Data(String(repeating: "[", count: 100_000).utf8)
        let outcome = run(request, on: emulator.session)
        XCTAssertEqual(outcome?.response?.statusCode, 400, "Expected 400 for 100,000 unclosed brackets (\(Self.limits))")
    }

    func test_32LevelsFit_33DoNot() {
        let emulator = FirebaseEmulator()
        for (depth, status) in [(32, 200), (33, 400)] {
            var request = request("PUT", "/.json", on: emulator)
            request.httpBody = nested(depth)
            XCTAssertEqual(run(request, on: emulator.session)?.response?.statusCode, status,
                           "Expected \(status) for \(depth) levels at the root (\(Self.limits))")
        }
    }

    func test_theJSONParser_refusesDeepText_onASmallStack_withoutCrashing() {
        let done = expectation(description: "parsed on a 512 KB thread")
        let text = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let thread = Thread {
            XCTAssertNil(try? JSONValue(data: text), "Expected the parser to refuse 100,000 levels, not recurse into them")
            done.fulfill()
        }
        thread.stackSize = 512 << 10
        thread.start()
        wait(for: [done], timeout: 10)
    }
}
