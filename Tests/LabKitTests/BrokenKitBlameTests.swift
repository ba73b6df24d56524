import Foundation
import XCTest
@testable import LabKit
import LabMetadata
import LabTestSupport

/// `lab check` blames the kit, not the learner, for a fixture the kit cannot read (issue 19): not "0 of 33, in
/// progress" with a hint, but "the kit itself is broken: <the fixture's message> — this is not your code". The
/// messages are the real ones `Fixtures` throws, so a change of their words cannot silently undo this.
final class BrokenKitBlameTests: FolderTestCase {
    /// `Fixtures/<path>` for a file of this test's folder: the path from Fixtures/ up to it.
    func fixturePath(_ name: String) -> String {
        let depth = Fixtures.folder.standardizedFileURL.pathComponents.count - 1
        return String(repeating: "../", count: depth) + folder.appendingPathComponent(name).path.dropFirst()
    }

    /// The messages `Fixtures` throws for a missing file, a file that is not JSON, and one that does not decode.
    func realFixtureErrors() throws -> [String] {
        try "{\"threads\": ".write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try "{}".write(to: folder.appendingPathComponent("empty.json"), atomically: true, encoding: .utf8)
        struct Thread: Decodable { let title: String }
        var messages: [String] = []
        for load in [{ _ = try Fixtures.data(self.fixturePath("missing.json")) },
                     { _ = try Fixtures.json(self.fixturePath("broken.json")) },
                     { _ = try Fixtures.decode(Thread.self, from: self.fixturePath("empty.json")) }] {
            XCTAssertThrowsError(try load()) { messages.append("\($0)") }
        }
        XCTAssertEqual(messages.count, 3)
        return messages
    }

    func test_everyFixtureErrorTheKitThrows_isTheKits_andQuotedWithoutXCTestsQuotes() throws {
        for message in try realFixtureErrors() {
            XCTAssertEqual(KitFault.fixtureFailure(in: message), message, "not recognised as the kit's: \(message)")
            XCTAssertEqual(KitFault.fixtureFailure(in: "threw error \"\(message)\""), message, "XCTest's quotes were kept")
        }
    }

    func test_theLearnersOwnMistakes_areNot() {
        XCTAssertNil(KitFault.fixtureFailure(in: "The stored message should be exactly the message you sent"))
        XCTAssertNil(KitFault.fixtureFailure(in: nil))
        XCTAssertNil(KitFault.fixtureFailure(in: "your body does not decode as the fixture Fixtures/ says"))
    }

    /// A one-lesson kit of two exercises (with hints), and results of its tests.
    func report(_ outcomes: [(String, String, TestResult.Outcome, String?)]) throws -> String {
        let catalog = LessonCatalog(lessons: [
            .init(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [
                .init(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["a hint for the learner"]),
                .init(section: "1.4", function: "g()", file: "G.swift", testClass: "GTests", pointsPerTest: nil, hints: ["another hint"]),
            ]),
        ])
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        let kit = try Kit(root: folder)
        let lesson = catalog.lessons[0]
        let tests = outcomes.map { name, testClass, outcome, message -> TestResult in
            let (lesson, exercise) = catalog.exercise(forTestClass: testClass)!
            return TestResult(name: name, testClass: testClass, testModule: "Lesson1Tests", outcome: outcome, message: message,
                              lesson: lesson, exercise: exercise)
        }
        let outcome = LessonRun.Outcome(results: LabResults(tests: tests, catalog: catalog), buildErrors: [], log: "")
        return CheckReport(kit: kit, lesson: lesson, outcome: outcome).text
    }

    func test_check_withABrokenFixture_blamesTheKit_withNoScoreProgressOrHintForTheLearner() throws {
        let broken = try realFixtureErrors()[1]
        let text = try report([("test_a", "FTests", .failed, "threw error \"\(broken)\""),
                               ("test_b", "FTests", .failed, "threw error \"\(broken)\""),
                               ("test_c", "GTests", .failed, "threw error \"\(broken)\"")])
        XCTAssertTrue(text.contains("The kit itself is broken: \(broken) — this is not your code"), text)
        XCTAssertTrue(text.contains("Tell your instructor, or re-clone the kit"), text)
        XCTAssertTrue(text.contains("not checked — the kit itself is broken (3 of 3 tests"), text)
        for learnerFacing in ["0 of 2 points", "in progress", "Hint", "a hint for the learner", "First failure"] {
            XCTAssertFalse(text.contains(learnerFacing), "the report still aims \"\(learnerFacing)\" at the learner:\n\(text)")
        }
        XCTAssertEqual(text.components(separatedBy: "the kit is broken, not your code").count - 1, 2, "each exercise's row: \(text)")
    }

    func test_check_withOneExerciseOnABrokenFixture_keepsTheOthersProgress() throws {
        let missing = try realFixtureErrors()[0]
        let text = try report([("test_a", "FTests", .passed, nil),
                               ("test_c", "GTests", .failed, "threw error \"\(missing)\"")])
        XCTAssertTrue(text.contains("1.3 f()  1/1 tests  done"), text)
        XCTAssertTrue(text.contains("1.4 g()  0/1 tests  the kit is broken, not your code"), text)
        XCTAssertTrue(text.contains("The kit itself is broken: \(missing) — this is not your code"), text)
        XCTAssertFalse(text.contains("another hint"), text)
    }

    func test_check_withTheLearnersOwnFailure_stillGivesTheFailureAndTheHint() throws {
        let text = try report([("test_a", "FTests", .failed, "the request was a POST; a PUT was expected"),
                               ("test_c", "GTests", .passed, nil)])
        XCTAssertTrue(text.contains("0 of 2 points") || text.contains("1 of 2 points"), text)
        XCTAssertTrue(text.contains("a hint for the learner"), text)
        XCTAssertFalse(text.contains("kit itself is broken"), text)
    }

    /// lessons.json naming a test class that does not exist (a typo while adding a lesson): that exercise has no
    /// test at all, and the report said "All 1 tests pass: Lesson 1 is done" — for a lesson with an exercise unchecked.
    func test_check_withAnExerciseNoTestRanFor_isNotDone_andPointsToLint() throws {
        let text = try report([("test_c", "GTests", .passed, nil)])
        XCTAssertFalse(text.contains("is done"), text)
        XCTAssertTrue(text.contains("1.3 f()  0/0 tests  no tests ran"), text)
        XCTAssertTrue(text.contains("No test of §1.3 f() ran: lessons.json says FTests grades it"), text)
        XCTAssertTrue(text.contains("`swift run lab lint`"), text)
    }

    /// lessons.json naming a test class Tests/ lacks: the reference check passed on the tests that remained, and a
    /// learner with half of Lesson 1 done was graded 18/18. `lab grade` now stops and blames the kit.
    func test_grade_withAnExerciseNoTestGrades_blamesTheKit() throws {
        let catalog = LessonCatalog(lessons: [
            .init(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [
                .init(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"]),
                .init(section: "1.4", function: "g()", file: "G.swift", testClass: "GTypoTests", pointsPerTest: nil, hints: ["h"]),
            ]),
        ])
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        try write("Tests/Lesson1Tests/Tests.swift", """
            final class FTests: LabTestCase {
                func test_f() throws {}
            }
            final class GTests: LabTestCase {
                func test_g() throws {}
            }
            """)
        let kit = try Kit(root: folder)
        let said = try XCTUnwrap(GradingWorkspace.exercisesWithoutTests(of: kit.catalog.lessons, kit: kit))
        XCTAssertTrue(said.hasPrefix("The kit itself is broken, so nothing was graded: no test grades §1.4 g() (lessons.json: GTypoTests, which Tests/Lesson1Tests does not declare)"), said)
        XCTAssertTrue(said.contains("`swift run lab lint`"), said)
        XCTAssertNil(GradingWorkspace.exercisesWithoutTests(of: [], kit: kit), "a lesson not graded is not checked")
        var corrected = catalog
        corrected.lessons[0].exercises[1].testClass = "GTests"
        try JSONEncoder().encode(corrected).write(to: folder.appendingPathComponent("lessons.json"))
        let fixed = try Kit(root: folder)
        XCTAssertNil(GradingWorkspace.exercisesWithoutTests(of: fixed.catalog.lessons, kit: fixed))
    }

    /// A graded lesson without Solutions/<lesson>/: the kit was blamed, but with "First: no Exercises/Lesson1: graded
    /// as not started" — the folder named was the wrong one. The missing folder is named now, before anything is graded.
    func test_grade_withALessonsSolutionsFolderMissing_namesThatFolder() throws {
        let catalog = LessonCatalog(lessons: [
            .init(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [
                .init(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"]),
            ]),
            .init(name: "Lesson2", title: "Codable", chapter: "2", exercises: [
                .init(section: "2.1", function: "g()", file: "G.swift", testClass: "GTests", pointsPerTest: nil, hints: ["h"]),
            ]),
        ])
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        try write("Solutions/Lesson2/G.swift", "let g = 1")
        let kit = try Kit(root: folder)
        let said = try XCTUnwrap(GradingWorkspace.lessonsWithoutSolutions(of: kit.catalog.lessons, kit: kit))
        XCTAssertTrue(said.hasPrefix("The kit itself is broken, so nothing was graded: Solutions/Lesson1/ does not exist"), said)
        XCTAssertFalse(said.contains("Exercises/"), said)
        XCTAssertNil(GradingWorkspace.lessonsWithoutSolutions(of: [kit.catalog.lessons[1]], kit: kit), "Lesson2 has its folder")
    }

    /// lessons.json listing a lesson twice stopped `lab grade` with a Swift stack trace (a Dictionary's duplicate
    /// key, in the class report), and a pointsPerTest of -1 graded a learner -20/0: only `lab lint` said so. Every
    /// command that loads the kit now refuses it, in one line naming each problem.
    func test_aCatalogThatContradictsItself_isRefusedByEveryCommand_notGradedWith() throws {
        let exercise = LessonCatalog.Exercise(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["h"])
        var negative = exercise
        negative.pointsPerTest = -1
        let lesson = LessonCatalog.Lesson(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [exercise])
        for (catalog, expected) in [
            (LessonCatalog(lessons: [lesson, lesson]), "Lesson1 is listed twice"),
            (LessonCatalog(lessons: [.init(name: "Lesson1", title: "t", chapter: "1", exercises: [negative])]),
             "Lesson1 §1.3 f(): pointsPerTest is -1.0; it must be above 0"),
        ] {
            XCTAssertTrue(catalog.contradictions.contains { $0.hasPrefix(expected) }, "\(catalog.contradictions)")
            try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
            XCTAssertThrowsError(try Kit(root: folder)) { error in
                XCTAssertTrue("\(error)".hasPrefix("lessons.json contradicts itself: \(expected)"), "\(error)")
                XCTAssertTrue("\(error)".contains("`swift run lab lint`"), "\(error)")
            }
        }
        try JSONEncoder().encode(LessonCatalog(lessons: [lesson])).write(to: folder.appendingPathComponent("lessons.json"))
        XCTAssertNoThrow(try Kit(root: folder))
    }
}
