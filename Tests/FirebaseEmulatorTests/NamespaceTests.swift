import XCTest
import FirebaseEmulator

/// `?ns=<name>` picks the database in Firebase's emulator [EMU: https://firebase.google.com/docs/emulator-suite/connect_rtdb].
final class NamespaceTests: XCTestCase {
    static let emu = "https://firebase.google.com/docs/emulator-suite/connect_rtdb"

    func test_eachNamespace_isItsOwnDatabase() {
        let emulator = FirebaseEmulator(database: ["default": true])
        _ = emulator.handle(request("PUT", "/a.json?ns=first", on: emulator, body: 1))
        _ = emulator.handle(request("PUT", "/a.json?ns=second", on: emulator, body: 2))
        XCTAssertEqual(emulator.handle(request("GET", "/.json?ns=first", on: emulator)).bodyJSON, ["a": 1],
                       "Expected ns=first to hold only its own write (\(Self.emu))")
        XCTAssertEqual(emulator.database(namespace: "second"), ["a": 2], "Expected ns=second to hold its own write")
        XCTAssertEqual(emulator.database, ["default": true], "Expected the default database (no ns) untouched")
        XCTAssertEqual(emulator.handle(request("GET", "/.json?ns=new", on: emulator)).bodyText, "null",
                       "Expected a namespace never written to read as empty")
    }
}
