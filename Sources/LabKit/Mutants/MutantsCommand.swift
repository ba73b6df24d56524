import Foundation
import LabMetadata

/// `lab mutants [<lesson>…] [--only id,…] [--repeat N]`: measures how well a lesson's tests grade. Each mutant of
/// Tests/Mutants/<Lesson>.json is applied to a copy of the lesson's reference solution, in a private workspace,
/// and the lesson's tests are run against it: a mistake must be caught (a test fails) and named first (the first
/// failure, in exercise then declaration order, belongs to its exercise and says what `expect` says); a correct
/// variant must pass. Fails below 98 % caught, on any rejected correct variant, on any broken mutant, and on any
/// verdict that changes between repeated runs.
public enum MutantsCommand {
    public static let usage = """
          lab mutants [<lesson>…] [--only ID,…] [--kind mistake|correct] [--repeat N] [--sample K] [-j N] [--graded]
                                  instructors: apply Tests/Mutants/<Lesson>.json's wrong and correct variants to the
                                  reference solution and report caught / named first / correct rejected
                                  (--sample K: every K-th mistake and correct variant of each exercise;
                                  --graded: grade each one as `lab grade` does — sandbox, quick build, time limits)
        """
    static let requiredCaught = 0.98

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let options = try MutantsOptions(arguments)
        let kit = try Kit.here()
        let lessons = options.lessons.isEmpty
            ? kit.catalog.lessons.filter { FileManager.default.fileExists(atPath: MutantCatalog.file(for: $0.name, in: kit).path) }
            : try options.lessons.map { try kit.lesson($0) }
        guard !lessons.isEmpty else { throw UsageError("no lesson has a mutant catalog (Tests/Mutants/<Lesson>.json)") }
        try checkOnly(options.choice.only, kind: options.choice.kind, lessons: lessons, kit: kit)

        var ok = true
        var summaries: [String] = []
        try KitLock.during(kit, say: output) {
            for lesson in lessons {
                let tally = options.graded
                    ? try GradedMutants.measure(lesson, kit: kit, choice: options.choice, jobs: options.jobs, output: output)
                    : try measure(lesson, kit: kit, choice: options.choice, repeats: options.repeats, jobs: options.jobs, output: output)
                summaries.append(tally.summary)
                ok = ok && tally.acceptable
            }
        }
        output("")
        summaries.forEach(output)
        return ok ? 0 : 1
    }

    /// `--only` ids that are in none of the chosen lessons' catalogs: a typo, which measured nothing and exited 0.
    /// `--only` ids all of the other kind than `--kind` (`--only thread-no-resume --kind correct`) measured nothing,
    /// exited 0, and advised writing a catalog: refused too, naming the conflict.
    static func checkOnly(_ only: Set<String>?, kind: MutantCatalog.Mutant.Kind? = nil, lessons: [LessonCatalog.Lesson], kit: Kit) throws {
        guard let only = only else { return }
        var known: [String: MutantCatalog.Mutant.Kind] = [:]
        for lesson in lessons {
            for mutant in try MutantCatalog.load(lesson.name, in: kit).mutants { known[mutant.id] = mutant.kind }
        }
        let unknown = only.subtracting(known.keys).sorted()
        if !unknown.isEmpty {
            let guesses = unknown.compactMap { Spelling.closest(to: $0, among: Array(known.keys)).map { "did you mean \($0)?" } }
            throw UsageError("--only: no mutant \(unknown.joined(separator: ", ")) in Tests/Mutants/ of \(lessons.map(\.name).joined(separator: ", "))"
                + (guesses.isEmpty ? "" : " (\(guesses.joined(separator: " ")))"))
        }
        if let kind = kind, !only.contains(where: { known[$0] == kind }) {
            let other = only.sorted()
            throw UsageError("--only \(other.joined(separator: ",")) names \(other.count == 1 ? "a \(known[other[0]]!.rawValue)" : "no \(kind.rawValue)"), and --kind \(kind.rawValue) keeps only \(kind == .correct ? "correct variants" : "mistakes"): nothing to measure; leave out one of the two")
        }
    }

    /// What one lesson's mutants gave.
    struct Tally {
        var lesson: String
        var mistakes = 0, caught = 0, namedFirst = 0
        var corrects = 0, rejected = 0
        var broken = 0, unstable = 0
        /// Mistakes whose first failure does not state its diagnosis within `FirstLine.limit` characters.
        var longFirstLines = 0

        var caughtShare: Double { mistakes == 0 ? 1 : Double(caught) / Double(mistakes) }
        var acceptable: Bool {
            caughtShare >= MutantsCommand.requiredCaught && rejected == 0 && broken == 0 && unstable == 0 && longFirstLines == 0
        }

        var summary: String {
            func percent(_ part: Int, _ whole: Int) -> String {
                whole == 0 ? "-" : String(format: "%.1f %%", 100 * Double(part) / Double(whole))
            }
            var parts: [String] = []
            if mistakes > 0 || corrects == 0 {
                parts.append("mistakes caught \(caught)/\(mistakes) (\(percent(caught, mistakes))), named first \(namedFirst)/\(mistakes) (\(percent(namedFirst, mistakes)))")
            }
            if corrects > 0 || mistakes == 0 { parts.append("correct variants rejected \(rejected)/\(corrects)") }
            var line = "\(lesson): " + parts.joined(separator: "; ")
            if broken > 0 { line += "; \(broken) broken mutant(s)" }
            if unstable > 0 { line += "; \(unstable) verdict(s) changed between runs" }
            if longFirstLines > 0 { line += "; \(longFirstLines) first line(s) over \(FirstLine.limit) characters" }
            return line
        }
    }

    /// Which of a catalog's mutants a run takes.
    struct Choice {
        var only: Set<String>?
        var kind: MutantCatalog.Mutant.Kind?
        var sample = 1

        func mutants(of lesson: LessonCatalog.Lesson, in kit: Kit) throws -> [MutantCatalog.Mutant] {
            let catalog = try MutantCatalog.load(lesson.name, in: kit)
            let chosen = catalog.mutants.filter { mutant in
                (only?.contains(mutant.id) ?? true) && (kind == nil || mutant.kind == kind)
            }
            return MutantsCommand.sampled(chosen, every: sample)
        }
    }

    static func measure(_ lesson: LessonCatalog.Lesson, kit: Kit, choice: Choice, repeats: Int, jobs: Int,
                        output: (String) -> Void) throws -> Tally {
        let mutants = try choice.mutants(of: lesson, in: kit)
        output("\(lesson.name): \(mutants.count) mutant(s) from Tests/Mutants/\(lesson.name).json, \(jobs) at a time")
        if mutants.isEmpty { return nothingToMeasure(lesson, output: output) }

        // One private workspace per job, each building only this lesson; the reference must pass in each — unless
        // `lab grade` graded it at full marks since the kit last changed (CI grades a class first): then running it
        // again in every workspace of every lesson only cost time. The workspaces build side by side: each is a
        // build of its own, and worker `w` only ever uses `workers[w]`.
        let workers = try (0..<max(1, min(jobs, mutants.count))).map { try MutantWorker(kit: kit, lesson: lesson, number: $0) }
        let verified = GradingWorkspace.verifiedLessons(of: kit, fingerprint: try KitFingerprint.of(kit)).contains(lesson.name)
        let problems = verified ? [] : try ParallelGrading.run(workers.count, width: workers.count) { _, worker in try workers[worker].checkReference() }
        if let problem = problems.compactMap({ $0 }).first {
            output("  the reference solution itself does not pass, so no mutant can be judged: \(problem)")
            return Tally(lesson: lesson.name, broken: mutants.count)
        }
        let verdicts = try ParallelGrading.run(mutants.count, width: workers.count) { index, worker in
            try workers[worker].judge(mutants[index], repeats: repeats)
        }
        return tally(lesson, mutants: mutants, verdicts: verdicts, output: output)
    }

    /// No mutant chosen (a new lesson's empty catalog, or `--only` naming another lesson's): said, and no copy built
    /// for nothing — before, a minute of building ended in "mistakes caught 0/0 (-)".
    static func nothingToMeasure(_ lesson: LessonCatalog.Lesson, output: (String) -> Void) -> Tally {
        output("  nothing to measure: Tests/Mutants/\(lesson.name).json lists no mutant of this choice — write the mistakes learners make and the correct variants they write (README § Measuring the tests)")
        return Tally(lesson: lesson.name)
    }

    /// Counts and prints the verdicts, `verdicts[i]` being the runs of `mutants[i]`.
    static func tally(_ lesson: LessonCatalog.Lesson, mutants: [MutantCatalog.Mutant], verdicts: [[Verdict]],
                      output: (String) -> Void) -> Tally {
        var tally = Tally(lesson: lesson.name)
        for (mutant, runs) in zip(mutants, verdicts) {
            let verdict = Verdict.worst(of: runs, for: mutant)
            let stable = runs.allSatisfy { $0.fingerprint == runs[0].fingerprint }
            switch (mutant.kind, verdict.broken) {
            case (_, .some): tally.broken += 1
            case (.mistake, nil):
                tally.mistakes += 1
                if verdict.caught { tally.caught += 1 }
                if verdict.namedFirst { tally.namedFirst += 1 }
                if verdict.longFirstLine != nil { tally.longFirstLines += 1 }
            case (.correct, nil):
                tally.corrects += 1
                if verdict.caught { tally.rejected += 1 }
            }
            if !stable { tally.unstable += 1 }
            output("  \(verdict.label(for: mutant))\(stable ? "" : "  UNSTABLE: the verdict changed between runs")  \(mutant.id)")
            if let detail = verdict.detail(for: mutant) { output("      \(detail)") }
            if mutant.kind == .mistake, let long = verdict.longFirstLine {
                output("      its first line is \(long.count) characters (over \(FirstLine.limit)): \(long.prefix(160))…")
            }
        }
        return tally
    }
}

/// What `lab mutants` was asked: the lessons (none: every lesson with a catalog), which mutants, how often, how many
/// at once, and whether graded as learners.
struct MutantsOptions {
    var lessons: [String] = []
    var choice = MutantsCommand.Choice()
    var repeats = 1
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var graded = false

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--graded":
                graded = true
                index += 1
                continue
            case "--only", "--repeat", "--sample", "-j", "--jobs", "--kind":
                guard index + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
                let value = arguments[index + 1]
                if argument == "--kind" {
                    guard let chosen = MutantCatalog.Mutant.Kind(rawValue: value) else { throw UsageError("--kind takes mistake or correct") }
                    choice.kind = chosen
                } else if argument == "--only" {
                    choice.only = Set(value.split(separator: ",").map(String.init))
                } else if argument == "--sample" {
                    guard let count = Int(value), count > 0 else { throw UsageError("--sample takes a whole number above 0") }
                    choice.sample = count
                } else if argument == "-j" || argument == "--jobs" {
                    guard let count = Int(value), count > 0 else { throw UsageError("\(argument) takes a whole number above 0") }
                    jobs = count
                } else {
                    guard let count = Int(value), count > 0 else { throw UsageError("--repeat takes a whole number above 0") }
                    repeats = count
                }
                index += 2
                continue
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option \(argument)") }
                lessons.append(argument)
                index += 1
            }
        }
        if graded, repeats > 1 { throw UsageError("--graded grades each mutant once: leave out --repeat") }
    }
}

extension MutantsCommand {
    /// Every `k`-th mutant of each exercise and kind (the first, the (k+1)-th, …): a deterministic slice of the
    /// catalog for a quick run (CI), the same every time, with mistakes and correct variants of every exercise.
    static func sampled(_ mutants: [MutantCatalog.Mutant], every k: Int) -> [MutantCatalog.Mutant] {
        guard k > 1 else { return mutants }
        var seen: [String: Int] = [:]
        return mutants.filter { mutant in
            let group = "\(mutant.exercise) \(mutant.kind)"
            let index = seen[group, default: 0]
            seen[group] = index + 1
            return index % k == 0
        }
    }
}

/// One private workspace that builds only the lesson, and tries mutants in it: the n-th grading copy (`.lab/grading`,
/// `.lab/grading-<n>`), used by each lesson in turn. Mutants and `lab grade` build a lesson alike (the same flags,
/// `LAB_LESSONS`, the quick build), so each finds the kit's modules built by the other: a fresh clone's CI builds
/// them once, not once per command.
struct MutantWorker {
    let lesson: LessonCatalog.Lesson
    let workspace: Workspace
    let solution: URL
    var run: LessonRun
    let resultsFile: URL

    init(kit: Kit, lesson: LessonCatalog.Lesson, number: Int) throws {
        self.lesson = lesson
        workspace = try Workspace(kit: kit, name: GradingWorkspace.copyName(job: number))
        solution = kit.root.appendingPathComponent("Solutions").appendingPathComponent(lesson.name)
        run = workspace.lessonRun()
        run.removedEnvironment = ["LAB_SOLUTIONS", "LAB_RESULTS"]
        run.environment = ["LAB_LESSONS": lesson.name]
        resultsFile = workspace.folder.appendingPathComponent("mutant-results.json")
    }

    /// Runs the reference solution; nil when every test passes, else what failed. 
    func checkReference() throws -> String? {
        try workspace.use(solution, for: lesson.name)
        let reference = try run.run([lesson], resultsFile: resultsFile)
        guard reference.buildErrors.isEmpty, reference.results.status == "pass" else {
            let failed = reference.results.tests.first { $0.outcome != .passed }
            return reference.buildErrors.first ?? failed.map { "\($0.testCode): \($0.message ?? "")" }
                ?? reference.results.message ?? "no test ran"
        }
        return nil
    }

    /// The verdicts of `repeats` runs of the lesson's tests against `mutant` (one, when it does not apply or build).
    func judge(_ mutant: MutantCatalog.Mutant, repeats: Int) throws -> [Verdict] {
        try workspace.use(solution, for: lesson.name)
        defer { try? workspace.use(solution, for: lesson.name) }
        do {
            try mutant.apply(in: workspace.lessonFolder(lesson.name))
        } catch let error as MutantCatalog.CatalogError {
            return [Verdict(broken: error.description)]
        }
        var verdicts: [Verdict] = []
        for _ in 0..<repeats {
            let verdict = Verdict(mutant, outcome: try run.run([lesson], resultsFile: resultsFile))
            verdicts.append(verdict)
            if verdict.broken != nil { break }
        }
        return verdicts
    }
}

/// What the tests said about one mutant.
struct Verdict {
    var broken: String?
    var failures: [TestResult] = []

    init(broken: String) { self.broken = broken }

    init(_ mutant: MutantCatalog.Mutant, outcome: LessonRun.Outcome) {
        self.init(mutant, failures: outcome.results.tests.filter { $0.outcome != .passed })
        if let error = outcome.buildErrors.first ?? (outcome.results.status == "error" ? outcome.results.message : nil) {
            broken = "does not compile: \(error)"
        }
    }

    /// `failures`: the failed tests, in exercise then declaration order.
    init(_ mutant: MutantCatalog.Mutant, failures: [TestResult]) {
        self.failures = failures
        self.mutant = mutant
    }

    private var mutant: MutantCatalog.Mutant?

    var caught: Bool { !failures.isEmpty }
    var first: TestResult? { failures.first }

    var namedFirst: Bool {
        guard let mutant = mutant, let first = first, first.exercise == mutant.exercise else { return false }
        let message = (first.message ?? "").lowercased()
        return (mutant.expect ?? []).allSatisfy { message.contains($0.lowercased()) }
    }

    /// The first failure's first line, when it is too long to read as a diagnosis.
    var longFirstLine: String? {
        guard let message = first?.message, let line = message.split(separator: "\n", omittingEmptySubsequences: false).first,
              line.count > FirstLine.limit else { return nil }
        return String(line)
    }

    /// Which tests failed, and whether the first named the mistake, for comparing repeated runs.
    var fingerprint: String { broken ?? failures.map(\.testCode).joined(separator: ",") + (namedFirst ? "" : " (not named)") }

    /// The run that counts among repeated ones: the worst — a mistake missed or misnamed in one run of three is
    /// missed or misnamed, a correct variant rejected once is rejected.
    static func worst(of runs: [Verdict], for mutant: MutantCatalog.Mutant) -> Verdict {
        let worse: (Verdict) -> Bool = mutant.kind == .correct ? { $0.caught } : { !$0.caught }
        return runs.first { $0.broken != nil } ?? runs.first(where: worse)
            ?? (mutant.kind == .mistake ? runs.first { !$0.namedFirst } : nil) ?? runs[0]
    }

    func label(for mutant: MutantCatalog.Mutant) -> String {
        if broken != nil { return "BROKEN       " }
        switch mutant.kind {
        case .mistake: return !caught ? "MISSED       " : namedFirst ? "caught, named" : "caught, NOT named first"
        case .correct: return caught ? "REJECTED     " : "accepted     "
        }
    }

    func detail(for mutant: MutantCatalog.Mutant) -> String? {
        if let broken = broken { return broken }
        switch mutant.kind {
        case .mistake:
            if !caught { return "\(mutant.about): no test failed" }
            if namedFirst { return nil }
            guard let first = first else { return nil }
            return "\(mutant.about) — first failure (§\(first.exercise)) \(first.classAndName): \(first.message ?? "")"
        case .correct:
            guard let first = first else { return nil }
            return "\(mutant.about) — \(failures.count) test(s) fail; first \(first.classAndName): \(first.message ?? "")"
        }
    }
}
