import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// `lab check Lesson4` runs Lesson 4 alone; its "Next" must skip a Lesson 5 finished earlier and unchanged since
/// (issue 20), and come back to it once its code changes or a run of it fails.
final class LessonsDoneTests: FolderTestCase {
    var kit: Kit!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let catalog = LessonCatalog(lessons: (1...3).map { n in
            .init(name: "Lesson\(n)", title: "Title \(n)", chapter: "\(n)", exercises: [
                .init(section: "\(n).1", function: "f\(n)()", file: "Exercises/Lesson\(n)/F.swift",
                      testClass: "F\(n)Tests", pointsPerTest: nil, hints: []),
            ])
        })
        try JSONEncoder().encode(catalog).write(to: folder.appendingPathComponent("lessons.json"))
        for n in 1...3 { try write("Exercises/Lesson\(n)/F.swift", "func f\(n)() {}") }
        kit = try Kit(root: folder)
    }

    /// What a run of `lessons` found, every test with `outcome`.
    func results(_ lessons: [Int], _ outcome: TestResult.Outcome) -> LabResults {
        let tests = lessons.map { n in
            TestResult(name: "test_f", testClass: "F\(n)Tests", testModule: "Lesson\(n)Tests", outcome: outcome,
                       message: outcome == .passed ? nil : "wrong", lesson: kit.catalog.lessons[n - 1],
                       exercise: kit.catalog.lessons[n - 1].exercises[0])
        }
        return LabResults(tests: tests, catalog: kit.catalog)
    }

    func lessons(_ numbers: [Int]) -> [LessonCatalog.Lesson] { numbers.map { kit.catalog.lessons[$0 - 1] } }

    func test_next_afterADoneLesson_skipsALaterLessonDoneEarlier() {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        done.record(results([2], .passed), ran: lessons([2]), replaced: [])
        done.record(results([1], .passed), ran: lessons([1]), replaced: [])
        XCTAssertEqual(done.next(after: kit.catalog.lessons[0])?.name, "Lesson3", "Lesson 2 passed on its last run")
    }

    func test_next_whenEveryLaterLessonIsDone_pointsBackToAnUnfinishedEarlierOne_orToNone() {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        done.record(results([2, 3], .passed), ran: lessons([2, 3]), replaced: [])
        XCTAssertEqual(done.next(after: kit.catalog.lessons[1])?.name, "Lesson1")
        done.record(results([1], .passed), ran: lessons([1]), replaced: [])
        XCTAssertNil(done.next(after: kit.catalog.lessons[1]), "every lesson passed")
    }

    func test_aLessonIsForgotten_whenItsCodeChanges() throws {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        done.record(results([2], .passed), ran: lessons([2]), replaced: [])
        try write("Exercises/Lesson2/F.swift", "func f2() { /* edited, longer */ }")
        XCTAssertFalse(done.isDone(kit.catalog.lessons[1]))
        XCTAssertEqual(done.next(after: kit.catalog.lessons[0])?.name, "Lesson2")
    }

    func test_aLessonIsForgotten_whenItsFixturesChange_inTheirLowerCaseFolder() throws {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        try write("Fixtures/lesson2/data.json", "{}")
        done.record(results([2], .passed), ran: lessons([2]), replaced: [])
        try write("Fixtures/lesson2/data.json", "{\"changed\": true}")
        XCTAssertFalse(done.isDone(kit.catalog.lessons[1]))
    }

    func test_aLessonIsForgotten_whenARunOfItFails_orItDidNotCompile() {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        done.record(results([2, 3], .passed), ran: lessons([2, 3]), replaced: [])
        done.record(results([2], .failed), ran: lessons([2]), replaced: [])
        XCTAssertFalse(done.isDone(kit.catalog.lessons[1]))
        done.record(results([3], .passed), ran: lessons([3]), replaced: ["Lesson3"])
        XCTAssertFalse(done.isDone(kit.catalog.lessons[2]), "a lesson graded with its stubs in its place is not done")
    }

    func test_aLessonThatDidNotRun_keepsWhatWasKnown() {
        let done = LessonsDone(kit: kit, codeFolder: "Exercises")
        done.record(results([3], .passed), ran: lessons([3]), replaced: [])
        done.record(results([1], .failed), ran: lessons([1]), replaced: [])
        XCTAssertTrue(done.isDone(kit.catalog.lessons[2]))
    }

    // `lab`'s "Next": a lesson that does not compile ran with its stubs, so it looks "not started".

    func test_progressNext_namesALessonThatDoesNotCompile_beforeALaterUnfinishedOne() {
        let run = results([1, 2, 3], .passed)
        var tests = run.tests
        tests[2].outcome = .notStarted
        let lines = LearnerCommands.nextStep(kit: kit, results: LabResults(tests: tests, catalog: kit.catalog),
                                             replaced: ["Lesson2"], kitIsBroken: false)
        XCTAssertEqual(lines.first, "Next: Lesson 2 does not compile — `swift run lab check Lesson2` shows its errors.")
    }

    func test_progressNext_keepsAnEarlierUnfinishedExercise_beforeALaterLessonThatDoesNotCompile() {
        let lines = LearnerCommands.nextStep(kit: kit, results: results([1, 2, 3], .failed), replaced: ["Lesson3"], kitIsBroken: false)
        XCTAssertEqual(lines.first, "Next: Lesson 1, §1.1 f1() in Exercises/Lesson1/F.swift.")
    }
}
