import Foundation
import LabMetadata

/// `lab mutants --graded`: each mutant graded the way `lab grade` grades a learner — the learner's files scanned, the
/// lesson compiled by the quick build, the tests run in the sandbox under the grader's clock, only sealed results
/// taken. A correct solution that passes `swift test` must earn full marks there too (a sandbox rule, a time limit
/// or the scan could refuse it), and a mistake must still cost points.
enum GradedMutants {
    static func measure(_ lesson: LessonCatalog.Lesson, kit: Kit, choice: MutantsCommand.Choice, jobs: Int,
                        output: (String) -> Void) throws -> MutantsCommand.Tally {
        let mutants = try choice.mutants(of: lesson, in: kit)
        output("\(lesson.name): \(mutants.count) mutant(s) from Tests/Mutants/\(lesson.name).json, graded as learners, \(jobs) at a time")
        if mutants.isEmpty { return MutantsCommand.nothingToMeasure(lesson, output: output) }
        let checkouts = try writeCheckouts(of: mutants, lesson: lesson, kit: kit)
        // The grading copies `lab grade` uses (their builds stay warm), each grading this lesson only.
        let workspaces = try (0..<max(1, min(jobs, mutants.count))).map { job in
            try GradingWorkspace(kit: kit, protected: [checkouts.folder], name: GradingWorkspace.copyName(job: job), lessons: [lesson])
        }
        if let broken = try workspaces[0].kitIsBroken() {
            output("  " + broken.replacingOccurrences(of: "\n", with: "\n  "))
            return MutantsCommand.Tally(lesson: lesson.name, broken: mutants.count)
        }
        let verdicts = try ParallelGrading.run(mutants.count, width: workspaces.count) { index, job -> [Verdict] in
            let mutant = mutants[index]
            switch checkouts.learners[index] {
            case .failure(let notApplied):
                return [Verdict(broken: notApplied.description)]
            case .success(let checkout):
                let row = try workspaces[job].grade(checkout, learner: mutant.id,
                                                    resultsFile: checkouts.folder.appendingPathComponent("\(mutant.id).results.json"))
                return [Verdict(mutant, graded: row, lesson: lesson.name)]
            }
        }
        return MutantsCommand.tally(lesson, mutants: mutants, verdicts: verdicts, output: output)
    }

    /// One learner's checkout per mutant, `.lab/graded-mutants/<id>/Exercises/<Lesson>`: the reference solution with
    /// the mutant's edits; for a mutant whose edits do not apply, why (it is not graded).
    private static func writeCheckouts(of mutants: [MutantCatalog.Mutant], lesson: LessonCatalog.Lesson, kit: Kit) throws
        -> (folder: URL, learners: [Result<URL, MutantCatalog.CatalogError>]) {
        let folder = kit.stateFolder.appendingPathComponent("graded-mutants")
        try? FileManager.default.removeItem(at: folder)
        let solution = kit.root.appendingPathComponent("Solutions").appendingPathComponent(lesson.name)
        let learners = try mutants.map { mutant -> Result<URL, MutantCatalog.CatalogError> in
            let checkout = folder.appendingPathComponent(mutant.id)
            let lessonFolder = checkout.appendingPathComponent("Exercises").appendingPathComponent(lesson.name)
            try FileManager.default.createDirectory(at: lessonFolder.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: solution, to: lessonFolder)
            do {
                try mutant.apply(in: lessonFolder)
                return .success(checkout)
            } catch let notApplied as MutantCatalog.CatalogError {
                return .failure(notApplied)
            }
        }
        return (folder, learners)
    }
}

extension Verdict {
    /// What grading said of `mutant`'s checkout: the lesson's failed tests, or why it could not be graded.
    init(_ mutant: MutantCatalog.Mutant, graded row: ClassReport.Row, lesson: String) {
        guard let results = row.results else {
            self.init(broken: "could not be graded: \(row.notes.joined(separator: "; "))")
            return
        }
        self.init(mutant, failures: results.tests.filter { $0.lesson == lesson && $0.outcome != .passed })
    }
}
