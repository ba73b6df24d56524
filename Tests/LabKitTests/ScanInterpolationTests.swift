import Foundation
import XCTest
@testable import LabKit

/// Issue 19's ways past the scan: code inside a string interpolation, and an `import` split over two lines. Both are
/// code like any other, and the scan reads them as such — while words in a literal's text stay text.
final class ScanInterpolationTests: XCTestCase {
    func violations(_ source: String) throws -> [String] {
        try IntegrityScan(kitRoot: KitRoot.find(), lesson: "Lesson1").violations(in: ["X.swift": Data(source.utf8)], folder: "L")
    }

    func test_codeInsideAnInterpolation_isScanned() throws {
        let found = try violations(#"let note = "done: \(atexit { print("bye") })""#)
        XCTAssertTrue(found.first?.contains("uses `atexit`") == true, "atexit inside \"\\( … )\" was not found: \(found)")
    }

    func test_codeInsideARawOrMultilineInterpolation_isScanned_withItsLine() throws {
        let raw = try violations("let a = 1\nlet s = #\"x \\#(Process())\"#")
        XCTAssertTrue(raw.first?.contains("X.swift:2: uses `Process`") == true, "Process inside #\"\\#( … )\"# was not found on line 2: \(raw)")
        let multiline = try violations("let s = \"\"\"\n  text\n  \\(dlsym(nil, \"x\"))\n  \"\"\"")
        XCTAssertTrue(multiline.first?.contains("X.swift:3: uses `dlsym`") == true, "dlsym in a multiline interpolation: \(multiline)")
    }

    func test_nestedStringsInAnInterpolation_endItWhereSwiftDoes() throws {
        let found = try violations(#"let s = "a \(["x)", "y"].joined()) b \(atexit { })""#)
        XCTAssertTrue(found.contains { $0.contains("uses `atexit`") }, "the second interpolation, after a \")\" inside a nested string, was missed: \(found)")
    }

    func test_wordsInALiteralsText_andAnEscapedParenthesis_areNotCode() throws {
        XCTAssertEqual(try violations(#"let s = "atexit and Process \\(not code) \#(1)""#), [])
        XCTAssertEqual(try violations(##"let s = #"\(atexit) is text in a raw string"#"##), [])
    }

    func test_anImportSplitOverTwoLines_isFound() throws {
        let found = try violations("import Foundation\nimport\n  XCTest\n@testable\nimport\nLabTestSupport")
        XCTAssertEqual(found.count, 2, "split imports: \(found)")
        XCTAssertTrue(found.first?.contains("imports XCTest") == true, "\(found)")
    }
}
