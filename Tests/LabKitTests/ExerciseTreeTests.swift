import Foundation
import XCTest
import LabKit

final class ExerciseTreeTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lab-tree-\(UUID().uuidString)")
        try write("Solutions/Lesson1/Exercise.swift", "func f() {\n// BEGIN SOLUTION\nreal()\n// END SOLUTION\n// STUB: stub()\n}\n")
        try write("Solutions/Lesson1/Given.swift", "struct Given {}\n")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func test_write_makesStubsAndCopiesGivenFiles_thenReportsNoDrift() throws {
        let tree = ExerciseTree(kitRoot: root)
        XCTAssertEqual(try tree.write(), ["Lesson1/Exercise.swift", "Lesson1/Given.swift"])
        XCTAssertEqual(try read("Exercises/Lesson1/Exercise.swift"), "func f() {\nstub()\n}\n")
        XCTAssertEqual(try read("Exercises/Lesson1/Given.swift"), "struct Given {}\n")
        XCTAssertEqual(try tree.drift(), [])
        XCTAssertEqual(try tree.write(), [], "a second write has nothing to do")
    }

    func test_drift_namesMissingExtraAndChangedFiles() throws {
        let tree = ExerciseTree(kitRoot: root)
        try tree.write()
        try write("Exercises/Lesson1/Exercise.swift", "func f() {\nedited()\n}\n")
        try write("Exercises/Lesson1/Stale.swift", "old\n")
        try FileManager.default.removeItem(at: root.appendingPathComponent("Exercises/Lesson1/Given.swift"))
        XCTAssertEqual(try tree.drift(), [.extra("Lesson1/Stale.swift"), .differs("Lesson1/Exercise.swift", line: 2), .missing("Lesson1/Given.swift")])
        try tree.write()
        XCTAssertEqual(try tree.drift(), [], "write removes stale files and restores the rest")
    }
}
