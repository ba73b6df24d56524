import Foundation
import LabMetadata

/// Builds a kit folder and runs lessons' graded tests in it, gathering their results.
///
/// The tests run in one process, which is fast (a forgotten `resume()` costs its short waits once, not once per
/// process). A test that kills that process (a force unwrap of nil) or hangs (an endless loop; the process is killed
/// after `silence` seconds without finishing) is failed with a message saying which, and the tests after it run again
/// in a new process — so one crash or hang costs that test only. The maximum never shrinks: every graded test that
/// `swift test list` names gets a result.
public struct LessonRun {
    public let root: URL
    public let catalog: LessonCatalog
    /// Extra environment for `swift`, and variables to drop from it.
    public var environment: [String: String] = [:]
    public var removedEnvironment: Set<String> = []
    /// A test still running after this long is stuck (the helpers' longest wait is 2 s): its process is killed.
    public var silence: TimeInterval = 6
    /// The graded tests, when already known from an earlier run in the same folder (saves `swift test list`).
    var knownTests: [String: (lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise)]?

    public init(root: URL, catalog: LessonCatalog) {
        self.root = root
        self.catalog = catalog
    }

    /// What one run found.
    public struct Outcome {
        public var results: LabResults
        /// Compiler errors when the code did not build ("Exercises/Lesson1/X.swift:12: error: …"); empty otherwise.
        public var buildErrors: [String]
        /// The whole output of the build and the test runs.
        public var log: String
    }

    /// Builds, then runs every graded test of `lessons`; results also go to `resultsFile`.
    public func run(_ lessons: [LessonCatalog.Lesson], resultsFile: URL) throws -> Outcome {
        try? FileManager.default.removeItem(at: resultsFile)
        let build = try WatchedProcess.run(["swift", "build", "--build-tests"], in: root, environment: environment,
                                           removing: removedEnvironment)
        if build.status != 0 {
            let errors = BuildErrors.find(in: build.output, root: root)
            let reason = errors.first ?? build.killed.map { "the build was stopped (\($0))" }
                ?? "swift build failed (exit status \(build.status))"
            let results = LabResults(tests: [], catalog: catalog, errorMessage: "does not compile: \(reason)")
            try ResultsFile.write(results, to: resultsFile)
            return Outcome(results: results, buildErrors: errors, log: build.output)
        }
        var log = build.output
        let graded = try knownTests ?? gradedTests(of: lessons, log: &log)
        var missing = graded
        var extra: [TestResult] = []
        var filter = lessons.map { "\($0.name)Tests\\." }.joined(separator: "|")
        // Each round runs what has no result yet; a round that ends early leaves a culprit, which is charged and
        // skipped. At most one round per test.
        for _ in 0...graded.count where !missing.isEmpty {
            let running = URL(fileURLWithPath: resultsFile.path + ".running")
            try? FileManager.default.removeItem(at: running)
            let test = try WatchedProcess.run(["swift", "test", "--skip-build"] + SwiftFlags.test + ["--filter", filter],
                                              in: root, environment: environment.merging(["LAB_RESULTS": resultsFile.path]) { $1 },
                                              removing: removedEnvironment, silence: silence, progress: running)
            log += test.output
            let recorded = Set(((try? ResultsFile.read(resultsFile))?.tests ?? []).map(\.classAndName))
            missing = missing.filter { !recorded.contains($0.key) }
            guard !missing.isEmpty else { break }
            let lastStarted = (try? String(contentsOf: running, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            let culprit = lastStarted.flatMap { missing[$0] != nil ? $0 : nil }
                ?? XCTestLog.unfinished(in: test.output).first { missing[$0] != nil }
            let blamed = culprit.map { [$0] } ?? Array(missing.keys)  // died before any test: all of them
            for key in blamed {
                guard let (lesson, exercise) = missing[key] else { continue }
                extra.append(Self.stopped(key, lesson: lesson, exercise: exercise, killed: test.killed.map { _ in silence }, log: test.output))
                missing[key] = nil
            }
            filter = missing.keys.sorted().map { "^\(NSRegularExpression.escapedPattern(for: $0.moduleQualified(missing[$0]!.lesson)))$" }
                .joined(separator: "|")
        }
        let recorded = (try? ResultsFile.read(resultsFile))?.tests ?? []
        let results = LabResults(tests: recorded + extra, catalog: catalog)
        try ResultsFile.write(results, to: resultsFile)
        return Outcome(results: results, buildErrors: [], log: log)
    }

    /// Every graded test of `lessons`, "Class/test" → its lesson and exercise, from `swift test list`.
    func gradedTests(of lessons: [LessonCatalog.Lesson], log: inout String) throws
        -> [String: (lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise)] {
        let list = try WatchedProcess.run(["swift", "test", "list", "--skip-build"] + SwiftFlags.test, in: root,
                                          environment: environment, removing: removedEnvironment, limit: 300)
        var graded: [String: (LessonCatalog.Lesson, LessonCatalog.Exercise)] = [:]
        for line in list.output.split(separator: "\n").map(String.init) {
            // "Lesson1Tests.CreateMessageTests/test_x"
            let parts = line.split(separator: "/")
            guard parts.count == 2, let testClass = parts[0].split(separator: ".").last.map(String.init),
                  let (lesson, exercise) = catalog.exercise(forTestClass: testClass),
                  lessons.contains(where: { $0.name == lesson.name }) else { continue }
            graded["\(testClass)/\(parts[1])"] = (lesson, exercise)
        }
        if graded.isEmpty { log += list.output }
        return graded
    }

    /// The result of a test whose process died or was killed while it ran.
    private static func stopped(_ key: String, lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise,
                                killed: TimeInterval?, log: String) -> TestResult {
        let parts = key.split(separator: "/").map(String.init)
        let message: String
        if let seconds = killed {
            message = "the test never finished: it was stopped after \(Int(seconds)) s (no test needs more than a few), so your code is stuck — an endless loop, a long `sleep`, or a wait that never ends. The other tests ran on without it. See LESSONS.md §\(exercise.section)."
        } else {
            let crash = log.split(separator: "\n").first { $0.contains("Fatal error") }.map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
            message = "the test crashed\(crash): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError. (The other tests ran on without it.) See LESSONS.md §\(exercise.section)."
        }
        return TestResult(name: parts.last ?? key, testClass: parts.first ?? "", testModule: "\(lesson.name)Tests",
                          outcome: .failed, message: message, lesson: lesson, exercise: exercise)
    }
}

private extension String {
    /// "Class/test" → "Lesson1Tests.Class/test", what `swift test --filter` matches.
    func moduleQualified(_ lesson: LessonCatalog.Lesson) -> String { "\(lesson.name)Tests.\(self)" }
}

/// Reads XCTest's console output (Linux: `Test Case 'Class.test' started`; Darwin: `Test Case '-[Module.Class test]' started.`).
enum XCTestLog {
    /// "Class/test" of the tests that started but never passed or failed, in the order they started.
    static func unfinished(in log: String) -> [String] {
        var started: [String] = []
        var finished = Set<String>()
        for line in log.split(separator: "\n") where line.hasPrefix("Test Case '") {
            guard let name = testName(in: line) else { continue }
            if line.contains("' started") { started.append(name) } else if line.contains("' passed") || line.contains("' failed") { finished.insert(name) }
        }
        return started.filter { !finished.contains($0) }
    }

    private static func testName(in line: Substring) -> String? {
        let body = line.dropFirst("Test Case '".count)
        guard let end = body.firstIndex(of: "'") else { return nil }
        var name = String(body[..<end])
        if name.hasPrefix("-[") {  // -[Module.Class test]
            name = String(name.dropFirst(2).dropLast())
            let parts = name.split(separator: " ")
            guard parts.count == 2, let testClass = parts[0].split(separator: ".").last else { return nil }
            return "\(testClass)/\(parts[1])"
        }
        let parts = name.split(separator: ".")
        guard parts.count == 2 else { return nil }
        return "\(parts[0])/\(parts[1])"
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
