import Foundation
import LabMetadata

extension Kit {
    /// What `lab`, `lab check` and `lab hint` run: the lessons' tests in the kit itself; when another lesson's code
    /// does not compile (SwiftPM builds every lesson's tests together; and, in a first build only, the board on Lessons 1, 4 and 8), the run
    /// moves to a private copy (`.lab/check`, lessons only) with that lesson's stubs in its place, as `lab grade` does, so the lessons asked for are still
    /// checked. Errors in the lessons of `shownAsErrors` (the one `lab check` checks) are the learner's to see as
    /// they are. Returns the outcome and the lessons replaced, each with its first compiler error.
    func runAroundBrokenLessons(_ lessons: [LessonCatalog.Lesson], shownAsErrors: Set<String> = []) throws
        -> (outcome: LessonRun.Outcome, replaced: [(lesson: String, error: String)]) {
        let result = try KitLock.during(self, say: KitLock.sayOnStandardError) {
            PhaseTimes.mark("lock held")
            return try runAroundBrokenLessonsHoldingLock(lessons, shownAsErrors: shownAsErrors)
        }
        PhaseTimes.mark("lock released")
        LessonsDone(kit: self).record(result.outcome.results, ran: lessons, replaced: Set(result.replaced.map(\.lesson)))
        return result
    }

    private func runAroundBrokenLessonsHoldingLock(_ lessons: [LessonCatalog.Lesson], shownAsErrors: Set<String>) throws
        -> (outcome: LessonRun.Outcome, replaced: [(lesson: String, error: String)]) {
        if LessonRun.testProduct(in: root) == nil {
            // SwiftPM prints nothing here until every lesson and its tests are built: say why the wait.
            KitLock.sayOnStandardError("Building the lessons and their tests first (only this once: a minute or so)…")
        }
        let outcome = try run(lessons)
        let broken = BuildErrors.lessons(in: outcome.buildErrors)
        // The board is built on the lessons' code: its errors follow from a lesson's, and the copy leaves it out.
        let aroundable = outcome.buildErrors.allSatisfy { BuildErrors.lesson(of: $0) != nil || BuildErrors.isBoard($0) }
        guard !outcome.buildErrors.isEmpty, aroundable, broken.isDisjoint(with: shownAsErrors) else { return (outcome, []) }
        let workspace = try Workspace(kit: self, name: "check")
        // The copy has a build of its own: a minute or more the first time, in which nothing else is printed.
        let firstBuild = !FileManager.default.fileExists(atPath: workspace.folder.appendingPathComponent(".build").path)
        KitLock.sayOnStandardError("\(broken.sorted().joined(separator: ", ")) does not compile: running the tests in a copy "
            + "of the kit, .lab/check, with \(broken.count == 1 ? "its" : "their") stubs in its place"
            + (firstBuild ? " (its first build: a minute or more)…" : "…"))
        var run = workspace.lessonRun()
        run.removedEnvironment = ["LAB_SOLUTIONS"]
        run.environment["LAB_LESSONS"] = catalog.lessons.map(\.name).joined(separator: ",")
        let result = try run.runAroundBrokenLessons(lessons, resultsFile: resultsFile, in: workspace)
        try? (outcome.log + result.outcome.log).write(to: logFile, atomically: true, encoding: .utf8)
        return result
    }
}
