import Foundation

/// A results file: what a test run graded. Field names follow Exercism's results.json (version 3: status, message,
/// tests[name, status, message, test_code, task_id]) and the GitHub Classroom autograding actions' (score, max_score;
/// tests[score, max_score, filename, line_no]), so graders that sum them read it (README § Results files); the kit's
/// own fields (outcome, lesson, points, lessons[]) come alongside.
public struct LabResults: Codable, Equatable {
    public var version = 3
    /// "pass" when every graded test passed, "fail" when one did not, "error" when the run could not grade at all.
    public var status: String
    /// Why a run is "error" (e.g. the code does not compile); nil otherwise.
    public var message: String?
    public var score: Double
    public var maxScore: Double
    public var tests: [TestResult]
    public var lessons: [LessonTotal]

    enum CodingKeys: String, CodingKey {
        case version, status, message, score, maxScore = "max_score", tests, lessons
    }

    public init(tests: [TestResult], catalog: LessonCatalog, errorMessage: String? = nil) {
        self.tests = tests.sorted(by: catalog.order)
        lessons = catalog.lessons.compactMap { lesson in
            let own = tests.filter { $0.lesson == lesson.name }
            return own.isEmpty ? nil : LessonTotal(name: lesson.name, title: lesson.title, tests: own)
        }
        score = tests.reduce(0) { $0 + $1.points }
        maxScore = tests.reduce(0) { $0 + $1.maxPoints }
        message = errorMessage
        status = errorMessage != nil ? "error" : tests.allSatisfy { $0.outcome == .passed } ? "pass" : "fail"
    }
}

/// One graded test's result.
public struct TestResult: Codable, Equatable {
    public enum Outcome: String, Codable {
        case passed
        case failed
        /// The test ran a stub: the learner has not written the function yet.
        case notStarted = "not started"
    }

    /// The test method: "test_createMessageThread_usesPUT".
    public var name: String
    /// Exercism's "pass" / "fail" / "error" (a not-started test is "fail").
    public var status: String
    public var outcome: Outcome
    /// The first failure message; nil when the test passed.
    public var message: String?
    /// "Lesson1Tests.CreateMessageThreadTests/test_createMessageThread_usesPUT": what `swift test --filter` takes.
    public var testCode: String
    /// The exercise's position in its lesson, from 1 (Exercism's task_id).
    public var taskID: Int
    public var lesson: String
    /// The exercise's LESSONS.md section: "1.3".
    public var exercise: String
    public var function: String
    public var points: Double
    public var maxPoints: Double
    /// `points` and `maxPoints` again, under the names the autograding reporter sums (`tests[].score`).
    public var score: Double
    public var maxScore: Double
    /// Where the test is written, relative to the kit ("Tests/Lesson1Tests/X.swift"), and the line of its `func`.
    public var filename: String?
    public var lineNo: Int?
    /// The functions whose stubs ran during the test ("not started" work), when any did.
    public var stubs: [String]?
    /// Set by the test process when `lab` runs it: proof that the kit's test code wrote this result (`ResultSeal`).
    /// `lab` checks it and drops it: the results files it writes carry none.
    public var seal: String?

    enum CodingKeys: String, CodingKey {
        case name, status, outcome, message, testCode = "test_code", taskID = "task_id", lesson, exercise, function,
             points, maxPoints = "max_points", score, maxScore = "max_score", filename, lineNo = "line_no", stubs, seal
    }

    /// "CreateMessageThreadTests/test_createMessageThread_usesPUT": the key of `LessonCatalog.declarationOrder`.
    public var classAndName: String {
        let afterModule = testCode.split(separator: ".", maxSplits: 1).last.map(String.init) ?? testCode
        return afterModule
    }

    public init(name: String, testClass: String, testModule: String, outcome: Outcome, message: String?,
                lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise, stubs: [String] = [], place: TestPlace? = nil) {
        self.name = name
        self.stubs = stubs.isEmpty ? nil : stubs
        self.outcome = outcome
        status = outcome == .passed ? "pass" : "fail"
        self.message = message
        testCode = "\(testModule).\(testClass)/\(name)"
        taskID = (lesson.exercises.firstIndex(of: exercise) ?? 0) + 1
        self.lesson = lesson.name
        self.exercise = exercise.section
        function = exercise.function
        maxPoints = exercise.points
        points = outcome == .passed ? exercise.points : 0
        score = points
        maxScore = maxPoints
        filename = place?.file
        lineNo = place?.line
    }
}

/// A lesson's totals in a results file.
public struct LessonTotal: Codable, Equatable {
    public var name: String
    public var title: String
    public var score: Double
    public var maxScore: Double
    public var passed: Int
    public var failed: Int
    public var notStarted: Int

    enum CodingKeys: String, CodingKey {
        case name, title, score, maxScore = "max_score", passed, failed, notStarted = "not_started"
    }

    init(name: String, title: String, tests: [TestResult]) {
        self.name = name
        self.title = title
        score = tests.reduce(0) { $0 + $1.points }
        maxScore = tests.reduce(0) { $0 + $1.maxPoints }
        passed = tests.filter { $0.outcome == .passed }.count
        failed = tests.filter { $0.outcome == .failed }.count
        notStarted = tests.filter { $0.outcome == .notStarted }.count
    }
}

extension LessonCatalog {
    /// Course order: lesson, then exercise, then the order the tests are declared in (simplest first), then name.
    public func order(_ a: TestResult, _ b: TestResult) -> Bool {
        func rank(_ t: TestResult) -> (Int, Int, Int) {
            let lesson = lessons.firstIndex { $0.name == t.lesson } ?? Int.max
            return (lesson, t.taskID, declarationOrder[t.classAndName] ?? Int.max)
        }
        let (ra, rb) = (rank(a), rank(b))
        if ra.0 != rb.0 { return ra.0 < rb.0 }
        if ra.1 != rb.1 { return ra.1 < rb.1 }
        return ra.2 != rb.2 ? ra.2 < rb.2 : a.name < b.name
    }
}
