import Foundation
import LabMetadata

/// How a run's tests are shared out among test processes. Most of a test's time is waiting for an answer, so
/// processes overlap well; the run lasts as long as its longest process. So each exercise's tests are cut into
/// pieces of about `pieceSeconds` (as measured on the reference solutions: `Kit.testTimesFile`), and the longest
/// pieces start first.
/// A piece keeps an exercise's tests together, in the order they are declared: a function that forgets to call its
/// completion costs its full wait once per process, then short ones (LabTestSupport's completion waits). Pieces
/// shorter than that share a process.
struct TestSchedule {
    /// "Class/test" → seconds it takes on the reference solutions.
    var seconds: [String: Double]

    /// What a test that never passed here is expected to take.
    static let unknown = 0.3
    /// What a test of an exercise whose function still runs its stub is expected to take: it fails on the stub at
    /// once ("not started"; Lesson 1's 33 such tests took 0.001-0.06 s each, 0.29 s in all).
    static let notStartedSeconds = 0.05
    /// The exercises (sections, "1.3") whose function still runs its stub (`stubbedExercises(_:codeIn:)`): their tests are
    /// expected to take `notStartedSeconds`, whatever they took when they last passed — so the stubs' tests of a
    /// learner who has just begun run in a process or two, not in one per `unknown`-sized piece.
    var notStarted: Set<String> = []
    /// About how long a piece may be expected to run: a second, so one learner's run ends soon; more when a class is
    /// graded (`LessonRun.pieceSeconds`), where other learners keep the cores busy and each process costs CPU time
    /// to start (about 0.05 s, in the sandbox).
    var pieceSeconds = 1.0

    /// The pieces: each exercise's tests (`exercise` maps "Class/test" to its exercise), in declaration order
    /// (`order`), cut where a piece would pass `pieceSeconds`, short ones put together; longest first.
    func pieces(of tests: [String], exercise: (String) -> String, order: [String: Int]) -> [[String]] {
        let byExercise = Dictionary(grouping: tests, by: exercise)
        var pieces: [(tests: [String], seconds: Double)] = []
        for exercise in byExercise.keys.sorted() {
            var piece: [String] = []
            var total = 0.0
            for test in byExercise[exercise]!.sorted(by: { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) }) {
                let expected = notStarted.contains(exercise) ? Self.notStartedSeconds : seconds[test] ?? Self.unknown
                if !piece.isEmpty, total + expected > pieceSeconds {
                    pieces.append((piece, total))
                    (piece, total) = ([], 0)
                }
                piece.append(test)
                total += expected
            }
            if !piece.isEmpty { pieces.append((piece, total)) }
        }
        // Longest first; ties by name, so the same tests run the same way every time. Short pieces then share a
        // process (first fit): each process costs time to start, and a missed completion shortens later waits for
        // that function only (`CompletionTimeouts`), so exercises do not disturb each other — as in `swift test`,
        // which runs them all in one process.
        let longestFirst = { (a: (tests: [String], seconds: Double), b: (tests: [String], seconds: Double)) in
            (b.seconds, a.tests[0]) < (a.seconds, b.tests[0])
        }
        var packed: [(tests: [String], seconds: Double)] = []
        for piece in pieces.sorted(by: longestFirst) {
            if let fit = packed.firstIndex(where: { $0.seconds + piece.seconds <= pieceSeconds }) {
                packed[fit].tests += piece.tests
                packed[fit].seconds += piece.seconds
            } else {
                packed.append(piece)
            }
        }
        return packed.sorted(by: longestFirst).map(\.tests)
    }
}

extension TestSchedule {
    /// The times kept in `file` (JSON, "Class/test" → seconds); none when it is missing or unreadable.
    init(file: URL?, pieceSeconds: Double = 1.0) {
        self.pieceSeconds = pieceSeconds
        let data = file.flatMap { try? Data(contentsOf: $0) }
        seconds = data.flatMap { try? JSONDecoder().decode([String: Double].self, from: $0) } ?? [:]
    }

    /// The exercises of `lessons` whose function still runs its stub in the code under `folder` (`<folder>/<Lesson>/`):
    /// a line that is not a comment makes its `NotImplemented("<function>"`. An exercise of several functions (no one
    /// stub to look for) is never counted. Only an estimate: a learner who writes code above the stub's line makes a
    /// process run longer, never a verdict differ.
    static func stubbedExercises(_ lessons: [LessonCatalog.Lesson], codeIn folder: URL) -> Set<String> {
        var sections = Set<String>()
        for lesson in lessons {
            let lessonFolder = folder.appendingPathComponent(lesson.name)
            let stubLines = ((try? regularFiles(under: lessonFolder)) ?? []).filter { $0.hasSuffix(".swift") }
                .compactMap { try? String(contentsOf: lessonFolder.appendingPathComponent($0), encoding: .utf8) }
                .flatMap { $0.split(separator: "\n") }
                .filter { $0.contains("NotImplemented(\"") && !$0.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//") }
            for exercise in lesson.exercises where stubLines.contains(where: { $0.contains("NotImplemented(\"\(exercise.function)\"") }) {
                sections.insert(exercise.section)
            }
        }
        return sections
    }

    /// Learns how long the tests that passed in `log` took, and keeps the times in `file` for the next run.
    mutating func learn(from log: String, keepingIn file: URL?) {
        let measured = XCTestLog.passedTimes(in: log)
        guard let file = file, !measured.isEmpty else { return }
        seconds.merge(measured) { $1 }
        // Several runs may write at once (a parallel grade): each write is whole, and any of them will do.
        // Sorted, one test per line: the kit keeps the file in git.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        if let data = try? encoder.encode(seconds) { try? data.write(to: file, options: .atomic) }
    }
}
