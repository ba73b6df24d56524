import XCTest
import FirebaseEmulator

/// `timeout=` (a number with ms, s or min, at most 15 min) and `writeSizeLimit=` (tiny, small, medium, large,
/// unlimited) [REF "Query Parameters": https://firebase.google.com/docs/reference/rest/database#section-query-parameters].
final class RequestLimitsTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/reference/rest/database#section-query-parameters"

    func test_validLimits_areAccepted_andNeverReachedHere() {
        let emulator = FirebaseEmulator(database: ["a": 1])
        for timeout in ["500ms", "3s", "15min", "900s"] {
            XCTAssertEqual(status("GET", "/a.json?timeout=\(timeout)", on: emulator), 200, "Expected timeout=\(timeout) accepted (\(Self.docs))")
        }
        for limit in ["tiny", "small", "medium", "large", "unlimited"] {
            XCTAssertEqual(status("PUT", "/a.json?writeSizeLimit=\(limit)", 2, on: emulator), 200, "Expected writeSizeLimit=\(limit) accepted (\(Self.docs))")
        }
    }

    func test_aTimeoutFirebaseDoesNotKnow_is400() {
        let emulator = FirebaseEmulator()
        for timeout in ["3", "16min", "901s", "0s", "-1s", "3h", "s", "1.5s", ""] {
            let response = emulator.handle(request("GET", "/a.json?timeout=\(timeout)", on: emulator))
            XCTAssertEqual(response.statusCode, 400, "Expected timeout=\(timeout) refused: ms, s or min, at most 15 min (\(Self.docs))")
            XCTAssertTrue(response.bodyJSON?["error"].stringValue?.hasPrefix("Invalid timeout") == true, "Expected the error to name timeout")
        }
    }

    func test_aWriteSizeLimitFirebaseDoesNotKnow_is400_andWritesNothing() {
        let emulator = FirebaseEmulator()
        for limit in ["huge", "Tiny", ""] {
            let response = emulator.handle(request("PUT", "/a.json?writeSizeLimit=\(limit)", on: emulator, body: 1))
            XCTAssertEqual(response.statusCode, 400, "Expected writeSizeLimit=\(limit) refused (\(Self.docs))")
            XCTAssertTrue(response.bodyJSON?["error"].stringValue?.hasPrefix("Invalid writeSizeLimit") == true, "Expected the error to name writeSizeLimit")
        }
        XCTAssertEqual(emulator.database, .null, "Expected the refused writes to write nothing")
    }
}
