import XCTest
import FirebaseEmulator

final class DatabaseExportTests: XCTestCase {
    func test_sampleExport_loads() throws {
        let emulator = try FirebaseEmulator(databaseExport: FixturePaths.sampleDatabase)
        let thread = emulator.value(at: "695398C4-498C-40A8-AA76-CB2B20DFD9FA")
        XCTAssertEqual(thread["title"], "REST APIs", "Expected the sample thread's title")
        XCTAssertEqual(thread["messages"]["-LJNQ2zNeL4bwG1qpwYB"]["timestamp"], .number(555_405_872.056162),
                       "Expected the sample's timestamp (seconds since 2001)")
    }

    func test_sampleExport_fileSpellsTheTimestampLikeFirebase() throws {
        let text = try String(contentsOf: FixturePaths.sampleDatabase, encoding: .utf8)
        XCTAssertTrue(text.contains("5.55405872056162E8"), "Expected the number written literally as 5.55405872056162E8")
    }

    func test_malformedExport_namesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("broken-export-\(UUID().uuidString).json")
        try Data("{\"a\": ".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try FirebaseEmulator(databaseExport: url)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains(url.lastPathComponent), "Expected the file named, got: \(message)")
            XCTAssertTrue(message.contains("not valid JSON"), "Expected the problem stated, got: \(message)")
        }
    }

    func test_missingExport_namesTheFile() {
        let url = URL(fileURLWithPath: "/nonexistent/export.json")
        XCTAssertThrowsError(try FirebaseEmulator(databaseExport: url)) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/export.json"), "Expected the path named, got: \(error)")
        }
    }
}
