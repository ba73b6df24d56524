import Foundation
import XCTest
@testable import LabKit

/// `lab generate` run for real in a scratch kit: without `--force` it writes nothing over a learner's work — a file
/// holding a solution's `// BEGIN SOLUTION` markers included —, and `--force` (or an ordinary run replacing a stale
/// stub) first copies every file it replaces or removes to `.lab/backups/<time>/Exercises/…`, and says where.
final class GenerateCommandTests: FolderTestCase {
    let solution = """
        import LabSupport
        func f() throws -> Int {
            // BEGIN SOLUTION
            return 1
            // END SOLUTION
            // STUB: throw NotImplemented("f()", section: "1.1")
        }

        """
    let time = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
    var printed: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("Package.swift", "// Package")
        try write("Solutions/L/F.swift", solution)
        try write("Solutions/L/Given.swift", "struct Given {}\n")
    }

    func generate(_ arguments: String...) throws -> Int32 {
        printed = []
        return try GenerateCommand.run(arguments, root: folder, now: time) { printed.append($0) }
    }

    func read(_ path: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) }
    var stub: String { get throws { try XCTUnwrap(try ExerciseTree(kitRoot: folder).expectedExercises()["L/F.swift"]) } }
    let backup = ".lab/backups/2026-11-18T11-06-40Z"

    func test_aSolutionsTextInExercises_isNotOverwrittenWithoutForce() throws {
        try write("Exercises/L/F.swift", solution)  // a learner (or instructor) pasted the solution, markers and all
        XCTAssertEqual(try generate(), 1)
        XCTAssertEqual(try read("Exercises/L/F.swift"), solution, "the file with BEGIN SOLUTION markers was overwritten without --force")
        XCTAssertTrue(printed.contains("  - Exercises/L/F.swift"), "the refusal does not name the file: \(printed)")
        XCTAssertTrue(printed.joined().contains("--force"), "the refusal does not say how to go ahead: \(printed)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises/L/Given.swift").path),
                       "a refused run wrote something")
    }

    func test_force_backsUpEveryFileItReplacesOrRemoves_atTheSamePath_andSaysWhere() throws {
        let started = try stub.replacingOccurrences(of: #"throw NotImplemented("f()", section: "1.1")"#, with: "return 2")
        try write("Exercises/L/F.swift", started)
        try write("Exercises/L/Given.swift", "struct Given {} // my note\n")  // a given file, edited
        try write("Exercises/L/Helper.swift", "let helper = 1\n")               // no counterpart in Solutions/
        XCTAssertEqual(try generate("--force"), 0, "\(printed)")
        XCTAssertEqual(try read("Exercises/L/F.swift"), try stub)
        XCTAssertEqual(try read("Exercises/L/Given.swift"), "struct Given {}\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises/L/Helper.swift").path))
        XCTAssertEqual(try read("\(backup)/Exercises/L/F.swift"), started)
        XCTAssertEqual(try read("\(backup)/Exercises/L/Given.swift"), "struct Given {} // my note\n")
        XCTAssertEqual(try read("\(backup)/Exercises/L/Helper.swift"), "let helper = 1\n")
        XCTAssertTrue(printed.contains { $0.contains("Backed up the 3 file(s)") && $0.contains(backup) }, "it does not say where: \(printed)")
        XCTAssertTrue(printed.contains("  Exercises/L/Helper.swift"), "a removed file is not named: \(printed)")
    }

    func test_aSecondForceInTheSameSecond_keepsTheFirstBackup() throws {
        try write("Exercises/L/Helper.swift", "first\n")
        XCTAssertEqual(try generate("--force"), 0)
        try write("Exercises/L/Helper.swift", "second\n")
        XCTAssertEqual(try generate("--force"), 0)
        XCTAssertEqual(try read("\(backup)/Exercises/L/Helper.swift"), "first\n")
        XCTAssertEqual(try read("\(backup)-2/Exercises/L/Helper.swift"), "second\n")
    }

    func test_aStaleStubReplacedWithoutForce_isBackedUpToo() throws {
        try write("Exercises/L/F.swift", try stub + "// my notes on f, stubs untouched\n")
        try write("Exercises/L/Given.swift", "struct Given {}\n")
        XCTAssertEqual(try generate(), 0, "\(printed)")
        XCTAssertEqual(try read("Exercises/L/F.swift"), try stub)
        XCTAssertEqual(try read("\(backup)/Exercises/L/F.swift"), try stub + "// my notes on f, stubs untouched\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(backup)/Exercises/L/Given.swift").path),
                       "a file it did not replace was backed up")
    }

    func test_upToDate_writesAndBacksUpNothing() throws {
        XCTAssertEqual(try generate(), 0)
        XCTAssertEqual(try generate(), 0)
        XCTAssertEqual(printed, ["Exercises/ was already up to date."])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".lab/backups").path))
    }

    func test_aFileThatIsNotText_isALearnersWork() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Exercises/L"), withIntermediateDirectories: true)
        try Data([0xff, 0xfe, 0x00, 0x41]).write(to: folder.appendingPathComponent("Exercises/L/F.swift"))
        XCTAssertEqual(try generate(), 1, "a file that is not UTF-8 was overwritten without --force")
    }

    /// `lab generate --check --force` checked, ignoring --force without a word.
    func test_checkAndForceTogether_areRefused_andNothingWritten() throws {
        XCTAssertThrowsError(try generate("--check", "--force")) {
            XCTAssertTrue("\($0)".hasPrefix("--check and --force do not go together"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises").path))
    }
}
