import Foundation
import LabMetadata

/// The short report `lab check` prints: what passes, the first failure with its message, the hint.
struct CheckReport {
    let kit: Kit
    let lesson: LessonCatalog.Lesson
    let outcome: LessonRun.Outcome
    /// Other lessons that did not compile, run with their stubs in their place.
    var replaced: [(lesson: String, error: String)] = []

    var text: String {
        var lines: [String] = []
        let results = outcome.results
        let own = results.tests(of: lesson)
        let score = own.reduce(0) { $0 + $1.points }, maxScore = own.reduce(0) { $0 + $1.maxPoints }

        guard outcome.buildErrors.isEmpty, results.status != "error" else {
            return buildFailure(results.message)
        }
        let kitFault = KitFault.first(in: own)
        // Points the kit's own failure took are not the learner's score: the header says whose they are.
        lines.append("Lesson \(lesson.chapter) — \(lesson.title): " + (kitFault == nil
            ? "\(points(score)) of \(points(maxScore)) points"
            : "not checked — the kit itself is broken (\(own.filter(KitFault.blames).count) of \(own.count) tests failed on the kit's own files)"))
        lines.append("")
        let width = lesson.exercises.map { $0.section.count + $0.function.count + 1 }.max() ?? 0
        for exercise in lesson.exercises {
            let tests = results.tests(of: exercise, in: lesson)
            let passed = tests.filter { $0.outcome == .passed }.count
            lines.append("  \(padded("\(exercise.section) \(exercise.function)", width))  \(passed)/\(tests.count) tests  \(Progress(exercise, tests: tests).label)")
        }
        lines.append("")
        let unfinished = results.firstUnfinished(in: [lesson])
        let unfinishedTests = unfinished.map { results.tests(of: $0.exercise, in: lesson) } ?? []
        if let broken = kitFault {
            // A fixture the kit cannot read fails the tests whatever the learner wrote: say whose it is, and no hint.
            lines += KitFault.explanation(broken, lesson: lesson)
        } else if own.isEmpty {
            lines.append("No test of \(lesson.name) ran: see \(relative(kit.logFile)).")
        } else if let unfinished, unfinishedTests.isEmpty {
            // Not "done": an exercise none of whose tests ran (lessons.json naming a test class that is not there).
            let exercise = unfinished.exercise
            lines.append("No test of §\(exercise.section) \(exercise.function) ran: lessons.json says \(exercise.testClass) grades it, and no test of that class ran. `swift run lab lint` checks lessons.json against Tests/.")
        } else if let unfinished, let failure = Self.mostTelling(unfinishedTests) {
            lines.append("First failure — \(failure.testCode):")
            // Its first line is the diagnosis; data in full (and more prose) follows on the next lines.
            lines += (failure.message ?? "(no message)").split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
            var hints = HintBook(kit: kit)
            if let hint = hints.current(for: unfinished.exercise) {
                lines.append("")
                let count = unfinished.exercise.hints.count
                let more = hint.number < count ? "; `swift run lab hint \(lesson.name)` shows the next" : ""
                lines.append("Hint for \(unfinished.exercise.section) (\(HintBook.label(hint.number, of: count))\(more)):")
                lines.append("  \(hint.text)")
            }
        } else {
            lines.append("All \(own.count) tests pass: Lesson \(lesson.chapter) is done.")
            // Not simply the following lesson: one finished earlier (and unchanged since) is skipped.
            if let next = LessonsDone(kit: kit).next(after: lesson) {
                lines.append("Next: Lesson \(next.chapter) — \(next.title) (LESSONS.md §\(next.chapter); `swift run lab check \(next.name)`).")
            } else {
                lines.append("Every lesson is done. Well built!")
            }
        }
        if let refusal = Self.gradingRefusals(of: lesson.name, kitRoot: kit.root).first {
            lines.append("")
            lines.append("Note: `lab grade`, which grades a class, would not grade this lesson (0 points), whatever its tests say here: \(refusal)")
        }
        for (other, error) in replaced {
            lines.append("")
            lines.append("Note: \(other) does not compile (\(error)). SwiftPM builds every lesson's tests together, so this check ran with \(other)'s stubs in its place; fix or undo that code when you get to it.")
        }
        lines.append("")
        lines.append("Full test log: \(relative(kit.logFile))")
        return lines.joined(separator: "\n")
    }

    /// What `lab grade` would refuse in the lesson's code in the kit's Exercises/ — an import it does not allow, an
    /// escape hatch, a link out of Exercises/, a public name the tests use: `lab check` runs the tests in-process and
    /// said "All 40 tests pass: Lesson 1 is done" for an `import Glibc` that a grading scored 0. Where Solutions/
    /// holds no solution markers for the lesson (a class's copy, with the stubs there), declarations are not checked.
    static func gradingRefusals(of lesson: String, kitRoot: URL) -> [String] {
        let exercises = kitRoot.appendingPathComponent("Exercises")
        let folder = exercises.appendingPathComponent(lesson)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let code = LearnerCode(lessonFolder: folder, exercises: exercises, shownAs: "Exercises/\(lesson)")
        let solutions = kitRoot.appendingPathComponent("Solutions/\(lesson)")
        let reference = (FileManager.default.enumerator(atPath: solutions.path)?.allObjects as? [String] ?? []).contains { path in
            path.hasSuffix(".swift")
                && ((try? String(contentsOf: solutions.appendingPathComponent(path), encoding: .utf8))?.contains("// BEGIN SOLUTION") ?? false)
        }
        return code.refusedLinks.map { "refused: \($0)" }
            + IntegrityScan(kitRoot: kitRoot, lesson: lesson, checkingDeclarations: reference).violations(in: code.files, folder: "Exercises/\(lesson)")
    }

    /// The failure to show first: a real one tells more than "not started".
    static func mostTelling(_ tests: [TestResult]) -> TestResult? {
        tests.first { $0.outcome == .failed } ?? tests.first { $0.outcome != .passed }
    }

    private func buildFailure(_ message: String?) -> String {
        var lines = ["The code does not compile, so no test could run:"]
        let errors = outcome.buildErrors.isEmpty ? [message ?? "see the log"] : Array(outcome.buildErrors.prefix(8))
        let notes = BuildErrors.notes(in: outcome.log, root: kit.root)
        for error in errors {
            lines.append("  \(error)")
            lines += (notes[error] ?? []).map { "    \($0)" }
        }
        let advice = BuildErrors.advice(for: errors)
        if !advice.isEmpty {
            lines.append("")
            lines += advice
        }
        // Errors in the lesson's own tests: the learner changed what they call.
        if outcome.buildErrors.contains(where: { $0.hasPrefix("Tests/\(lesson.name)Tests/") }) {
            lines.append("")
            lines += ChangedSignatures.report(lesson: lesson.name, root: kit.root)
        }
        let elsewhere = BuildErrors.lessons(in: outcome.buildErrors).subtracting([lesson.name])
        if !elsewhere.isEmpty {
            lines.append("")
            lines.append("The errors are in \(elsewhere.sorted().joined(separator: ", ")): SwiftPM builds every lesson's tests together, so fix (or undo) that code to check \(lesson.name).")
        }
        lines.append("")
        lines.append("Full log: \(relative(kit.logFile))")
        return lines.joined(separator: "\n")
    }

    private func relative(_ url: URL) -> String {
        let root = kit.root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}
