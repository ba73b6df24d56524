import Foundation
import LabMetadata

/// Failures the kit itself causes, whatever the learner wrote: a fixture its tests cannot find, read or decode
/// (`Fixtures.FixtureError`, Sources/LabTestSupport/Fixtures.swift). `lab check`, `lab` and `lab hint` report them
/// as the kit's — "this is not your code" — and never as the learner's progress, with no hint: a learner told "in
/// progress" and handed a hint would rewrite correct code to chase a broken file they cannot fix.
enum KitFault {
    /// How every `FixtureError` message begins, and the problems it names after the path.
    static let fixtureMarker = "fixture Fixtures/"
    static let fixtureProblems = [" not found", " is not valid JSON", " does not decode as"]

    /// The kit's own failure quoted in a test's `message` — "fixture Fixtures/x.json is not valid JSON: …" — or nil
    /// when the message is not one. XCTest quotes a thrown error (`threw error "…"`): the quotes are dropped.
    static func fixtureFailure(in message: String?) -> String? {
        // The last: a long message gives its data in full on a later line (`DiagnosisLine`), the first mention shortened.
        guard let message = message, let start = message.range(of: fixtureMarker, options: .backwards) else { return nil }
        var failure = message[start.lowerBound...]
        guard fixtureProblems.contains(where: { failure.dropFirst(fixtureMarker.count).contains($0) }) else { return nil }
        if start.lowerBound > message.startIndex, message[message.index(before: start.lowerBound)] == "\"",
           let end = failure.lastIndex(of: "\"") {
            failure = failure[..<end]
        }
        return String(failure)
    }

    /// Whether the kit, not the learner, failed this test.
    static func blames(_ test: TestResult) -> Bool {
        test.outcome != .passed && fixtureFailure(in: test.message) != nil
    }

    /// The first of `tests` the kit failed, if any.
    static func first(in tests: [TestResult]) -> TestResult? {
        tests.first(where: blames)
    }

    /// What to say instead of a failure and a hint: whose the failure is, and who can fix it.
    static func explanation(_ test: TestResult, lesson: LessonCatalog.Lesson) -> [String] {
        [
            "The kit itself is broken: \(fixtureFailure(in: test.message) ?? test.message ?? "a fixture") — this is not your code, and nothing you change in Exercises/ will fix it.",
            "  Tell your instructor, or re-clone the kit (`git status Fixtures/` shows whether a file there was changed).",
            "  (First seen in \(test.testCode); `LAB_SOLUTIONS=1 swift test --disable-swift-testing --filter \(lesson.name)Tests` shows the same failure against the reference solutions.)",
        ]
    }
}
