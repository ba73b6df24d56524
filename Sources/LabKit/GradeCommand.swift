import Foundation
import LabMetadata

/// `lab grade <checkout>… [--out DIR]`: grades each learner's copy with the kit's own pristine Package.swift,
/// Tests/ and Fixtures/ — only the learner's Exercises/ is taken, and the learner's manifest never runs — then
/// writes a class report (CSV and Markdown) and each learner's results file.
public enum GradeCommand {
    public static let usage = """
          lab grade <checkout>… [--out DIR]
                                  instructors: grade learners' copies with the kit's pristine tests; writes
                                  DIR/class-report.csv, DIR/class-report.md and DIR/<learner>.results.json (DIR: lab-grades)
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        var checkouts: [String] = []
        var outFolder = "lab-grades"
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--out" {
                guard index + 1 < arguments.count else { throw UsageError("--out needs a folder") }
                outFolder = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("-") { throw UsageError("unknown option \(argument)") }
            checkouts.append(argument)
            index += 1
        }
        guard !checkouts.isEmpty else { throw UsageError("`lab grade` needs at least one learner's checkout") }

        let kit = try Kit.here()
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let out = URL(fileURLWithPath: outFolder, relativeTo: cwd).standardizedFileURL
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let workspace = try GradingWorkspace(kit: kit)

        var rows: [ClassReport.Row] = []
        for (number, path) in checkouts.enumerated() {
            let checkout = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
            let learner = ClassReport.uniqueName(checkout.lastPathComponent, among: rows.map(\.learner))
            output("[\(number + 1)/\(checkouts.count)] grading \(learner) (\(checkout.path))…")
            let row = try workspace.grade(checkout, learner: learner, resultsFile: out.appendingPathComponent("\(learner).results.json"))
            output("      \(row.summary)")
            rows.append(row)
        }
        let report = ClassReport(catalog: kit.catalog, rows: rows)
        try report.csv.write(to: out.appendingPathComponent("class-report.csv"), atomically: true, encoding: .utf8)
        try report.markdown.write(to: out.appendingPathComponent("class-report.md"), atomically: true, encoding: .utf8)
        output("\n" + report.markdown)
        output("Wrote \(out.path)/class-report.csv, class-report.md and one results file per learner.")
        return 0
    }
}

/// Grades learners one after another in a private copy of the kit (`.lab/grading`), into which each learner's
/// Exercises/ is put in turn. The kit's own modules stay built between learners, so each grade costs only the
/// lessons' rebuild.
struct GradingWorkspace {
    let kit: Kit
    let workspace: Workspace

    init(kit: Kit) throws {
        self.kit = kit
        workspace = try Workspace(kit: kit, name: "grading")
    }

    func grade(_ checkout: URL, learner: String, resultsFile: URL) throws -> ClassReport.Row {
        let exercises = checkout.appendingPathComponent("Exercises")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: exercises.path, isDirectory: &isFolder), isFolder.boolValue else {
            let note = FileManager.default.fileExists(atPath: checkout.path)
                ? "not a lab checkout: it has no Exercises/ folder" : "not found: no such folder"
            try ResultsFile.write(LabResults(tests: [], catalog: kit.catalog, errorMessage: note), to: resultsFile)
            return ClassReport.Row(learner: learner, results: nil, notes: [note])
        }
        var notes: [String] = []
        for lesson in kit.catalog.lessons {
            let source = exercises.appendingPathComponent(lesson.name)
            if FileManager.default.fileExists(atPath: source.path) {
                try workspace.use(source, for: lesson.name)
            } else {
                notes.append("no Exercises/\(lesson.name): graded as not started")
                try workspace.useStubs(for: lesson.name)
            }
        }
        var run = LessonRun(root: workspace.folder, catalog: kit.catalog)
        run.removedEnvironment = ["LAB_SOLUTIONS", "LAB_RESULTS"]
        let (outcome, replaced) = try run.runAroundBrokenLessons(kit.catalog.lessons, resultsFile: resultsFile, in: workspace)
        notes += replaced.map { "\($0.lesson) does not compile (\($0.error)): graded as not started" }
        if !outcome.buildErrors.isEmpty || outcome.results.status == "error" {
            notes.append("the copy does not build: \(outcome.buildErrors.first ?? outcome.results.message ?? "see the log")")
            return ClassReport.Row(learner: learner, results: nil, notes: notes)
        }
        var results = outcome.results
        let broken = Set(replaced.map(\.lesson))
        if !broken.isEmpty {  // say why those lessons score nothing
            for index in results.tests.indices where broken.contains(results.tests[index].lesson) {
                results.tests[index].outcome = .failed
                results.tests[index].message = "\(results.tests[index].lesson) does not compile"
            }
            results = LabResults(tests: results.tests, catalog: kit.catalog)
            try ResultsFile.write(results, to: resultsFile)
        }
        return ClassReport.Row(learner: learner, results: results, notes: notes)
    }
}

extension LessonRun {
    /// Runs `lessons`; when some lesson's Exercises/ code does not compile, puts the kit's stubs in its place in
    /// `workspace` (the run's own folder) and runs again, so the other lessons are still graded. Returns the outcome
    /// and the lessons replaced, each with its first compiler error.
    func runAroundBrokenLessons(_ lessons: [LessonCatalog.Lesson], resultsFile: URL, in workspace: Workspace) throws
        -> (outcome: Outcome, replaced: [(lesson: String, error: String)]) {
        var replaced: [(lesson: String, error: String)] = []
        var outcome = try run(lessons, resultsFile: resultsFile)
        while !outcome.buildErrors.isEmpty {
            let broken = BuildErrors.lessons(in: outcome.buildErrors).subtracting(replaced.map(\.lesson))
            guard !broken.isEmpty else { break }
            for lesson in broken.sorted() {
                let first = outcome.buildErrors.first { $0.hasPrefix("Exercises/\(lesson)/") } ?? ""
                try workspace.useStubs(for: lesson)
                replaced.append((lesson, first))
            }
            outcome = try run(lessons, resultsFile: resultsFile)
        }
        return (outcome, replaced)
    }
}
