import Foundation
import LabMetadata

/// `lab grade <checkout>… [--out DIR] [-j N] [--lesson L]`: grades each learner's copy with the kit's own pristine
/// Package.swift, Tests/ and Fixtures/ — only the learner's Exercises/ is taken, and the learner's manifest never
/// runs — then writes a class report (HTML, CSV, Markdown: `ClassReportFiles`) and each learner's results file. With `--github-output` or
/// `--classroom50 FILE` it grades one checkout for an autograding workflow (GradeOutputs).
public enum GradeCommand {
    public static let usage = """
          lab grade <checkout>… [--out DIR] [-j N] [--lesson L]
                                  instructors: grade learners' copies with the kit's pristine tests, N at once (default:
                                  the number of cores), each in its own grading copy; writes DIR/class-report.html
                                  (where the class is stuck, and what changed since the last grading into DIR),
                                  DIR/class-report.csv, .md, .json and DIR/<learner>.results.json (DIR: lab-grades).
                                  --lesson (repeatable, or Lesson1,Lesson2): only those lessons
          lab grade <checkout> --lesson L --github-output
                                  GitHub Actions autograding: appends result=<base64 JSON> to $GITHUB_OUTPUT for the
                                  autograding reporter, and exits 0 whatever the tests did (README § Autograding)
          lab grade <checkout> --classroom50 FILE
                                  Classroom 50: writes its result.json (classroom50/result/v1) to FILE, and exits 0
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let options = try GradeOptions(arguments)
        let kit = try Kit.here()
        var lessons = kit.catalog.lessons
        if !options.lessons.isEmpty {
            let named = Set(try options.lessons.map { try kit.lesson($0).name })
            lessons = lessons.filter { named.contains($0.name) }
        }
        try GradeOutputs.checkEnvironment(options, catalog: LessonCatalog(lessons: lessons))  // the lessons graded
        try checkOutFolder(options.outFolder)
        return try KitLock.during(kit, say: output) {
            try gradeClass(options, lessons: lessons, kit: kit, output: output)
        }
    }

    /// The report folder: made now if need be, so that a path that is a file, or a folder that cannot be made, is
    /// said in one line before any learner is graded (not as Foundation's error after the kit's check).
    static func checkOutFolder(_ path: String,
                               cwd: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        let out = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd.path, isDirectory: true)).standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: out.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw UsageError("--out \(path): that is a file, not a folder; name a folder for the class report (default: lab-grades)")
            }
            guard FileManager.default.isWritableFile(atPath: out.path) else {
                throw UsageError("--out \(path): that folder cannot be written to; name another folder for the class report")
            }
            return
        }
        var above = out.deletingLastPathComponent()
        while above.path != "/" {  // a file on the way: Foundation would say only "NSCocoaErrorDomain error 512"
            if FileManager.default.fileExists(atPath: above.path, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw UsageError("--out \(path): \(above.path) is a file, not a folder; name a folder for the class report (default: lab-grades)")
                }
                break
            }
            above = above.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        } catch {
            throw UsageError("--out \(path): cannot make that folder for the class report (\((error as NSError).localizedDescription)); name another folder")
        }
    }

    private static func gradeClass(_ options: GradeOptions, lessons: [LessonCatalog.Lesson], kit: Kit,
                                   output: (String) -> Void) throws -> Int32 {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let out = URL(fileURLWithPath: options.outFolder, relativeTo: cwd).standardizedFileURL
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let checkouts = options.checkouts.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        // One grading copy per job: `.lab/grading`, `.lab/grading-2`, … (each keeps its build between runs).
        let workspaces = try (0..<min(options.jobs, checkouts.count)).map { job in
            try GradingWorkspace(kit: kit, protected: checkouts + [out], name: GradingWorkspace.copyName(job: job), lessons: lessons)
        }
        if let broken = try workspaces[0].kitIsBroken() {
            output(broken)
            guard options.forAutograder else { return 1 }
            try GradeOutputs.write(workspaces[0].allFailed(because: "the kit is broken, nothing was graded"), options: options)
            return 0
        }
        var learners: [String] = []
        for checkout in checkouts { learners.append(ClassReport.uniqueName(checkout.lastPathComponent, among: learners)) }
        let said = NSLock()  // one line at a time from the jobs
        let order = GradingOrder.grouped(checkouts, lessons: lessons)
        let graded = try withoutActuallyEscaping(output) { output in
            try ParallelGrading.run(checkouts.count, width: workspaces.count) { position, job -> ClassReport.Row in
                let index = order[position]
                let (learner, checkout) = (learners[index], checkouts[index])
                func say(_ text: String) { said.lock(); output(text); said.unlock() }
                say("[\(position + 1)/\(checkouts.count)] grading \(learner) (\(checkout.path))…")
                let row = try workspaces[job].grade(checkout, learner: learner,
                                                    resultsFile: out.appendingPathComponent("\(learner).results.json"))
                say(workspaces.count == 1 ? "      \(row.summary)" : "[\(position + 1)/\(checkouts.count)] \(learner): \(row.summary)")
                return row
            }
        }
        var rows = graded
        for (position, index) in order.enumerated() { rows[index] = graded[position] }  // the order they were given in
        let report = ClassReport(catalog: LessonCatalog(lessons: lessons), rows: rows)  // `--lesson`: only its columns
        try ClassReportFiles.write(report, to: out, sectionTitles: LessonSections.titles(ofKitAt: kit.root))
        output("\n" + report.markdown)
        output("Wrote \(out.path)/class-report.html (open it in a browser: where the class is stuck), class-report.csv, class-report.md, class-report.json and one results file per learner.")
        if options.forAutograder, let row = rows.first {
            try GradeOutputs.write(row.results ?? workspaces[0].allFailed(because: row.notes.last ?? "it could not be graded"),
                                   options: options)
        }
        return 0
    }
}

/// Grades learners one after another in a private copy of the kit (`.lab/grading`, or `grading-<n>` for the n-th
/// job of a parallel grade), into which each learner's
/// Swift files are put in turn (`LearnerCode`, checked by `IntegrityScan`). Before each learner the kit's own files
/// are put back, so nothing one learner's code changed reaches the next; the kit's modules stay built between
/// learners, so each grade costs only the lessons' own compile (`QuickBuild`) and the tests' run.
struct GradingWorkspace {
    let kit: Kit
    let workspace: Workspace
    /// Folders the learners' tests may not change: the kit, every checkout, the report folder.
    let protected: [URL]

    /// The lessons graded: all of them, but for the kit's own tests of grading.
    let lessons: [LessonCatalog.Lesson]

    /// The grading copy of the `job`-th job (from 0): `grading`, `grading-2`, … (`lab mutants` tries mutants in them too).
    static func copyName(job: Int) -> String { job == 0 ? "grading" : "grading-\(job + 1)" }

    init(kit: Kit, protected: [URL], name: String = "grading", lessons: [LessonCatalog.Lesson]? = nil) throws {
        self.kit = kit
        workspace = try Workspace(kit: kit, name: name, takingExercises: false)
        self.protected = [kit.root] + protected
        self.lessons = lessons ?? kit.catalog.lessons
    }

    func grade(_ checkout: URL, learner: String, resultsFile: URL) throws -> ClassReport.Row {
        try grade(exercises: checkout.appendingPathComponent("Exercises"), learner: learner, resultsFile: resultsFile)
    }

    /// Grades the lessons in `exercises` (a learner's Exercises/, or the kit's Solutions/).
    func grade(exercises: URL, learner: String, resultsFile: URL) throws -> ClassReport.Row {
        let checkout = exercises.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: exercises.path, isDirectory: &isFolder), isFolder.boolValue else {
            let note = Self.whyNotACheckout(checkout)
            try ResultsFile.write(LabResults(tests: [], catalog: kit.catalog, errorMessage: note), to: resultsFile)
            return ClassReport.Row(learner: learner, results: nil, notes: [note])
        }
        try workspace.restoreKit()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: exercises.path)) ?? []
        var notes = Self.strayEntries(entries, in: exercises, lessons: kit.catalog.lessons.map(\.name))
        var refused: [String: String] = [:]  // lesson → why its code is not graded
        for lesson in lessons {
            let source = exercises.appendingPathComponent(lesson.name)
            guard FileManager.default.fileExists(atPath: source.path) else {
                let lookalike = entries.first { $0.lowercased() == lesson.name.lowercased() }
                notes.append("no Exercises/\(lesson.name)\(lookalike.map { " (Exercises/\($0) is there: the folder must be named \(lesson.name))" } ?? ""): graded as not started")
                try workspace.useStubs(for: lesson.name)
                continue
            }
            let code = LearnerCode(lessonFolder: source, exercises: exercises, shownAs: "Exercises/\(lesson.name)")
            notes += code.notes
            // A refused link is named as one: "does not compile" (the file missing) would hide what happened.
            let problems = code.refusedLinks.map { "refused: \($0)" }
                + IntegrityScan(kitRoot: kit.root, lesson: lesson.name).violations(in: code.files, folder: "Exercises/\(lesson.name)")
                    .map { "not graded: \($0)" }
            if let first = problems.first {
                refused[lesson.name] = first
                notes += problems.prefix(max(1, code.refusedLinks.count)).map { "\(lesson.name) \($0)" }
                try workspace.useStubs(for: lesson.name)
            } else {
                try workspace.use(files: code.files, for: lesson.name)
            }
        }
        var run = workspace.lessonRun()
        run.pieceSeconds = 2.5  // fewer processes: a class keeps the cores busy
        run.removedEnvironment = ["LAB_SOLUTIONS", "LAB_RESULTS"]
        run.hidden = protected
        // Only the lessons and their tests: the kit's own test targets and tools are not built for grading.
        run.environment["LAB_LESSONS"] = lessons.map(\.name).joined(separator: ",")
        let (outcome, replaced) = try run.runAroundBrokenLessons(lessons, resultsFile: resultsFile, in: workspace)
        notes += replaced.map { "\($0.lesson) does not compile (\($0.error)): its tests fail, 0 points" }
        notes += outcome.notes
        if !outcome.buildErrors.isEmpty || outcome.results.status == "error" {
            notes.append("the kit does not build with this copy: \(outcome.buildErrors.first ?? outcome.results.message ?? "see the log")")
            return ClassReport.Row(learner: learner, results: nil, notes: notes)
        }
        var results = outcome.results
        var why = refused
        // With the compiler's error: a learner graded by GitHub's reporter reads these messages, not the notes.
        for broken in replaced { why[broken.lesson] = "\(broken.lesson) does not compile: \(broken.error)" }
        if !why.isEmpty {  // say why those lessons score nothing
            for index in results.tests.indices {
                guard let reason = why[results.tests[index].lesson] else { continue }
                results.tests[index].outcome = .failed
                results.tests[index].message = reason
            }
            results = LabResults(tests: results.tests, catalog: kit.catalog)
            try ResultsFile.write(results, to: resultsFile)
        }
        return ClassReport.Row(learner: learner, results: results, notes: notes + Self.stoppedTests(in: results))
    }

    /// Why `path` is not a learner's checkout, for its row — and, when it lies inside one (its Exercises/ or a
    /// lesson folder was given), which folder to give instead.
    static func whyNotACheckout(_ path: URL) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else { return "not found: no such folder" }
        guard isFolder.boolValue else { return "not a lab checkout: it is a file, not a folder" }
        var above = path.deletingLastPathComponent()
        for _ in 0..<3 where above.path != "/" {
            if FileManager.default.fileExists(atPath: above.appendingPathComponent("Exercises").path, isDirectory: &isFolder),
               isFolder.boolValue, path.path.hasPrefix(above.appendingPathComponent("Exercises").path) {
                return "not a lab checkout but a folder inside one: give \(above.path), the folder that holds Exercises/"
            }
            above = above.deletingLastPathComponent()
        }
        return "not a lab checkout: it has no Exercises/ folder"
    }

    /// Notes for what sits in Exercises/ outside every lesson folder — a `.swift` file moved up a level, a folder
    /// named `lesson1` — which is never graded: said, so that a learner's 0 is not a mystery. `entries`: the names
    /// in `exercises`.
    static func strayEntries(_ entries: [String], in exercises: URL, lessons: [String]) -> [String] {
        let names = entries.sorted()
        let present = Set(names)
        return names.filter { !$0.hasPrefix(".") }.compactMap { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: exercises.appendingPathComponent(name).path, isDirectory: &isFolder)
            if let lesson = lessons.first(where: { $0.lowercased() == name.lowercased() }) {
                // `lesson1` for Lesson1 is said where Lesson1 is missing (when it is graded), not twice; beside a
                // Lesson1 it was said nowhere, and a learner's file moved into it showed only as "does not compile".
                guard name != lesson, present.contains(lesson) else { return nil }
                return "Exercises/\(name)/ is not graded: only Exercises/\(lesson)/ is (a folder's name must match in capitals too): move its files there"
            }
            return isFolder.boolValue
                ? "Exercises/\(name)/ is not a lesson folder (they are named \(lessons.first ?? "Lesson1"), \(lessons.dropFirst().first ?? "Lesson2"), …): not graded"
                : "Exercises/\(name) is in no lesson folder: not graded"
        }
    }

    /// Notes naming the exercises whose tests hung, crashed or ended the test process: the row says what happened.
    static func stoppedTests(in results: LabResults) -> [String] {
        let kinds = [("took longer than", "stopped for taking too long (an endless loop or a long wait?)"),
                     ("the test crashed", "crashed"), ("ended the test process", "ended by a call to exit()")]
        var notes: [String] = []
        for (marker, said) in kinds {
            let hit = results.tests.filter { $0.message?.contains(marker) == true }
            let sections = Array(Set(hit.map(\.exercise))).sorted()
            guard !sections.isEmpty else { continue }
            notes.append("\(hit.count) test\(hit.count == 1 ? "" : "s") \(said): §\(sections.joined(separator: ", §"))")
        }
        return notes
    }
}

extension GradingWorkspace {
    /// Grades the kit's own solutions first, so that a broken kit (a fixture, a test, a solution) is not graded as
    /// every learner's fault: a message blaming the kit when they fall short of full marks, nil when they earn them.
    /// Remembered until the kit's files change (`.lab/kit-verified`).
    func kitIsBroken() throws -> String? {
        if let missing = Self.lessonsWithoutSolutions(of: lessons, kit: kit) { return missing }
        if let unchecked = Self.exercisesWithoutTests(of: lessons, kit: kit) { return unchecked }
        // Taken before the reference is graded: the stamp vouches only for the files that were graded.
        let fingerprint = try KitFingerprint.of(kit)
        let verified = Self.verifiedLessons(of: kit, fingerprint: fingerprint)
        if lessons.allSatisfy({ verified.contains($0.name) }) { return nil }
        let reference = try grade(exercises: kit.root.appendingPathComponent("Solutions"), learner: "reference",
                                  resultsFile: kit.stateFolder.appendingPathComponent("reference.results.json"))
        if let results = reference.results, results.status == "pass" {
            let names = verified.union(lessons.map(\.name)).sorted().joined(separator: ",")
            try "\(fingerprint)\n\(names)".write(to: Self.verifiedStamp(of: kit), atomically: true, encoding: .utf8)
            return nil
        }
        let failed = reference.results?.tests.filter { $0.outcome != .passed } ?? []
        let first = failed.first.map { "\($0.testCode): \($0.message ?? "")" } ?? reference.notes.first ?? "it could not be graded"
        return """
            The kit itself is broken, so nothing was graded: its own reference solutions (Solutions/) fail \(failed.isEmpty ? "to build or run" : "\(failed.count) graded test(s)"), and every learner would be blamed for it.
              First: \(first)
            Fix the kit — a fixture, a test, lessons.json or a solution — and check it with `LAB_SOLUTIONS=1 swift test --disable-swift-testing`.
            """
    }

    /// The lessons whose reference solutions earned full marks when graded, as long as the kit's files have not
    /// changed since (`fingerprint`: the kit's now). `.lab/kit-verified` holds "<fingerprint>\n<lessons verified>": a
    /// check of some lessons (`--lesson`) does not vouch for the others. `lab mutants` trusts it too, instead of
    /// running each reference again.
    static func verifiedLessons(of kit: Kit, fingerprint: String) -> Set<String> {
        let stamped = ((try? String(contentsOf: verifiedStamp(of: kit), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        guard stamped.first == fingerprint else { return [] }
        return Set(stamped.dropFirst().first?.split(separator: ",").map(String.init) ?? [])
    }

    static func verifiedStamp(of kit: Kit) -> URL { kit.stateFolder.appendingPathComponent("kit-verified") }
}

extension GradingWorkspace {
    /// A graded lesson with no folder in Solutions/: its reference was graded as a learner's missing folder, and the
    /// kit was blamed with "First: no Exercises/Lesson1: graded as not started", naming the wrong folder. Said as it is.
    static func lessonsWithoutSolutions(of lessons: [LessonCatalog.Lesson], kit: Kit) -> String? {
        var isFolder: ObjCBool = false
        let missing = lessons.map(\.name).filter { name in
            !(FileManager.default.fileExists(atPath: kit.root.appendingPathComponent("Solutions/\(name)").path, isDirectory: &isFolder)
              && isFolder.boolValue)
        }
        guard !missing.isEmpty else { return nil }
        return """
            The kit itself is broken, so nothing was graded: \(missing.map { "Solutions/\($0)/" }.joined(separator: ", ")) \(missing.count == 1 ? "does" : "do") not exist, and `lab grade` checks the kit against its reference solutions before grading anyone.
            Put \(missing.count == 1 ? "it" : "them") back (`git checkout -- Solutions`, or copy from a fresh clone of the kit); `swift run lab lint` names every place a lesson is missing from.
            """
    }

    /// An exercise of the graded lessons that no test of the kit grades (lessons.json naming a test class its
    /// Tests/ lacks) would drop out of every learner's total, the reference's too, so the check above would pass:
    /// a learner with half of Lesson 1 done was graded 18/18. Said, and nothing graded.
    static func exercisesWithoutTests(of lessons: [LessonCatalog.Lesson], kit: Kit) -> String? {
        let graded = LessonRun(root: kit.root, catalog: kit.catalog).gradedTests(of: lessons)
        let covered = Set(graded.values.map { "\($0.lesson.name) \($0.exercise.section)" })
        let missing = lessons.flatMap { lesson in
            lesson.exercises.filter { !covered.contains("\(lesson.name) \($0.section)") }
                .map { "§\($0.section) \($0.function) (lessons.json: \($0.testClass), which Tests/\(lesson.name)Tests does not declare)" }
        }
        guard !missing.isEmpty else { return nil }
        return """
            The kit itself is broken, so nothing was graded: no test grades \(missing.joined(separator: "; ")), so those points would silently drop out of every learner's total.
            Fix lessons.json or the tests; `swift run lab lint` names every such problem.
            """
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
                var first = outcome.buildErrors.first { BuildErrors.lesson(of: $0) == lesson } ?? ""
                if first.hasPrefix("Tests/") { first = "the tests cannot use your code — a function's name or signature changed, or a file is missing? \(first)" }
                try workspace.useStubs(for: lesson)
                replaced.append((lesson, first))
            }
            outcome = try run(lessons, resultsFile: resultsFile)
        }
        return (outcome, replaced)
    }
}
