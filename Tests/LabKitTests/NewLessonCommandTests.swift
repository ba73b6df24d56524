import Foundation
import XCTest
@testable import LabKit
import LabMetadata
import KitTestSupport

/// `lab new-lesson` in a copy of the kit: every place a lesson needs, `lab lint` clean and Exercises/ generated
/// right after it; a bad name or an existing lesson refused with nothing written; and `lab lint` naming each place
/// a lesson is missing from. (That the new lesson builds, passes against its solution and reads "not started"
/// against its stub takes a build: `NewLessonWalkthroughTests`.)
final class NewLessonCommandTests: FolderTestCase {
    var kit: URL!
    /// The lesson added: Lesson9 while the kit has eight (`N` its chapter, `n` its name in lower case).
    var L = "", N = "", n = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        kit = try ScratchKit.copy(to: folder.appendingPathComponent("kit"))
        (L, N) = try ScratchKit.nextLesson()
        n = L.lowercased()
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

    var places: [String] {
        ["Solutions/\(L)/GreetingClient.swift", "Exercises/\(L)/GreetingClient.swift", "Tests/\(L)Tests/\(L)TestCase.swift",
         "Tests/\(L)Tests/FetchGreetingTests.swift", "Fixtures/\(n)/README.md", "Fixtures/\(n)/database.json", "Tests/Mutants/\(L).json"]
    }

    func test_newLesson_isInEveryPlace_andTheKitLintsCleanAtOnce() throws {
        let (status, said) = try newLesson([L, "--title", "Paging \"big\" lists"])
        XCTAssertEqual(status, 0, said)
        for path in places {
            XCTAssertTrue(FileManager.default.fileExists(atPath: kit.appendingPathComponent(path).path), "\(path) was not made")
            XCTAssertTrue(said.contains(path), "the output does not name \(path): \(said)")
        }
        let catalog = try LessonCatalog.load(from: kit.appendingPathComponent("lessons.json"))
        XCTAssertEqual(catalog.lessons.last?.name, L)
        XCTAssertEqual(catalog.lessons.last?.title, "Paging \"big\" lists")
        XCTAssertEqual(catalog.lessons.last?.exercises.map(\.section), ["\(N).1"])
        XCTAssertEqual(LessonPlaces(root: kit).manifestLessons.last, L)
        XCTAssertEqual(try LintCommand.findProblems(in: kit), [], "lab lint is not clean after new-lesson")
        XCTAssertEqual(try ExerciseTree(kitRoot: kit).drift().map { "\($0)" }, [], "Exercises/ is not what Solutions/ generates")
        let stub = try String(contentsOf: kit.appendingPathComponent("Exercises/\(L)/GreetingClient.swift"), encoding: .utf8)
        XCTAssertTrue(stub.contains("completion(.failure(NotImplemented(\"fetchGreeting(completion:)\", section: \"\(N).1\")))"), stub)
        XCTAssertFalse(stub.contains("dataTask"), "the stub holds the solution")
        let workflow = try String(contentsOf: kit.appendingPathComponent(AutogradingWorkflow.path), encoding: .utf8)
        XCTAssertTrue(workflow.contains("- name: \"Lesson \(N) — Paging \\\"big\\\" lists\"\n"), workflow)
        let chapters = try String(contentsOf: kit.appendingPathComponent("LESSONS.md"), encoding: .utf8)
        XCTAssertTrue(chapters.hasSuffix("\n") && chapters.contains("\n\n## \(N). Paging \"big\" lists\n"), String(chapters.suffix(600)))
    }

    func test_badNamesAndExistingLessons_areRefused_withNothingWritten() throws {
        let before = try regularFiles(under: kit)
        XCTAssertTrue(refusal(["Lesson3", "--title", "Again"]).contains("Lesson3 already exists"))
        XCTAssertTrue(refusal(["\(n)", "--title", "X"]).contains("is not a lesson name"))
        XCTAssertTrue(refusal(["Paging", "--title", "X"]).contains("e.g. \(L)"))
        XCTAssertTrue(refusal(["Lesson09", "--title", "X"]).contains("is not a lesson name"))
        XCTAssertTrue(refusal(["Lesson\(Int(N)! + 2)", "--title", "X"]).contains("would leave a gap after Lesson\(Int(N)! - 1): the next lesson is \(L)"),
                      "a lesson after a gap: " + refusal(["Lesson\(Int(N)! + 2)", "--title", "X"]))
        XCTAssertTrue(refusal([L]).contains("give the lesson a title"))
        XCTAssertTrue(refusal([L, "--title", "  "]).contains("give the lesson a title"))
        XCTAssertTrue(refusal(["--title", "X"]).contains("name the lesson"))
        XCTAssertTrue(refusal([L, "Paging", "--title", "X"]).contains("one lesson at a time"))
        try FileManager.default.createDirectory(at: kit.appendingPathComponent("Fixtures/\(n)"), withIntermediateDirectories: true)
        XCTAssertTrue(refusal([L, "--title", "X"]).contains("Fixtures/\(n) already exists"))
        XCTAssertEqual(try regularFiles(under: kit), before, "a refused lesson wrote files")
        var said: [String] = []
        XCTAssertEqual(LabCommandLine.run(["new-lesson", "Lesson2", "--title", "X"]) { said.append($0) }, 2, "a usage error")
        XCTAssertTrue(said.joined().contains("Lesson2 already exists"), said.joined())
    }

    func test_lint_namesEveryPlaceALessonIsMissingFrom() throws {
        _ = try newLesson([L, "--title", "Paging"])
        for path in ["Fixtures/\(n)", "Tests/Mutants/\(L).json", "Exercises/\(L)"] {
            try FileManager.default.removeItem(at: kit.appendingPathComponent(path))
        }
        func edit(_ path: String, _ change: (String) -> String) throws {
            let url = kit.appendingPathComponent(path)
            try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("Package.swift") { $0.replacingOccurrences(of: ", \"\(L)\"]", with: "]") }
        try edit("LESSONS.md") { $0.replacingOccurrences(of: "## \(N). Paging", with: "## Nine. Paging") }
        try edit(AutogradingWorkflow.path) { $0.replacingOccurrences(of: ",\(n)", with: "").replacingOccurrences(of: "\(L.uppercased())_RESULTS", with: "L9") }
        try edit("Solutions/\(L)/GreetingClient.swift") { $0.replacingOccurrences(of: "// BEGIN SOLUTION", with: "").replacingOccurrences(of: "// END SOLUTION", with: "") }
        let problems = try LintCommand.findProblems(in: kit).joined(separator: "\n")
        for expected in ["\(L): Fixtures/\(n)/ does not exist", "\(L): Exercises/\(L)/ does not exist",
                         "\(L): Tests/Mutants/\(L).json does not exist", "\(L) is not in Package.swift's lessons list",
                         "\(L): LESSONS.md has no chapter heading `## \(N). …`", "\(L): .github/classroom/autograding.yml: the reporter is not given \(L.uppercased())_RESULTS",
                         "\(L): .github/classroom/autograding.yml: `runners:` does not list \(n)",
                         "\(L): no file in Solutions/\(L)/ has a `// BEGIN SOLUTION` marker"] {
            XCTAssertTrue(problems.contains(expected), "lint does not say \(expected):\n\(problems)")
        }
        try FileManager.default.removeItem(at: kit.appendingPathComponent("Tests/\(L)Tests"))
        XCTAssertTrue(try LintCommand.findProblems(in: kit).contains("\(L): Tests/\(L)Tests/ does not exist"))
    }

    /// A pointsPerTest of 0 or less in lessons.json went through lint and graded learners with 0 or negative points.
    func test_lint_refusesPointsPerTestOfZeroOrLess() throws {
        let url = kit.appendingPathComponent("lessons.json")
        var catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var lessons = catalog["lessons"] as! [[String: Any]]
        var exercises = lessons[0]["exercises"] as! [[String: Any]]
        exercises[0]["pointsPerTest"] = -1
        exercises[1]["pointsPerTest"] = 0
        lessons[0]["exercises"] = exercises
        catalog["lessons"] = lessons
        try JSONSerialization.data(withJSONObject: catalog).write(to: url)
        let problems = try LintCommand.findProblems(in: kit).joined(separator: "\n")
        XCTAssertTrue(problems.contains("Lesson1 §1.3 createMessageThread(title:completion:): pointsPerTest is -1.0; it must be above 0"), problems)
        XCTAssertTrue(problems.contains("Lesson1 §1.4 createMessage(messageThread:text:sender:completion:): pointsPerTest is 0.0; it must be above 0"), problems)
    }

    /// Two exercises with one section, or one test class for two exercises, passed lint (the second exercise got no
    /// test, or shared the first's hints).
    func test_lint_namesADuplicateSectionOrTestClass() throws {
        let url = kit.appendingPathComponent("lessons.json")
        var catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var lessons = catalog["lessons"] as! [[String: Any]]
        var first = lessons[0]["exercises"] as! [[String: Any]]
        first[1]["section"] = first[0]["section"]
        lessons[0]["exercises"] = first
        var second = lessons[1]["exercises"] as! [[String: Any]]
        second[1]["testClass"] = second[0]["testClass"]
        lessons[1]["exercises"] = second
        catalog["lessons"] = lessons
        try JSONSerialization.data(withJSONObject: catalog).write(to: url)
        let problems = try LintCommand.findProblems(in: kit).joined(separator: "\n")
        XCTAssertTrue(problems.contains("Lesson1: 2 exercises are §1.3; each needs a section of its own"), problems)
        XCTAssertTrue(problems.contains("Lesson2: \(second[0]["testClass"]!) grades 2 exercises (§\(second[0]["section"]!), §\(second[1]["section"]!)); only the first would get its tests"), problems)
    }
}
