import Foundation
import LabMetadata

/// Runs lessons' graded tests in a kit folder and gathers their results. Each test runs in its own process
/// (`swift test --parallel`), so a crash in the learner's code costs that test only.
public struct LessonRun {
    public let root: URL
    public let catalog: LessonCatalog
    /// Extra environment for `swift test`, and variables to drop from it.
    public var environment: [String: String] = [:]
    public var removedEnvironment: Set<String> = []

    public init(root: URL, catalog: LessonCatalog) {
        self.root = root
        self.catalog = catalog
    }

    /// What one run found.
    public struct Outcome {
        public var results: LabResults
        /// Compiler errors when the code did not build ("Exercises/Lesson1/X.swift:12: error: …"); empty otherwise.
        public var buildErrors: [String]
        /// The whole output of `swift test`.
        public var log: String
    }

    /// Runs every graded test of `lessons`; results also go to `resultsFile`.
    public func run(_ lessons: [LessonCatalog.Lesson], resultsFile: URL) throws -> Outcome {
        try? FileManager.default.removeItem(at: resultsFile)
        let filter = lessons.map { "\($0.name)Tests\\." }.joined(separator: "|")
        let test = try Subprocess.run(["swift", "test"] + SwiftFlags.test + ["--parallel", "--filter", filter],
                                      in: root, environment: environment.merging(["LAB_RESULTS": resultsFile.path]) { $1 },
                                      removing: removedEnvironment)
        let recorded = (try? ResultsFile.read(resultsFile))?.tests ?? []
        let buildErrors = recorded.isEmpty ? BuildErrors.find(in: test.output, root: root) : []
        if !buildErrors.isEmpty || (recorded.isEmpty && test.status != 0) {
            let reason = buildErrors.first ?? "swift test failed before any test ran (exit status \(test.status))"
            let results = LabResults(tests: [], catalog: catalog, errorMessage: "does not compile: \(reason)")
            try ResultsFile.write(results, to: resultsFile)
            return Outcome(results: results, buildErrors: buildErrors, log: test.output)
        }
        // A crashed test makes `swift test` fail; only then is it worth listing the tests to find it.
        let missing = test.status == 0 ? [] : try crashedTests(lessons, recorded: recorded, log: test.output)
        let results = LabResults(tests: recorded + missing, catalog: catalog)
        try ResultsFile.write(results, to: resultsFile)
        return Outcome(results: results, buildErrors: [], log: test.output)
    }

    /// Graded tests that `swift test list` names but that recorded nothing: their process died (a crash).
    private func crashedTests(_ lessons: [LessonCatalog.Lesson], recorded: [TestResult], log: String) throws -> [TestResult] {
        let list = try Subprocess.run(["swift", "test", "list"] + SwiftFlags.test, in: root,
                                      environment: environment, removing: removedEnvironment)
        let done = Set(recorded.map(\.testCode))
        let crash = log.split(separator: "\n").first { $0.contains("Fatal error") }.map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
        var missing: [TestResult] = []
        for line in list.output.split(separator: "\n").map(String.init) where !done.contains(line) {
            // "Lesson1Tests.CreateMessageTests/test_x"
            let parts = line.split(separator: "/")
            let module = parts.first?.split(separator: ".").first.map(String.init) ?? ""
            guard parts.count == 2, let testClass = parts[0].split(separator: ".").last.map(String.init),
                  let (lesson, exercise) = catalog.exercise(forTestClass: testClass),
                  lessons.contains(where: { $0.name == lesson.name }) else { continue }
            missing.append(TestResult(
                name: String(parts[1]), testClass: testClass, testModule: module, outcome: .failed,
                message: "the test crashed\(crash): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError. (`lab check` ran it on its own, so the other tests still count.) See LESSONS.md §\(exercise.section).",
                lesson: lesson, exercise: exercise))
        }
        return missing
    }
}

/// Compiler errors in `swift build` output, as "path:line: error: message" with paths relative to the kit.
enum BuildErrors {
    static func find(in output: String, root: URL) -> [String] {
        var seen = Set<String>()
        let prefix = root.standardizedFileURL.path + "/"
        return output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(": error: "), line.contains(".swift:") else { return nil }
            var text = String(line)
            if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
            // "File.swift:12:5: error: x" → drop the column.
            if let match = text.range(of: #"\.swift:(\d+):\d+:"#, options: .regularExpression) {
                let kept = text[match].split(separator: ":")
                text.replaceSubrange(match, with: "\(kept[0]):\(kept[1]):")
            }
            return seen.insert(text).inserted ? text : nil
        }
    }

    /// The lessons whose Exercises/ files the errors are in.
    static func lessons(in errors: [String]) -> Set<String> {
        Set(errors.compactMap { error -> String? in
            guard error.hasPrefix("Exercises/") else { return nil }
            return error.split(separator: "/").dropFirst().first.map(String.init)
        })
    }
}
