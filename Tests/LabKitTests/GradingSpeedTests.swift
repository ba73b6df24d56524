import Foundation
import XCTest
@testable import LabKit
@testable import LabMetadata

/// What keeps grading fast without changing a verdict: how a run's tests are shared out among processes
/// (`TestSchedule`), the times it learns from XCTest's output, and the order a class is graded in (`GradingOrder`).
final class GradingSpeedTests: FolderTestCase {

    func test_schedule_cutsAnExerciseIntoPiecesOfAboutASecond_inDeclarationOrder_longestFirst_sharingProcesses() {
        let schedule = TestSchedule(seconds: ["A/a1": 0.6, "A/a2": 0.6, "A/a3": 0.3, "B/b1": 0.01, "B/b2": 0.01])
        let order = ["A/a1": 0, "A/a2": 1, "A/a3": 2, "B/b1": 3, "B/b2": 4]
        let pieces = schedule.pieces(of: ["B/b2", "A/a3", "A/a1", "B/b1", "A/a2"], exercise: { String($0.prefix(1)) },
                                     order: order)
        XCTAssertEqual(pieces, [["A/a2", "A/a3", "B/b1", "B/b2"], ["A/a1"]],
                       "A's 1.5 s is cut in two (0.6 s, then 0.9 s, the longer first); B's quick tests stay together, in the first process with room for them")
    }

    func test_schedule_withNoTimesKnown_stillCutsLongExercises() {
        let tests = (1...10).map { "A/t\($0)" }
        let pieces = TestSchedule(seconds: [:]).pieces(of: tests, exercise: { _ in "A" },
                                                       order: Dictionary(uniqueKeysWithValues: tests.enumerated().map { ($1, $0) }))
        XCTAssertEqual(pieces.flatMap { $0 }.sorted(), tests.sorted(), "every test runs exactly once")
        XCTAssertEqual(pieces.map(\.count), [3, 3, 3, 1], "unknown tests count \(TestSchedule.unknown) s each")
    }

    func test_schedule_expectsTheTestsOfAStubbedExercise_toFailAtOnce_soTheyShareAProcess() {
        let tests = (1...17).map { "A/t\($0)" } + (1...16).map { "B/t\($0)" }
        var schedule = TestSchedule(seconds: ["A/t1": 0.4])
        schedule.notStarted = ["A", "B"]
        let pieces = schedule.pieces(of: tests, exercise: { String($0.prefix(1)) },
                                     order: Dictionary(uniqueKeysWithValues: tests.enumerated().map { ($1, $0) }))
        XCTAssertEqual(pieces.map(\.count), [17, 16],
                       "33 tests on their stubs (\(TestSchedule.notStartedSeconds) s each, whatever A/t1 took when it passed): a process per exercise, not one per \(TestSchedule.unknown) s test")
        schedule.notStarted = ["B"]
        XCTAssertEqual(schedule.pieces(of: tests, exercise: { String($0.prefix(1)) },
                                       order: Dictionary(uniqueKeysWithValues: tests.enumerated().map { ($1, $0) })).count, 7,
                       "A started: its tests are cut as before (0.4 s, then \(TestSchedule.unknown) s each: six pieces); B's 16 stay one")
    }

    func test_stubbedExercises_areThoseWhoseStubLineIsStillInTheCode_notInAComment() throws {
        let exercise = { (section: String, function: String) in
            LessonCatalog.Exercise(section: section, function: function, file: "", testClass: "\(section)Tests", pointsPerTest: nil, hints: [])
        }
        let lesson = LessonCatalog.Lesson(name: "Lesson1", title: "", chapter: "1", exercises: [
            exercise("1.1", "a(completion:)"), exercise("1.2", "b(completion:)"), exercise("1.3", "c()"), exercise("1.4", "d and e"),
        ])
        try write("Exercises/Lesson1/A.swift", """
            func a(completion: (Error?) -> Void) {
                _ = 1  // a line of the learner's, above the stub's
                completion(NotImplemented("a(completion:)", section: "1.1"))
            }
            func b(completion: (Error?) -> Void) {
                // completion(NotImplemented("b(completion:)", section: "1.2"))
                completion(nil)
            }
            """)
        try write("Exercises/Lesson1/Sub/C.swift", "func c() throws { throw NotImplemented(\"c()\", section: \"1.3\") }\n")
        XCTAssertEqual(TestSchedule.stubbedExercises([lesson], codeIn: folder.appendingPathComponent("Exercises")), ["1.1", "1.3"],
                       "b's stub is a comment now; d and e are two functions, no one stub")
        XCTAssertEqual(TestSchedule.stubbedExercises([lesson], codeIn: folder.appendingPathComponent("Solutions")), [],
                       "no code there: nothing is known to be a stub")
    }

    func test_passedTimes_readLinuxAndDarwinLines_andIgnoreFailures() {
        let log = """
            Test Case 'CreateMessageTests.test_a' started at 2026-11-23 16:05:18.533
            Test Case 'CreateMessageTests.test_a' passed (0.381 seconds)
            Test Case '-[Lesson8Tests.ForumListenerTests test_b]' passed (0.834 seconds).
            Test Case 'CreateMessageTests.test_c' failed (2.001 seconds)
            """
        XCTAssertEqual(XCTestLog.passedTimes(in: log), ["CreateMessageTests/test_a": 0.381, "ForumListenerTests/test_b": 0.834])
    }

    func test_learnedTimes_areKeptForTheNextRun() {
        let file = folder.appendingPathComponent("test-times.json")
        var schedule = TestSchedule(file: file)
        XCTAssertEqual(schedule.seconds, [:], "no file yet: nothing known")
        schedule.learn(from: "Test Case 'A.test_x' passed (0.5 seconds)", keepingIn: file)
        XCTAssertEqual(TestSchedule(file: file).seconds, ["A/test_x": 0.5])
        try? "not json".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(TestSchedule(file: file).seconds, [:], "an unreadable file is ignored, never an error")
    }

    func test_gradingOrder_putsLearnersWithTheSameLaterLessonsTogether_andKeepsEveryone() throws {
        let lessons = ["Lesson1", "Lesson2"].map { LessonCatalog.Lesson(name: $0, title: $0, chapter: "1", exercises: []) }
        // 0 and 2 have the stubs in Lesson 2; 1 and 3 solved it.
        let code = [("a", "stub"), ("b", "solved"), ("c", "stub"), ("d", "solved")]
        var checkouts: [URL] = []
        for (index, (lesson1, lesson2)) in code.enumerated() {
            let checkout = folder.appendingPathComponent("learner-\(index)")
            try write("Exercises/Lesson1/A.swift", "// \(lesson1)\n", in: checkout)
            try write("Exercises/Lesson2/B.swift", "// \(lesson2)\n", in: checkout)
            checkouts.append(checkout)
        }
        let order = GradingOrder.grouped(checkouts, lessons: lessons)
        XCTAssertEqual(order.sorted(), [0, 1, 2, 3], "every learner is graded once")
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        XCTAssertEqual(abs(position[0]! - position[2]!), 1, "the two with Lesson 2's stubs are graded one after the other: \(order)")
        XCTAssertEqual(abs(position[1]! - position[3]!), 1, "so are the two who solved it: \(order)")
    }

    func test_sandbox_hidesFewerFolders_neverTheWholeRoot() {
        let class20 = (1...20).map { "/home/teacher/class/learner-\($0)" }
        XCTAssertEqual(Sandbox.covering(["/work/kit", "/work/kit/.lab/grading"] + class20 + ["/srv/report"]),
                       ["/home/teacher/class", "/srv/report", "/work/kit"],
                       "a folder inside another is dropped; checkouts side by side become their folder")
        XCTAssertEqual(Sandbox.covering(["/a", "/b", "/"]), ["/a", "/b"], "never / itself")
    }

    func test_quickBuild_readsAndWritesResponseFileWords() {
        XCTAssertEqual(SwiftPMProduct.unquoted("/plain/path.o"), "/plain/path.o")
        XCTAssertEqual(SwiftPMProduct.unquoted("'/with space/it'\\''s.o'"), "/with space/it's.o")
        XCTAssertEqual(SwiftPMProduct.unquoted(#""/with \"quote\".o""#), #"/with "quote".o"#)
        XCTAssertEqual(QuickBuild.quoted(#"/a b/c"d\e.o"#), #""/a b/c\"d\\e.o""#)
    }
}
