import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// `lab new-lesson` in a copy of the kit: every place a lesson needs, `lab lint` clean and Exercises/ generated
/// right after it; a bad name or an existing lesson refused with nothing written; and `lab lint` naming each place
/// a lesson is missing from. (That the new lesson builds, passes against its solution and reads "not started"
/// against its stub takes a build: `NewLessonWalkthroughTests`.)
final class NewLessonCommandTests: FolderTestCase {
    var kit: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        kit = try ScratchKit.copy(to: folder.appendingPathComponent("kit"))
    }

    func newLesson(_ arguments: [String]) throws -> (status: Int32, said: String) {
        var said: [String] = []
        let status = try NewLessonCommand.run(arguments, root: kit) { said.append($0) }
        return (status, said.joined(separator: "\n"))
    }

    func refusal(_ arguments: [String]) -> String {
        do {
            _ = try newLesson(arguments)
            return "not refused"
        } catch {
            return "\(error)"
        }
    }

    static let places = ["Solutions/Lesson9/GreetingClient.swift", "Exercises/Lesson9/GreetingClient.swift",
                         "Tests/Lesson9Tests/Lesson9TestCase.swift", "Tests/Lesson9Tests/FetchGreetingTests.swift",
                         "Fixtures/lesson9/README.md", "Fixtures/lesson9/database.json", "Tests/Mutants/Lesson9.json"]

    func test_newLesson_isInEveryPlace_andTheKitLintsCleanAtOnce() throws {
        let (status, said) = try newLesson(["Lesson9", "--title", "Paging \"big\" lists"])
        XCTAssertEqual(status, 0, said)
        for path in Self.places {
            XCTAssertTrue(FileManager.default.fileExists(atPath: kit.appendingPathComponent(path).path), "\(path) was not made")
            XCTAssertTrue(said.contains(path), "the output does not name \(path): \(said)")
        }
        let catalog = try LessonCatalog.load(from: kit.appendingPathComponent("lessons.json"))
        XCTAssertEqual(catalog.lessons.last?.name, "Lesson9")
        XCTAssertEqual(catalog.lessons.last?.title, "Paging \"big\" lists")
        XCTAssertEqual(catalog.lessons.last?.exercises.map(\.section), ["9.1"])
        XCTAssertEqual(LessonPlaces(root: kit).manifestLessons.last, "Lesson9")
        XCTAssertEqual(try LintCommand.findProblems(in: kit), [], "lab lint is not clean after new-lesson")
        XCTAssertEqual(try ExerciseTree(kitRoot: kit).drift().map { "\($0)" }, [], "Exercises/ is not what Solutions/ generates")
        let stub = try String(contentsOf: kit.appendingPathComponent("Exercises/Lesson9/GreetingClient.swift"), encoding: .utf8)
        XCTAssertTrue(stub.contains("completion(.failure(NotImplemented(\"fetchGreeting(completion:)\", section: \"9.1\")))"), stub)
        XCTAssertFalse(stub.contains("dataTask"), "the stub holds the solution")
        let workflow = try String(contentsOf: kit.appendingPathComponent(AutogradingWorkflow.path), encoding: .utf8)
        XCTAssertTrue(workflow.contains("- name: \"Lesson 9 — Paging \\\"big\\\" lists\"\n"), workflow)
        let chapters = try String(contentsOf: kit.appendingPathComponent("LESSONS.md"), encoding: .utf8)
        XCTAssertTrue(chapters.hasSuffix("\n") && chapters.contains("\n\n## 9. Paging \"big\" lists\n"), String(chapters.suffix(600)))
    }

    func test_badNamesAndExistingLessons_areRefused_withNothingWritten() throws {
        let before = try regularFiles(under: kit)
        XCTAssertTrue(refusal(["Lesson3", "--title", "Again"]).contains("Lesson3 already exists"))
        XCTAssertTrue(refusal(["lesson9", "--title", "X"]).contains("is not a lesson name"))
        XCTAssertTrue(refusal(["Paging", "--title", "X"]).contains("e.g. Lesson9"))
        XCTAssertTrue(refusal(["Lesson09", "--title", "X"]).contains("is not a lesson name"))
        XCTAssertTrue(refusal(["Lesson9"]).contains("give the lesson a title"))
        XCTAssertTrue(refusal(["Lesson9", "--title", "  "]).contains("give the lesson a title"))
        XCTAssertTrue(refusal(["--title", "X"]).contains("name the lesson"))
        XCTAssertTrue(refusal(["Lesson9", "Paging", "--title", "X"]).contains("one lesson at a time"))
        try FileManager.default.createDirectory(at: kit.appendingPathComponent("Fixtures/lesson9"), withIntermediateDirectories: true)
        XCTAssertTrue(refusal(["Lesson9", "--title", "X"]).contains("Fixtures/lesson9 already exists"))
        XCTAssertEqual(try regularFiles(under: kit), before, "a refused lesson wrote files")
        var said: [String] = []
        XCTAssertEqual(LabCommandLine.run(["new-lesson", "Lesson2", "--title", "X"]) { said.append($0) }, 2, "a usage error")
        XCTAssertTrue(said.joined().contains("Lesson2 already exists"), said.joined())
    }

    func test_lint_namesEveryPlaceALessonIsMissingFrom() throws {
        _ = try newLesson(["Lesson9", "--title", "Paging"])
        for path in ["Fixtures/lesson9", "Tests/Mutants/Lesson9.json", "Exercises/Lesson9"] {
            try FileManager.default.removeItem(at: kit.appendingPathComponent(path))
        }
        func edit(_ path: String, _ change: (String) -> String) throws {
            let url = kit.appendingPathComponent(path)
            try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("Package.swift") { $0.replacingOccurrences(of: ", \"Lesson9\"]", with: "]") }
        try edit("LESSONS.md") { $0.replacingOccurrences(of: "## 9. Paging", with: "## Nine. Paging") }
        try edit(AutogradingWorkflow.path) { $0.replacingOccurrences(of: ",lesson9", with: "").replacingOccurrences(of: "LESSON9_RESULTS", with: "L9") }
        try edit("Solutions/Lesson9/GreetingClient.swift") { $0.replacingOccurrences(of: "// BEGIN SOLUTION", with: "").replacingOccurrences(of: "// END SOLUTION", with: "") }
        let problems = try LintCommand.findProblems(in: kit).joined(separator: "\n")
        for expected in ["Lesson9: Fixtures/lesson9/ does not exist", "Lesson9: Exercises/Lesson9/ does not exist",
                         "Lesson9: Tests/Mutants/Lesson9.json does not exist", "Lesson9 is not in Package.swift's lessons list",
                         "Lesson9: LESSONS.md has no chapter heading `## 9. …`", "Lesson9: .github/classroom/autograding.yml: the reporter is not given LESSON9_RESULTS",
                         "Lesson9: .github/classroom/autograding.yml: `runners:` does not list lesson9",
                         "Lesson9: no file in Solutions/Lesson9/ has a `// BEGIN SOLUTION` marker"] {
            XCTAssertTrue(problems.contains(expected), "lint does not say \(expected):\n\(problems)")
        }
        try FileManager.default.removeItem(at: kit.appendingPathComponent("Tests/Lesson9Tests"))
        XCTAssertTrue(try LintCommand.findProblems(in: kit).contains("Lesson9: Tests/Lesson9Tests/ does not exist"))
    }
}
