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

/// A private copy of the kit (in .lab/grading) into which each learner's Exercises/ is put in turn. The kit's own
/// modules stay built between learners, so each grade costs only the lessons' rebuild.
struct GradingWorkspace {
    let kit: Kit
    let folder: URL

    /// What the workspace takes from the kit: everything a build and the tests need, never the learner's.
    static let kitParts = ["Package.swift", "Sources", "Tests", "Fixtures", "lessons.json", "Exercises"]

    init(kit: Kit) throws {
        self.kit = kit
        folder = kit.stateFolder.appendingPathComponent("grading")
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for part in Self.kitParts {
            let target = folder.appendingPathComponent(part)
            try? manager.removeItem(at: target)
            try manager.copyItem(at: kit.root.appendingPathComponent(part), to: target)
        }
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
        var replaced: Set<String> = []
        for lesson in kit.catalog.lessons { try useLearnersCode(lesson.name, from: exercises, notes: &notes) }

        // Build; a lesson that does not compile is swapped for the kit's stubs so the others are still graded.
        var run = LessonRun(root: folder, catalog: kit.catalog)
        run.removedEnvironment = ["LAB_SOLUTIONS", "LAB_RESULTS"]
        var outcome = try run.run(kit.catalog.lessons, resultsFile: resultsFile)
        while !outcome.buildErrors.isEmpty {
            let broken = BuildErrors.lessons(in: outcome.buildErrors).subtracting(replaced)
            guard !broken.isEmpty else { break }
            for lesson in broken.sorted() {
                let first = outcome.buildErrors.first { $0.hasPrefix("Exercises/\(lesson)/") } ?? ""
                notes.append("\(lesson) does not compile (\(first)): graded as not started")
                try copyKitStubs(lesson)
                replaced.insert(lesson)
            }
            outcome = try run.run(kit.catalog.lessons, resultsFile: resultsFile)
        }
        if !outcome.buildErrors.isEmpty || outcome.results.status == "error" {
            notes.append("the copy does not build: \(outcome.buildErrors.first ?? outcome.results.message ?? "see the log")")
            return ClassReport.Row(learner: learner, results: nil, notes: notes)
        }
        var results = outcome.results
        if !replaced.isEmpty {  // say why those lessons score nothing
            for index in results.tests.indices where replaced.contains(results.tests[index].lesson) {
                results.tests[index].outcome = .failed
                results.tests[index].message = "\(results.tests[index].lesson) does not compile"
            }
            results = LabResults(tests: results.tests, catalog: kit.catalog)
            try ResultsFile.write(results, to: resultsFile)
        }
        return ClassReport.Row(learner: learner, results: results, notes: notes)
    }

    /// Puts the learner's Exercises/<lesson> in the workspace, or the kit's stubs when the learner has none.
    private func useLearnersCode(_ lesson: String, from exercises: URL, notes: inout [String]) throws {
        let source = exercises.appendingPathComponent(lesson)
        let target = folder.appendingPathComponent("Exercises").appendingPathComponent(lesson)
        try? FileManager.default.removeItem(at: target)
        if FileManager.default.fileExists(atPath: source.path) {
            try FileManager.default.copyItem(at: source, to: target)
        } else {
            notes.append("no Exercises/\(lesson): graded as not started")
            try copyKitStubs(lesson)
        }
    }

    private func copyKitStubs(_ lesson: String) throws {
        let target = folder.appendingPathComponent("Exercises").appendingPathComponent(lesson)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: kit.root.appendingPathComponent("Exercises").appendingPathComponent(lesson), to: target)
    }
}
