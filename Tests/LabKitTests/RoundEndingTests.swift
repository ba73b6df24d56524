import Foundation
import XCTest
import LabMetadata
@testable import LabKit

/// A test process that ends after one test reported and before the next started was ended by work a test left
/// running: the tests that never ran are not charged for it (they run again), whereas a process that ends during a
/// test charges that test.
final class RoundEndingTests: XCTestCase {
    let exercise = LessonCatalog.Exercise(section: "8.1", function: "listen", file: "Listener.swift", testClass: "ATests",
                                          pointsPerTest: 1, hints: [])
    var lesson: LessonCatalog.Lesson { LessonCatalog.Lesson(name: "Lesson8", title: "", chapter: "8", exercises: [exercise]) }

    func round(lastStarted: String?, reported: [String], status: Int32 = 134, killed: String? = nil) -> TestRound {
        var round = TestRound(status: status, killed: killed, output: "")
        round.lastStarted = lastStarted
        for key in reported {
            let parts = key.split(separator: "/").map(String.init)
            round.verified[key] = TestResult(name: parts[1], testClass: parts[0], testModule: "Lesson8Tests", outcome: .passed,
                                             message: nil, lesson: lesson, exercise: exercise)
        }
        return round
    }

    func test_aProcessEndingAfterATestReported_isNamedAfterThatTest() {
        let ended = round(lastStarted: "ATests/test_a", reported: ["ATests/test_a"])
        XCTAssertEqual(LessonRun.endedBetweenTests(ended, unreported: ["ATests/test_b", "ATests/test_c"]), "ATests/test_a")
    }

    func test_aProcessEndingDuringATest_isNotBetweenTests() {
        let ended = round(lastStarted: "ATests/test_b", reported: ["ATests/test_a"])
        XCTAssertNil(LessonRun.endedBetweenTests(ended, unreported: ["ATests/test_b", "ATests/test_c"]),
                     "test_b started and never reported: it is the culprit, not a test before it")
    }

    func test_aProcessStoppedForTime_isNotBetweenTests() {
        let stopped = round(lastStarted: "ATests/test_a", reported: ["ATests/test_a"], status: 9, killed: "time limit")
        XCTAssertNil(LessonRun.endedBetweenTests(stopped, unreported: ["ATests/test_b"]),
                     "a process stopped for time is charged as stuck, not run again")
    }

    func test_aProcessEndingBeforeAnyTest_orAfterAll_isNotBetweenTests() {
        XCTAssertNil(LessonRun.endedBetweenTests(round(lastStarted: nil, reported: []), unreported: ["ATests/test_a"]))
        XCTAssertNil(LessonRun.endedBetweenTests(round(lastStarted: "ATests/test_a", reported: ["ATests/test_a"]), unreported: []))
    }
}
