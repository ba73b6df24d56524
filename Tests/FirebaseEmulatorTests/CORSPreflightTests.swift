import XCTest
import FirebaseEmulator

/// A browser sends `OPTIONS` before a cross-origin PUT/PATCH with a JSON body; without an answer that allows it, a web
/// app cannot write. Firebase answers every request with `Access-Control-Allow-Origin: *`
/// (https://firebase.google.com/docs/database/rest/save-data); its preflight answer is not documented.
final class CORSPreflightTests: XCTestCase {
    func test_preflight_allowsTheMethodsAndHeadersAsked() {
        let emulator = FirebaseEmulator()
        let response = emulator.handle(request("OPTIONS", "/a.json", on: emulator, headers: [
            "Origin": "http://localhost:3000", "Access-Control-Request-Method": "PATCH",
            "Access-Control-Request-Headers": "content-type",
        ]))
        XCTAssertEqual(response.statusCode, 200, "Expected the preflight answered, not 405")
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*", "Expected any origin allowed")
        XCTAssertTrue(response.headers["Access-Control-Allow-Methods"]?.contains("PATCH") == true, "Expected PATCH allowed")
        XCTAssertEqual(response.headers["Access-Control-Allow-Headers"], "content-type", "Expected the asked headers allowed")
        XCTAssertEqual(emulator.database, .null, "Expected nothing written")
    }
}
