import XCTest
import FirebaseEmulator

/// A string holds at most 10 MB of UTF-8 [LIMITS: https://firebase.google.com/docs/database/usage/limits].
final class StringLimitTests: XCTestCase {
    func test_aStringOver10MB_isRefused_oneOf10MBIsStored() {
        let emulator = FirebaseEmulator()
        for (bytes, status) in [(10 << 20, 200), ((10 << 20) + 1, 400)] {
            var request = request("PUT", "/s.json", on: emulator)
            request.httpBody = Data(("\"" + String(repeating: "x", count: bytes) + "\"").utf8)
            XCTAssertEqual(emulator.handle(request).statusCode, status,
                           "Expected \(status) for a string of \(bytes) bytes (https://firebase.google.com/docs/database/usage/limits)")
        }
        XCTAssertEqual(emulator.value(at: "s").stringValue?.utf8.count, 10 << 20, "Expected the 10 MB string kept, the longer one refused")
    }
}
