import Foundation
import LabMetadata

/// The numbers of a graded class that the HTML report shows and the next report compares against: per lesson the
/// spread of scores, per exercise who passes, the mistakes the class makes (each learner's first failure per
/// exercise, grouped by `FailureKind`), and per learner their scores, notes and first failures.
/// `lab grade` keeps it beside the report as `class-report.json`.
struct ClassSummary: Codable, Equatable {
    /// When the class was graded (ISO 8601).
    var gradedAt: String
    var lessons: [Lesson]
    var exercises: [Exercise]
    /// Most common first.
    var mistakes: [Mistake]
    var learners: [Learner]

    struct Lesson: Codable, Equatable {
        var name: String
        var title: String
        var maxScore: Double
        /// Learners per score band (`ScoreBands.labels`), of those graded on this lesson.
        var bands: [Int]
    }

    struct Exercise: Codable, Equatable {
        var lesson: String
        var section: String
        var function: String
        /// Learners graded on it; of them, who passes every test, who has not started, who fails a test.
        var graded: Int
        var passing: Int
        var notStarted: Int
        var failing: Int
    }

    struct Mistake: Codable, Equatable {
        /// `FailureKind.key`: the test and the first clause of its message, values stripped.
        var key: String
        var lesson: String
        var exercise: String
        var test: String
        var clause: String
        /// The LESSONS.md section to revisit: the one the message names, else the exercise's.
        var revisit: String
        /// One learner's full message, as an example.
        var example: String
        var learners: [String]
    }

    struct Learner: Codable, Equatable {
        var name: String
        /// Lesson name → points; only the lessons graded.
        var scores: [String: Double]
        var total: Double?
        var maxScore: Double?
        var notes: [String]
        /// The first test of each exercise that did not pass.
        var firstFailures: [FirstFailure]
    }

    struct FirstFailure: Codable, Equatable {
        var section: String
        var test: String
        var outcome: String
        /// The failure message; empty for "not started".
        var message: String
    }
}

/// The bands a lesson's scores fall into, as a share of its maximum.
enum ScoreBands {
    static let labels = ["0", "1–24 %", "25–49 %", "50–74 %", "75–99 %", "100 %"]

    static func band(score: Double, of maximum: Double) -> Int {
        guard maximum > 0, score > 0 else { return 0 }
        if score >= maximum { return 5 }
        return 1 + min(3, Int(score / maximum * 4))
    }
}

extension ClassSummary {
    init(_ report: ClassReport, gradedAt: Date = Date()) {
        let catalog = report.catalog
        self.gradedAt = ISO8601DateFormatter().string(from: gradedAt)
        let graded = report.rows.filter { $0.results != nil }
        learners = report.rows.map(Learner.init)
        lessons = catalog.lessons.compactMap { lesson in
            let totals = graded.compactMap { $0.results?.lessons.first { $0.name == lesson.name } }
            guard let maximum = totals.map(\.maxScore).max() else { return nil }
            var bands = Array(repeating: 0, count: ScoreBands.labels.count)
            for total in totals { bands[ScoreBands.band(score: total.score, of: total.maxScore)] += 1 }
            return Lesson(name: lesson.name, title: lesson.title, maxScore: maximum, bands: bands)
        }
        var exercises: [Exercise] = []
        var mistakes: [String: Mistake] = [:]
        for lesson in catalog.lessons {
            for exercise in lesson.exercises {
                var counts = Exercise(lesson: lesson.name, section: exercise.section, function: exercise.function,
                                      graded: 0, passing: 0, notStarted: 0, failing: 0)
                for row in graded {
                    let tests = row.results!.tests.filter { $0.lesson == lesson.name && $0.exercise == exercise.section }
                    guard !tests.isEmpty else { continue }
                    counts.graded += 1
                    guard let first = tests.first(where: { $0.outcome != .passed }) else { counts.passing += 1; continue }
                    guard first.outcome == .failed else { counts.notStarted += 1; continue }
                    counts.failing += 1
                    let kind = FailureKind(testCode: first.testCode, message: first.message ?? "")
                    mistakes[kind.key, default: Mistake(
                        key: kind.key, lesson: lesson.name, exercise: exercise.section, test: first.name, clause: kind.clause,
                        revisit: kind.section ?? exercise.section, example: first.message ?? "", learners: [])].learners.append(row.learner)
                }
                if counts.graded > 0 { exercises.append(counts) }
            }
        }
        self.exercises = exercises
        let order = Dictionary(exercises.enumerated().map { ($1.lesson + "§" + $1.section, $0) }, uniquingKeysWith: { a, _ in a })
        self.mistakes = mistakes.values.sorted {
            if $0.learners.count != $1.learners.count { return $0.learners.count > $1.learners.count }
            let (a, b) = (order[$0.lesson + "§" + $0.exercise] ?? 0, order[$1.lesson + "§" + $1.exercise] ?? 0)
            return a != b ? a < b : $0.key < $1.key
        }
    }
}

extension ClassSummary.Learner {
    init(_ row: ClassReport.Row) {
        name = row.learner
        notes = row.notes
        let results = row.results
        total = results?.score
        maxScore = results?.maxScore
        scores = Dictionary(uniqueKeysWithValues: (results?.lessons ?? []).map { ($0.name, $0.score) })
        var seen = Set<String>()
        firstFailures = (results?.tests ?? []).compactMap { test in
            let place = test.lesson + "§" + test.exercise
            guard test.outcome != .passed, !seen.contains(place) else { return nil }
            seen.insert(place)
            // A stub's message says only "not started": the outcome says it, and the report stays small.
            return ClassSummary.FirstFailure(section: test.exercise, test: test.name, outcome: test.outcome.rawValue,
                                             message: test.outcome == .failed ? test.message ?? "" : "")
        }
    }
}
