import Foundation
import LabMetadata

/// What `lab grade --github-output` and `--classroom50` leave for an autograding workflow: one learner's results,
/// in the format its grader reads. They are written whatever the tests did, so the grader always has an answer.
enum GradeOutputs {
    /// Fails before any grading when an output could not be written after it: grading takes minutes, and an
    /// instructor trying the options outside CI should hear at once that GITHUB_OUTPUT or Classroom 50's identity is missing.
    static func checkEnvironment(_ options: GradeOptions, catalog: LessonCatalog,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if options.githubOutput, (environment["GITHUB_OUTPUT"] ?? "").isEmpty {
            throw UsageError("--github-output: GITHUB_OUTPUT is not set (GitHub Actions sets it for each step); nothing was graded")
        }
        if options.classroom50 != nil {
            do {
                _ = try Classroom50Result(results: LabResults(tests: [], catalog: catalog), environment: environment)
            } catch {
                throw UsageError("--classroom50: \(error); nothing was graded")
            }
            // Said after the whole grading, with no result.json written, until this was checked first.
            for lesson in catalog.lessons {
                for exercise in lesson.exercises where exercise.points.rounded() != exercise.points {
                    throw UsageError("--classroom50: Classroom 50 takes whole points, and lessons.json gives §\(exercise.section) \(exercise.function) \(exercise.points) a test (pointsPerTest); nothing was graded")
                }
            }
        }
    }

    static func write(_ results: LabResults, options: GradeOptions,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if options.githubOutput {
            guard let path = environment["GITHUB_OUTPUT"], !path.isEmpty else {
                throw UsageError("--github-output: GITHUB_OUTPUT is not set (GitHub Actions sets it for each step)")
            }
            try GitHubOutput.append(results, to: URL(fileURLWithPath: path))
        }
        if let file = options.classroom50 {
            try Classroom50Result(results: results, environment: environment).write(to: URL(fileURLWithPath: file))
        }
    }
}

extension GradingWorkspace {
    /// Every graded test of the lessons, failed because `reason`: a grader then still sees the whole maximum
    /// (the reporter leaves a runner with no `max_score` out of the total altogether).
    func allFailed(because reason: String) -> LabResults {
        let graded = LessonRun(root: workspace.folder, catalog: kit.catalog).gradedTests(of: lessons)
        let tests = graded.map { key, owner -> TestResult in
            let parts = key.split(separator: "/").map(String.init)
            return TestResult(name: parts.last ?? key, testClass: parts.first ?? "", testModule: "\(owner.lesson.name)Tests",
                              outcome: .failed, message: "not graded: \(reason)", lesson: owner.lesson,
                              exercise: owner.exercise, place: kit.catalog.declarationPlaces[key])
        }
        return LabResults(tests: tests, catalog: kit.catalog, errorMessage: reason)
    }
}
