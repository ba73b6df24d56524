import Foundation
import XCTest
@testable import LabKit
@testable import LabMetadata

/// The pieces `lab mutants` and the runner stand on: applying a mutant, mirroring a workspace, reading XCTest's log,
/// and the declaration order that ranks failures.
final class MutantHarnessTests: FolderTestCase {

    func mutant(_ edits: [MutantCatalog.Edit]) -> MutantCatalog.Mutant {
        MutantCatalog.Mutant(id: "m", exercise: "1.3", kind: .mistake, about: "a mistake", edits: edits, expect: nil)
    }

    func test_apply_replacesTheTextThatOccursOnce_andLaterEditsSeeEarlierOnes() throws {
        try write("A.swift", "let method = \"PUT\"\nlet other = 1\n")
        try mutant([.init(file: "A.swift", find: "\"PUT\"", replace: "\"POST\""),
                    .init(file: "A.swift", find: "\"POST\"", replace: "\"PATCH\"")]).apply(in: folder)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("A.swift"), encoding: .utf8), "let method = \"PATCH\"\nlet other = 1\n")
    }

    func test_kindAndGraded_optionsAreChecked_andACorrectOnlyRunSummarisesOnlyThem() throws {
        XCTAssertThrowsError(try MutantsOptions(["Lesson1", "--kind", "wrong"])) { error in
            XCTAssertTrue("\(error)".contains("--kind takes mistake or correct"), "\(error)")
        }
        XCTAssertThrowsError(try MutantsOptions(["Lesson1", "--graded", "--repeat", "2"])) { error in
            XCTAssertTrue("\(error)".contains("leave out --repeat"), "\(error)")
        }
        let options = try MutantsOptions(["Lesson2", "--graded", "--kind", "correct", "--sample", "5", "-j", "3"])
        XCTAssertEqual(options.lessons, ["Lesson2"])
        XCTAssertEqual([options.graded ? "graded" : "", "\(options.choice.kind.map { "\($0)" } ?? "")", "\(options.choice.sample)", "\(options.jobs)"],
                       ["graded", "correct", "5", "3"])
        XCTAssertEqual(MutantsCommand.Tally(lesson: "Lesson1", corrects: 3, rejected: 1).summary,
                       "Lesson1: correct variants rejected 1/3")
        XCTAssertEqual(MutantsCommand.Tally(lesson: "Lesson1", mistakes: 2, caught: 2, namedFirst: 1).summary,
                       "Lesson1: mistakes caught 2/2 (100.0 %), named first 1/2 (50.0 %)")
    }

    /// Lesson 10's `order-and-comparator` was named first in one run and not in the next with the same test failing:
    /// `--repeat` compared only which tests failed, and counted the first run. Now the naming is part of the verdict,
    /// and the worst run counts.
    func test_repeatedRuns_aMistakeMisnamedInOneRun_isUnstableAndNotNamedFirst() {
        let exercise = LessonCatalog.Exercise(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"])
        let lesson = LessonCatalog.Lesson(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [exercise])
        var mistake = mutant([])
        mistake.expect = ["Use PUT"]
        func run(_ message: String) -> Verdict {
            Verdict(mistake, failures: [TestResult(name: "test_a", testClass: "FTests", testModule: "Lesson1Tests", outcome: .failed,
                                                   message: message, lesson: lesson, exercise: exercise)])
        }
        var lines: [String] = []
        let tally = MutantsCommand.tally(lesson, mutants: [mistake], verdicts: [[run("Use PUT here"), run("the order differs")]],
                                         output: { lines.append($0) })
        XCTAssertEqual([tally.caught, tally.namedFirst, tally.unstable], [1, 0, 1], lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("NOT named first") && $0.contains("UNSTABLE") }, lines.joined(separator: "\n"))
        XCTAssertFalse(tally.acceptable)
    }

    func test_apply_refusesTextThatIsMissingOrAmbiguous_namingTheMutant() throws {
        try write("A.swift", "x\nx\n")
        XCTAssertThrowsError(try mutant([.init(file: "A.swift", find: "x", replace: "y")]).apply(in: folder)) { error in
            XCTAssertTrue("\(error)".contains("occurs 2 times"), "\(error)")
        }
        XCTAssertThrowsError(try mutant([.init(file: "A.swift", find: "z", replace: "y")]).apply(in: folder)) { error in
            XCTAssertTrue("\(error)".contains("occurs 0 times"), "\(error)")
        }
        XCTAssertThrowsError(try mutant([.init(file: "B.swift", find: "x", replace: "y")]).apply(in: folder)) { error in
            XCTAssertTrue("\(error)".contains("no file B.swift"), "\(error)")
        }
    }

    func test_mirror_writesOnlyWhatDiffers_andRemovesWhatTheSourceLacks() throws {
        let source = folder.appendingPathComponent("source"), target = folder.appendingPathComponent("target")
        try write("Same.swift", "same", in: source)
        try write("Changed.swift", "new", in: source)
        try write("Same.swift", "same", in: target)
        try write("Changed.swift", "old", in: target)
        try write("Extra.swift", "extra", in: target)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: target.appendingPathComponent("Same.swift").path)
        try Workspace.mirror(source, to: target)
        XCTAssertEqual(try regularFiles(under: target), ["Changed.swift", "Same.swift"])
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("Changed.swift"), encoding: .utf8), "new")
        let date = try FileManager.default.attributesOfItem(atPath: target.appendingPathComponent("Same.swift").path)[.modificationDate] as? Date
        XCTAssertEqual(date, old, "an unchanged file keeps its date, so the workspace's build stays incremental")
    }

    func test_xctestLog_findsTheTestThatStartedButNeverFinished_onLinuxAndDarwin() {
        let linux = """
            Test Case 'CreateTests.test_a' started at 2026-11-23 09:00:00.000
            Test Case 'CreateTests.test_a' passed (0.01 seconds)
            Test Case 'CreateTests.test_b' started at 2026-11-23 09:00:00.010
            """
        XCTAssertEqual(XCTestLog.unfinished(in: linux), ["CreateTests/test_b"])
        let darwin = """
            Test Case '-[Lesson1Tests.CreateTests test_a]' started.
            Test Case '-[Lesson1Tests.CreateTests test_a]' failed (0.010 seconds).
            Test Case '-[Lesson1Tests.CreateTests test_b]' started.
            """
        XCTAssertEqual(XCTestLog.unfinished(in: darwin), ["CreateTests/test_b"])
    }

    func test_declarationOrder_ranksTestsAsWritten_perClass() {
        var order: [String: Int] = [:]
        TestDeclarations.scan("""
            final class ZTests: LabTestCase {
                func test_z_basic() throws {}
                func helper() {}
                func test_a_specific() throws {}
            }
            class ATests: XCTestCase {
                override func setUp() {}
                func test_only() {}
            }
            """, into: &order)
        XCTAssertEqual(order, ["ZTests/test_z_basic": 0, "ZTests/test_a_specific": 1, "ATests/test_only": 0])
    }

    /// A new lesson's empty catalog (what `lab new-lesson` writes) built a mutant copy for a minute and then said
    /// "mistakes caught 0/0 (-)": now it says there is nothing to measure, at once, and builds nothing.
    func test_anEmptyCatalog_saysThereIsNothingToMeasure_withoutBuilding() throws {
        let catalog = LessonCatalog(lessons: [.init(name: "Lesson1", title: "T", chapter: "1", exercises: [
            .init(section: "1.1", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"])])])
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        try write("Tests/Mutants/Lesson1.json", #"{"lesson": "Lesson1", "about": "none yet", "mutants": []}"#)
        let kit = try Kit(root: folder)
        var said: [String] = []
        let started = Date()
        let tally = try MutantsCommand.measure(catalog.lessons[0], kit: kit, choice: .init(), repeats: 1, jobs: 2) { said.append($0) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "it built something")
        XCTAssertTrue(tally.acceptable)
        XCTAssertTrue(said.joined(separator: "\n").contains("nothing to measure: Tests/Mutants/Lesson1.json lists no mutant"), said.joined(separator: "\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: kit.stateFolder.appendingPathComponent(GradingWorkspace.copyName(job: 0)).path))
    }

    /// `lab mutants Lesson1 --only nope` (a typo) measured nothing and exited 0: now it is refused, with a guess.
    func test_onlyNamingNoMutant_isRefused_withAGuess() throws {
        let catalog = LessonCatalog(lessons: [.init(name: "Lesson1", title: "T", chapter: "1", exercises: [
            .init(section: "1.1", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"])])])
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        try write("Tests/Mutants/Lesson1.json", """
            {"lesson": "Lesson1", "about": "x", "mutants": [
              {"id": "thread-uses-post", "exercise": "1.1", "kind": "mistake", "about": "POST",
               "edits": [{"file": "F.swift", "find": "PUT", "replace": "POST"}], "expect": ["PUT"]}]}
            """)
        let kit = try Kit(root: folder)
        XCTAssertNoThrow(try MutantsCommand.checkOnly(nil, lessons: kit.catalog.lessons, kit: kit))
        XCTAssertNoThrow(try MutantsCommand.checkOnly(["thread-uses-post"], lessons: kit.catalog.lessons, kit: kit))
        XCTAssertThrowsError(try MutantsCommand.checkOnly(["thread-uses-pots"], lessons: kit.catalog.lessons, kit: kit)) {
            XCTAssertEqual("\($0)", "--only: no mutant thread-uses-pots in Tests/Mutants/ of Lesson1 (did you mean thread-uses-post?)")
        }
        // `--only <a mistake> --kind correct` measured nothing, exited 0 and advised writing a catalog.
        XCTAssertNoThrow(try MutantsCommand.checkOnly(["thread-uses-post"], kind: .mistake, lessons: kit.catalog.lessons, kit: kit))
        XCTAssertThrowsError(try MutantsCommand.checkOnly(["thread-uses-post"], kind: .correct, lessons: kit.catalog.lessons, kit: kit)) {
            XCTAssertEqual("\($0)", "--only thread-uses-post names a mistake, and --kind correct keeps only correct variants: nothing to measure; leave out one of the two")
        }
    }
}
