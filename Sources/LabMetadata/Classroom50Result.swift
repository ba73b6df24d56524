import Foundation

/// A Classroom 50 `result.json` (schema `classroom50/result/v1`, foundation50/classroom50
/// schemas/result-v1.schema.json; Fixtures/graders/README.md quotes what it requires). Classroom 50's runner runs a
/// classroom's `autograder.py` in the learner's checkout with the submission's identity in the environment, and
/// reads the `result.json` it leaves there. Scores are whole numbers in that schema.
public struct Classroom50Result: Encodable {
    public static let schemaName = "classroom50/result/v1"

    public let schema = Classroom50Result.schemaName
    public var classroom: String
    public var assignment: String
    public var assignmentType: String
    public var owner: String
    public var submission: String
    public var commit: String
    public var release: String
    public var review: String
    /// The runner replaces it with the graded commit's date; a valid value is still required.
    public var datetime: String
    public var score: Int
    public var maxScore: Int
    public var tests: [Test]

    public struct Test: Encodable {
        public var testName: String
        public var passed: Bool
        public var score: Int
        public var maxScore: Int
        /// Extra fields the schema allows on a test (`additionalProperties: true`): the runner keeps them.
        public var message: String?
        public var lesson: String
        public var exercise: String
        public var filename: String?
        public var lineNo: Int?

        enum CodingKeys: String, CodingKey {
            case testName = "test-name", passed, score, maxScore = "max-score", message, lesson, exercise, filename,
                 lineNo = "line_no"
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema, classroom, assignment, assignmentType = "assignment_type", owner, submission, commit, release,
             review, datetime, score, maxScore = "max-score", tests
    }

    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The runner's environment names the submission: CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, OWNER (or USERNAME),
    /// ASSIGNMENT_TYPE, COMMIT_URL, RELEASE_URL and REVIEW_URL.
    public init(results: LabResults, environment: [String: String], now: Date = Date()) throws {
        func value(_ names: String...) throws -> String {
            for name in names { if let found = environment[name], !found.isEmpty { return found } }
            throw FormatError(description: "Classroom 50 result: \(names.joined(separator: " or ")) is not set (run by Classroom 50's runner.py?)")
        }
        classroom = try value("CLASSROOM")
        assignment = try value("ASSIGNMENT")
        submission = try value("SUBMISSION_TAG")
        owner = try value("OWNER", "USERNAME")
        commit = try value("COMMIT_URL")
        release = try value("RELEASE_URL")
        review = try value("REVIEW_URL", "COMMIT_URL")
        assignmentType = environment["ASSIGNMENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? "individual"
        guard submission.hasPrefix("submit/") else {
            throw FormatError(description: "Classroom 50 result: SUBMISSION_TAG must start with submit/ (it is \(submission))")
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        datetime = formatter.string(from: now)
        tests = try results.tests.map { test in
            Test(testName: "§\(test.exercise) \(test.classAndName)", passed: test.outcome == .passed,
                 score: try Self.whole(test.score, test), maxScore: try Self.whole(test.maxScore, test), message: test.message,
                 lesson: test.lesson, exercise: test.exercise, filename: test.filename, lineNo: test.lineNo)
        }
        score = tests.reduce(0) { $0 + $1.score }
        maxScore = tests.reduce(0) { $0 + $1.maxScore }
    }

    public func write(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
    }

    private static func whole(_ points: Double, _ test: TestResult) throws -> Int {
        guard points >= 0, points == points.rounded(), points < Double(Int32.max) else {
            throw FormatError(description: "Classroom 50 takes whole points; \(test.testCode) is worth \(points) (lessons.json pointsPerTest)")
        }
        return Int(points)
    }
}
