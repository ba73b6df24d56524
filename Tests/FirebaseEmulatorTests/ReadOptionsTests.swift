import XCTest
import FirebaseEmulator

/// `callback=` and `download=` on GET [REF "Query Parameters": https://firebase.google.com/docs/reference/rest/database].
final class ReadOptionsTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/reference/rest/database (callback, download)"

    func test_callback_wrapsTheJSONInACall() {
        let emulator = FirebaseEmulator(database: ["a": 1])
        let response = emulator.handle(request("GET", "/.json?callback=gotData", on: emulator))
        XCTAssertEqual(response.bodyText, #"gotData({"a":1});"#, "Expected JSONP: the data passed to the callback (\(Self.docs))")
        XCTAssertEqual(response.headers["Content-Type"], "application/javascript; charset=utf-8", "Expected a script's type")
        XCTAssertEqual(emulator.handle(request("GET", "/.json?callback=alert(1)//", on: emulator)).bodyText, #"{"a":1}"#,
                       "Expected a callback that is not a function name ignored, never echoed into a script")
    }

    func test_download_asksTheBrowserToSaveAFile() {
        let emulator = FirebaseEmulator(database: ["a": 1])
        let response = emulator.handle(request("GET", "/.json?download=backup.json", on: emulator))
        XCTAssertEqual(response.headers["Content-Disposition"], #"attachment; filename="backup.json""#,
                       "Expected the answer offered as a download named backup.json (\(Self.docs))")
        XCTAssertEqual(response.bodyJSON, ["a": 1], "Expected the data itself")
    }
}
