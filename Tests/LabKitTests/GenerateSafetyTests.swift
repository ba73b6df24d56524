import Foundation
import XCTest
@testable import LabKit

/// `lab generate` never overwrites a learner's file without `--force` — a solution's text (with its markers) in
/// Exercises/ included — and `--force` keeps a copy of every file it replaces or removes (issue 19).
final class GenerateSafetyTests: FolderTestCase {
    let solution = """
        import LabSupport
        func f() throws -> Int {
            // BEGIN SOLUTION
            return 1
            // END SOLUTION
            // STUB: throw NotImplemented("f()", section: "1.1")
        }
        """

    func makeKit() throws -> (URL, ExerciseTree) {
        let root = folder!
        for part in ["Solutions/L", "Exercises/L"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        try solution.write(to: root.appendingPathComponent("Solutions/L/F.swift"), atomically: true, encoding: .utf8)
        try "// Package".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return (root, ExerciseTree(kitRoot: root))
    }

    func test_aSolutionsTextInExercises_isALearnersWork() throws {
        let (root, tree) = try makeKit()
        try solution.write(to: root.appendingPathComponent("Exercises/L/F.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try tree.learnersWork(), ["L/F.swift"], "a file holding BEGIN SOLUTION markers would be overwritten without asking")
    }

    func test_force_backsUpEveryFileItReplacesOrRemoves() throws {
        let (root, tree) = try makeKit()
        let stub = try XCTUnwrap(try tree.expectedExercises()["L/F.swift"])
        try (stub + "\n// an older generation").write(to: root.appendingPathComponent("Exercises/L/F.swift"), atomically: true, encoding: .utf8)
        try "let helper = 1".write(to: root.appendingPathComponent("Exercises/L/Helper.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try tree.replaced().sorted(), ["L/F.swift", "L/Helper.swift"],
                       "every file generate replaces or removes, a stale stub too, is backed up")
        let backup = root.appendingPathComponent("backup")
        try tree.backUp(try tree.replaced(), to: backup)
        XCTAssertEqual(try String(contentsOf: backup.appendingPathComponent("L/F.swift"), encoding: .utf8), stub + "\n// an older generation")
        XCTAssertEqual(try String(contentsOf: backup.appendingPathComponent("L/Helper.swift"), encoding: .utf8), "let helper = 1")
    }
}
