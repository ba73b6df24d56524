import Foundation
import XCTest
import LabMetadata

final class ResultsTests: XCTestCase {
    let catalog = SampleResults.catalog

    func result(_ name: String, _ testClass: String, _ outcome: TestResult.Outcome) -> TestResult {
        SampleResults.result(name, testClass, outcome)
    }

    func test_totalsCountPointsPerTest_andStatusFollowsExercism() {
        let results = LabResults(tests: [result("t1", "BTests", .passed), result("t2", "ATests", .notStarted), result("t3", "ATests", .passed)],
                                 catalog: catalog)
        XCTAssertEqual(results.score, 3)
        XCTAssertEqual(results.maxScore, 4)
        XCTAssertEqual(results.status, "fail")
        XCTAssertEqual(results.tests.map(\.name), ["t2", "t3", "t1"], "course order: exercise, then name")
        XCTAssertEqual(results.tests[0].status, "fail", "a not-started test is an Exercism fail")
        XCTAssertEqual(results.tests[2].taskID, 2)
        XCTAssertEqual(results.lessons.first?.notStarted, 1)
        XCTAssertEqual(LabResults(tests: [], catalog: catalog, errorMessage: "does not compile").status, "error")
    }

    func test_theFileUsesExercismAndClassroomFieldNames() throws {
        let data = try JSONEncoder().encode(LabResults(tests: [result("t1", "ATests", .notStarted)], catalog: catalog))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["version", "status", "score", "max_score", "tests", "lessons"] { XCTAssertNotNil(json[key], key) }
        let test = try XCTUnwrap((json["tests"] as? [[String: Any]])?.first)
        for key in ["name", "status", "message", "test_code", "task_id", "outcome", "lesson", "exercise", "points", "max_points"] {
            XCTAssertNotNil(test[key], key)
        }
        XCTAssertEqual(test["outcome"] as? String, "not started")
        XCTAssertEqual(test["test_code"] as? String, "Lesson1Tests.ATests/t1")
    }

    func test_recordingReplacesATestsEarlierResult_andKeepsTheOthers() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)/r.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try ResultsFile.record(result("t1", "ATests", .failed), in: file, catalog: catalog)
        try ResultsFile.record(result("t2", "BTests", .passed), in: file, catalog: catalog)
        try ResultsFile.record(result("t1", "ATests", .passed), in: file, catalog: catalog)
        let results = try ResultsFile.read(file)
        XCTAssertEqual(results.tests.map(\.outcome), [.passed, .passed])
        XCTAssertEqual(results.status, "pass")
    }
}
