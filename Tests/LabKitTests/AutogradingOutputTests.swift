import Foundation
import XCTest
@testable import LabKit
@testable import LabMetadata

/// The results `lab grade` hands to autograding, read back the way the graders read them: GitHub's autograding
/// reporter (its summing rule) and Classroom 50's result schema. Fixtures/graders/README.md quotes both, with their
/// sources.
final class AutogradingOutputTests: XCTestCase {
    let catalog = SampleResults.catalog

    func result(_ name: String, _ testClass: String, _ outcome: TestResult.Outcome) -> TestResult {
        SampleResults.result(name, testClass, outcome, placed: true)
    }

    /// 3 of 6: one test of each exercise passed (1 + 2), one of each did not.
    var mixed: LabResults {
        LabResults(tests: [result("t1", "ATests", .passed), result("t2", "BTests", .passed), result("t3", "BTests", .failed),
                           result("t4", "ATests", .notStarted)], catalog: catalog)
    }

    /// The reporter's rule (notify-classroom.js): skip a runner without `max_score`, else add its `max_score` and
    /// each of its `tests[].score`. nil where JavaScript would add `undefined` and print "Points NaN/N".
    func reporterTotals(_ runners: [[String: Any]]) -> (total: Double?, max: Double) {
        var total: Double? = 0, maxPoints = 0.0
        for results in runners {
            guard let max = results["max_score"] as? Double, max != 0 else { continue }
            maxPoints += max
            for test in results["tests"] as? [[String: Any]] ?? [] {
                total = (test["score"] as? Double).flatMap { score in total.map { $0 + score } }
            }
        }
        return (total, maxPoints)
    }

    /// What the reporter does with `<RUNNER>_RESULTS`: base64-decode, JSON.parse.
    func decodeOutput(_ file: URL) throws -> [[String: Any]] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("result=") }
        return try lines.map { line in
            let data = try XCTUnwrap(Data(base64Encoded: String(line.dropFirst("result=".count))), "not base64: \(line)")
            XCTAssertFalse(data.contains(UInt8(ascii: "\n")), "the JSON is not compact")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    func test_eachTestCarriesScoreMaxScoreFilenameAndLine_besideTodaysFields() throws {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(mixed)) as? [String: Any])
        let first = try XCTUnwrap((json["tests"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["score"] as? Double, 1)
        XCTAssertEqual(first["max_score"] as? Double, 1)
        XCTAssertEqual(first["points"] as? Double, 1)
        XCTAssertEqual(first["max_points"] as? Double, 1)
        XCTAssertEqual(first["filename"] as? String, "Tests/Lesson1Tests/ATests.swift")
        XCTAssertEqual(first["line_no"] as? Int, 7)
    }

    func test_githubOutput_decodedAsTheReporterDoes_sumsToThePointsEarned() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("github-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try "earlier=step\n".write(to: file, atomically: true, encoding: .utf8)
        try GitHubOutput.append(mixed, to: file)
        try GitHubOutput.append(LabResults(tests: [result("t1", "ATests", .passed)], catalog: catalog), to: file)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix("earlier=step\n"), "another step's output was lost")
        let runners = try decodeOutput(file)
        XCTAssertEqual(runners.count, 2)
        let totals = reporterTotals(runners)
        XCTAssertEqual(totals.total, 4, "the reporter would read Points \(totals.total.map { "\($0)" } ?? "NaN")/\(totals.max)")
        XCTAssertEqual(totals.max, 7)
        XCTAssertEqual(runners[0]["status"] as? String, "fail", "the reporter fails the job on status fail")
        XCTAssertEqual(runners[1]["status"] as? String, "pass")
    }

    func test_anErrorResult_keepsTheWholeMaximum_soTheReporterCountsIt() throws {
        let failed = LabResults(tests: [result("t1", "ATests", .failed), result("t2", "BTests", .failed)], catalog: catalog,
                                errorMessage: "the kit is broken")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("github-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try GitHubOutput.append(failed, to: file)
        let runners = try decodeOutput(file)
        XCTAssertEqual(runners.first?["status"] as? String, "error")
        let totals = reporterTotals(runners)
        XCTAssertEqual(totals.total, 0)
        XCTAssertEqual(totals.max, 3)
    }

    let classroom50Environment = [
        "CLASSROOM": "ios101", "ASSIGNMENT": "rest-lab", "SUBMISSION_TAG": "submit/20261123T120000Z-abc1234",
        "USERNAME": "ada", "ASSIGNMENT_TYPE": "individual", "COMMIT_URL": "https://github.com/o/r/commit/abc",
        "RELEASE_URL": "https://github.com/o/r/releases/tag/submit%2F1", "REVIEW_URL": "https://github.com/o/r/compare/a...b",
    ]

    func test_classroom50Result_validatesAgainstTheResultV1Schema() throws {
        let document = try Classroom50Result(results: mixed, environment: classroom50Environment)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any])
        XCTAssertEqual(Classroom50Schema.violations(of: json), [])
        XCTAssertEqual(json["score"] as? Int, 3)
        XCTAssertEqual(json["max-score"] as? Int, 6)
        XCTAssertEqual(json["owner"] as? String, "ada", "OWNER falls back to USERNAME")
        let tests = try XCTUnwrap(json["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.map { $0["passed"] as? Bool }, [true, false, true, false])
        XCTAssertEqual(tests.map { $0["score"] as? Int }, [1, 0, 2, 0])
    }

    func test_classroom50Schema_rejectsWhatItForbids() {
        // The validator itself: a check that passes everything proves nothing.
        var bad: [String: Any] = ["schema": "classroom50/result/v1", "score": 3, "max-score": 2, "tests": [["test-name": "", "passed": 1, "score": -1, "max-score": 1]],
                                  "datetime": "2026-11-23 12:00", "submission": "v1", "extra": true]
        for key in ["classroom", "assignment", "owner", "commit", "release", "review"] { bad[key] = "x" }
        bad["assignment_type"] = "solo"
        let found = Classroom50Schema.violations(of: bad)
        for expected in ["extra", "assignment_type", "datetime", "submission", "score > max-score", "tests[0].test-name",
                         "tests[0].passed", "tests[0].score"] {
            XCTAssertTrue(found.contains { $0.contains(expected) }, "no violation named \(expected): \(found)")
        }
    }

    func test_classroom50Result_refusesMissingIdentity_andFractionalPoints() {
        var environment = classroom50Environment
        environment["SUBMISSION_TAG"] = nil
        XCTAssertThrowsError(try Classroom50Result(results: mixed, environment: environment)) {
            XCTAssertTrue("\($0)".contains("SUBMISSION_TAG"), "\($0)")
        }
        var halves = catalog
        halves.lessons[0].exercises[0].pointsPerTest = 0.5
        let (lesson, exercise) = halves.exercise(forTestClass: "ATests")!
        let half = TestResult(name: "t", testClass: "ATests", testModule: "Lesson1Tests", outcome: .passed, message: nil,
                              lesson: lesson, exercise: exercise)
        XCTAssertThrowsError(try Classroom50Result(results: LabResults(tests: [half], catalog: halves), environment: classroom50Environment)) {
            XCTAssertTrue("\($0)".contains("whole points"), "\($0)")
        }
    }

    func test_gradeOptions_readJobsLessonsAndOutputs() throws {
        XCTAssertEqual(try GradeOptions(["a", "-j3"]).jobs, 3)
        XCTAssertEqual(try GradeOptions(["-j", "2", "a"]).jobs, 2)
        XCTAssertEqual(try GradeOptions(["a"]).jobs, ProcessInfo.processInfo.activeProcessorCount, "default: the cores")
        XCTAssertEqual(try GradeOptions(["a", "--lesson", "1,Lesson2", "--lesson", "L3"]).lessons, ["1", "Lesson2", "L3"])
        let ci = try GradeOptions([".", "--lesson", "Lesson1", "--github-output"])
        XCTAssertTrue(ci.githubOutput && ci.forAutograder)
        XCTAssertThrowsError(try GradeOptions(["a", "b", "--github-output"]), "two learners in one autograding result")
        XCTAssertThrowsError(try GradeOptions(["a", "-j0"]))
        XCTAssertThrowsError(try GradeOptions(["a", "--classroom50"]))
    }

    /// `--lesson ""` (an empty shell variable) graded every lesson, minutes of them, without a word.
    func test_gradeOptions_refuseALessonOptionThatNamesNoLesson() {
        for empty in ["", ",", " ", "1, "] {
            XCTAssertThrowsError(try GradeOptions(["a", "--lesson", empty]), "--lesson '\(empty)'") {
                XCTAssertTrue("\($0)".contains("--lesson needs a lesson"), "\($0)")
            }
        }
        XCTAssertEqual(try GradeOptions(["a", "--lesson", "1, 2"]).lessons, ["1", "2"])
    }

    /// GITHUB_OUTPUT or Classroom 50's identity missing was said only after the whole grading: now before it.
    func test_autograderOutputs_missingTheirEnvironment_areRefusedBeforeGrading() throws {
        XCTAssertThrowsError(try GradeOutputs.checkEnvironment(GradeOptions([".", "--github-output"]), catalog: catalog, environment: [:])) {
            XCTAssertTrue("\($0)".contains("GITHUB_OUTPUT is not set") && "\($0)".contains("nothing was graded"), "\($0)")
        }
        XCTAssertNoThrow(try GradeOutputs.checkEnvironment(GradeOptions([".", "--github-output"]), catalog: catalog,
                                                           environment: ["GITHUB_OUTPUT": "/tmp/out"]))
        var environment = classroom50Environment
        environment["RELEASE_URL"] = nil
        XCTAssertThrowsError(try GradeOutputs.checkEnvironment(GradeOptions([".", "--classroom50", "r.json"]), catalog: catalog,
                                                               environment: environment)) {
            XCTAssertTrue("\($0)".contains("RELEASE_URL is not set") && "\($0)".contains("nothing was graded"), "\($0)")
        }
        XCTAssertNoThrow(try GradeOutputs.checkEnvironment(GradeOptions([".", "--classroom50", "r.json"]), catalog: catalog,
                                                           environment: classroom50Environment))
        XCTAssertNoThrow(try GradeOutputs.checkEnvironment(GradeOptions(["a", "b"]), catalog: catalog, environment: [:]))
        // Half a point a test: refused at the end of the grading, with no result.json for the runner; now before it.
        var halves = catalog
        halves.lessons[0].exercises[0].pointsPerTest = 0.5
        XCTAssertThrowsError(try GradeOutputs.checkEnvironment(GradeOptions([".", "--classroom50", "r.json"]), catalog: halves,
                                                               environment: classroom50Environment)) {
            XCTAssertTrue("\($0)".contains("Classroom 50 takes whole points") && "\($0)".contains("0.5 a test")
                          && "\($0)".contains("nothing was graded"), "\($0)")
        }
        XCTAssertNoThrow(try GradeOutputs.checkEnvironment(GradeOptions([".", "--github-output"]), catalog: halves,
                                                           environment: ["GITHUB_OUTPUT": "/tmp/out"]), "GitHub's reporter sums fractions")
    }

    /// `--out` naming a file printed Foundation's `Error Domain=NSCocoaErrorDomain Code=516 …`, after the kit's check.
    func test_outFolder_thatIsAFile_orCannotBeMade_isOneClearLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "x".write(to: folder.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try GradeCommand.checkOutFolder("file", cwd: folder)) {
            XCTAssertEqual("\($0)", "--out file: that is a file, not a folder; name a folder for the class report (default: lab-grades)")
        }
        XCTAssertThrowsError(try GradeCommand.checkOutFolder("file/grades", cwd: folder)) {
            XCTAssertEqual("\($0)", "--out file/grades: \(folder.appendingPathComponent("file").path) is a file, not a folder; name a folder for the class report (default: lab-grades)")
            XCTAssertFalse("\($0)".contains("Error Domain"), "\($0)")
        }
        XCTAssertNoThrow(try GradeCommand.checkOutFolder("grades/today", cwd: folder))
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("grades/today").path, isDirectory: &isFolder) && isFolder.boolValue)
        // Any other file error a command meets is one sentence and its file, not NSError's dump.
        XCTAssertThrowsError(try FileManager.default.createDirectory(at: folder.appendingPathComponent("file"), withIntermediateDirectories: false)) {
            let line = LabCommandLine.sentence(for: $0)
            XCTAssertFalse(line.contains("Error Domain"), line)
            XCTAssertTrue(line.contains(folder.appendingPathComponent("file").path), line)
        }
    }

    func test_parallelGrading_keepsOrder_usesEveryWorker_andRunsThemAtOnce() throws {
        let lock = NSLock()
        var workers = Set<Int>()
        var running = 0, mostAtOnce = 0
        // Each job waits (5 s at most) until three have been running at once: in a row, they never would. A count,
        // not a stopwatch, so a busy machine (other tests beside it under `--parallel`) cannot fail it.
        let rows = try ParallelGrading.run(6, width: 3) { index, worker -> Int in
            lock.lock(); workers.insert(worker); running += 1; mostAtOnce = max(mostAtOnce, running); lock.unlock()
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, (lock.withLock { mostAtOnce } < 3) { Thread.sleep(forTimeInterval: 0.01) }
            lock.withLock { running -= 1 }
            return index * 10
        }
        XCTAssertEqual(rows, [0, 10, 20, 30, 40, 50])
        XCTAssertEqual(workers, [0, 1, 2])
        XCTAssertEqual(mostAtOnce, 3, "six jobs on three workers never ran three at once")
        // No worker thread may keep the job once `run` returns (`withoutActuallyEscaping` traps): it did once in
        // twenty grades, at the end of the class.
        for _ in 0..<200 { _ = try ParallelGrading.run(4, width: 4) { index, _ in index } }
        struct Boom: Error {}
        XCTAssertThrowsError(try ParallelGrading.run(4, width: 2) { index, _ -> Int in
            if index == 1 { throw Boom() }
            return index
        })
    }

    func test_declarations_giveEachTestItsFileAndLine() {
        var order: [String: Int] = [:]
        var places: [String: TestPlace] = [:]
        TestDeclarations.scan("final class ATests: LabTestCase {\n\n    func test_a() {}\n    func test_b() {}\n}\n",
                              file: "Tests/Lesson1Tests/ATests.swift", into: &order, places: &places)
        XCTAssertEqual(places["ATests/test_a"], TestPlace(file: "Tests/Lesson1Tests/ATests.swift", line: 3))
        XCTAssertEqual(places["ATests/test_b"]?.line, 4)
    }
}
