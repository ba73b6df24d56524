import XCTest
import FirebaseEmulator

/// A string holds at most 10 MB of UTF-8 [LIMITS: https://firebase.google.com/docs/database/usage/limits]. The limit is
/// the service's `maximumStringBytes`: the boundary is checked at a small scale (the same code path, without building
/// and parsing 10 MB of JSON twice), and the default is checked to be Firebase's 10 MB.
final class StringLimitTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/database/usage/limits"

    func test_theLimit_isFirebases10MB() {
        XCTAssertEqual(FirebaseEmulator().withService { $0.maximumStringBytes }, 10 << 20,
                       "Expected strings of up to 10 MB allowed, as Firebase's limits say (\(Self.docs))")
    }

    func test_aStringOverTheLimit_isRefused_oneAtTheLimitIsStored() {
        let emulator = FirebaseEmulator()
        emulator.withService { $0.maximumStringBytes = 1024 }
        let atLimit = String(repeating: "x", count: 1024)
        let cases: [(String, JSONValue, Int)] = [
            ("/s.json", .string(atLimit), 200),
            ("/s.json", .string(String(repeating: "é", count: 512)), 200),  // 1024 bytes of UTF-8
            ("/t.json", .string(atLimit + "x"), 400),
            ("/t.json", .string(String(repeating: "é", count: 512) + "x"), 400),  // 1025 bytes, 513 characters
            ("/t.json", ["deep": ["text": .string(atLimit + "x")]], 400),
        ]
        for (path, body, status) in cases {
            let response = emulator.handle(request("PUT", path, on: emulator, body: body))
            XCTAssertEqual(response.statusCode, status, "Expected \(status) for a string of \(body.description.utf8.count - 2) bytes (\(Self.docs))")
        }
        let patch = emulator.handle(request("PATCH", "/.json", on: emulator, body: ["t": .string(atLimit + "x")]))
        XCTAssertEqual(patch.statusCode, 400, "Expected a PATCH over the limit refused too")
        XCTAssertEqual(patch.bodyJSON, ["error": "Invalid data; a string is longer than 10 MB."], "Expected the limit's error text")
        XCTAssertEqual(emulator.value(at: "s").stringValue?.utf8.count, 1024, "Expected the string at the limit kept")
        XCTAssertEqual(emulator.value(at: "t"), .null, "Expected every longer string refused")
    }
}
