import Foundation
import LabMetadata

/// `lab`, `lab check`, `lab hint`, `lab watch`: the learner's loop.
public enum LearnerCommands {
    public static let usage = """
          lab [progress]          your progress: every lesson's status and points, and what to do next
          lab check <lesson>      run one lesson's tests: what passes, the first failure, a hint
          lab hint <lesson>       the next hint for the lesson's first unfinished exercise (one at a time)
          lab hint <lesson> <n>   hint n again, of the exercise whose hint you saw last; `--again`: all seen so far
          lab hint <section> [<n>|--again]
                                  the same for one exercise, without running the tests: `lab hint 1.3`
          lab watch [<lesson>]    re-check whenever you save a file in Exercises/ (Ctrl-C stops)
        """

    /// `lab`: runs every lesson and prints where the learner stands.
    public static func progress(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let kit = try Kit.here()
        if let first = arguments.first {
            if let lesson = kit.catalog.lesson(named: first) {
                throw UsageError("progress covers every lesson; for one lesson, `lab check \(lesson.name)`")
            }
            throw UsageError("unknown option \(first)")
        }
        guard let firstLesson = kit.catalog.lessons.first else {
            output("lessons.json lists no lessons yet: nothing to run.")
            return 1
        }
        output("Running every lesson's tests…")
        if let note = solutionsNote() { output(note) }
        let (outcome, replaced) = try kit.runAroundBrokenLessons(kit.catalog.lessons)
        if !outcome.buildErrors.isEmpty || outcome.results.status == "error" {
            output(CheckReport(kit: kit, lesson: firstLesson, outcome: outcome, replaced: replaced).text)
            return 1
        }
        let results = outcome.results
        var lines = ["", "REST Lab — your progress: \(points(results.score)) of \(points(results.maxScore)) points", ""]
        let width = kit.catalog.lessons.map { $0.title.count }.max() ?? 0
        // "Lesson 9" and "Lesson 10" in one column: the titles start together.
        let nameWidth = kit.catalog.lessons.map { "Lesson \($0.chapter)".count }.max() ?? 0
        for lesson in kit.catalog.lessons {
            let tests = results.tests(of: lesson)
            let score = tests.reduce(0) { $0 + $1.points }, maxScore = tests.reduce(0) { $0 + $1.maxPoints }
            let broken = replaced.first { $0.lesson == lesson.name }
            let label = broken == nil ? Progress(lesson, results: results).label : "does not compile: \(broken!.error)"
            lines.append("  \(padded("Lesson \(lesson.chapter)", nameWidth))  \(padded(lesson.title, width))  \(padded("\(points(score))/\(points(maxScore))", 7))  \(label)")
        }
        lines.append("")
        if !replaced.isEmpty {
            lines.append("A lesson that does not compile was graded with its stubs in its place, so the others could run; fix it, or run `swift run lab check <lesson>` for its errors.")
            lines.append("")
        }
        let kitFault = kit.catalog.lessons.lazy.compactMap { lesson in KitFault.first(in: results.tests(of: lesson)).map { (lesson, $0) } }.first
        if let (lesson, broken) = kitFault {
            lines += KitFault.explanation(broken, lesson: lesson)  // not the learner's to fix: said before any "Next"
            lines.append("")
        }
        lines += nextStep(kit: kit, results: results, replaced: replaced.map(\.lesson), kitIsBroken: kitFault != nil)
        output(lines.joined(separator: "\n"))
        return 0
    }

    /// With `LAB_SOLUTIONS=1` in the environment (an instructor who swapped in the reference solutions), SwiftPM
    /// builds Solutions/: a report of "All 35 tests pass" must not read as the learner's Exercises/.
    static func solutionsNote(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        LessonRun.codeFolder(solutions: environment["LAB_SOLUTIONS"]) == "Solutions"
            ? "LAB_SOLUTIONS=1 is set: this checks the reference solutions in Solutions/, not Exercises/ (unset it to check your own code)."
            : nil
    }

    /// `lab check <lesson>`
    public static func check(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let kit = try Kit.here()
        PhaseTimes.mark("kit read")
        let lesson = try kit.lesson(try onlyLesson(arguments, command: "check", kit: kit))
        output("Checking \(lesson.name)…")
        if let note = solutionsNote() { output(note) }
        let (outcome, replaced) = try kit.runAroundBrokenLessons([lesson], shownAsErrors: [lesson.name])
        PhaseTimes.mark("report")
        output(CheckReport(kit: kit, lesson: lesson, outcome: outcome, replaced: replaced).text)
        return outcome.results.status == "pass" ? 0 : 1
    }

    /// "5.9" → "5": the chapter of a section number; nil for anything else ("Lesson5", "5").
    static func chapter(ofSection name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return String(parts[0])
    }

    /// `lab hint <lesson | section> [<n> | --again]`: the next hint, hint n again, or every hint seen so far.
    public static func hint(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        try hint(arguments, kit: try Kit.here(), output: output)
    }

    static func hint(_ arguments: [String], kit: Kit, output: (String) -> Void) throws -> Int32 {
        let request = try HintRequest(arguments)
        var book = HintBook(kit: kit)
        let lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise
        let section = request.name.hasPrefix("§") ? String(request.name.dropFirst()) : request.name
        if let named = kit.catalog.exercise(forSection: request.name) {
            (lesson, exercise) = named  // a section names the exercise: no test run
        } else if let chapter = Self.chapter(ofSection: section),
                  let owner = kit.catalog.lessons.first(where: { $0.chapter == chapter }) {
            // "5.9": a section of the chapter, but not an exercise's (an explanation, "What the tests check").
            let sections = owner.exercises.map(\.section).joined(separator: ", ")
            throw UsageError("§\(section) is not an exercise, so it has no hints. \(owner.name)'s exercises are "
                + "\(sections): `swift run lab hint \(owner.exercises.first?.section ?? owner.name)`, or "
                + "`swift run lab hint \(owner.name)` for the first one you have not finished.")
        } else {
            if Self.chapter(ofSection: section) != nil {
                // A section of no lesson: "unknown lesson '11.2'" would send the learner to the wrong list.
                throw UsageError("no exercise §\(section); the lessons are \(kit.catalog.lessonNames)")
            }
            lesson = try kit.lesson(request.name)
            if request.rereads, let section = book.lastSection(in: lesson), let seen = kit.catalog.exercise(forSection: section) {
                exercise = seen.exercise  // re-reading: the exercise whose hint was shown last
            } else {
                output("Running \(lesson.name)'s tests to find its first unfinished exercise…")
                let (outcome, replaced) = try kit.runAroundBrokenLessons([lesson], shownAsErrors: [lesson.name])
                guard outcome.buildErrors.isEmpty, outcome.results.status != "error" else {
                    output(CheckReport(kit: kit, lesson: lesson, outcome: outcome, replaced: replaced).text)
                    return 1
                }
                if let broken = KitFault.first(in: outcome.results.tests(of: lesson)),
                   outcome.results.firstUnfinished(in: [lesson], skippingTheKits: true) == nil {
                    // Every exercise left is one the kit itself broke: no hint can help the learner with that.
                    output(KitFault.explanation(broken, lesson: lesson).joined(separator: "\n"))
                    return 1
                }
                guard let (_, unfinished) = outcome.results.firstUnfinished(in: [lesson], skippingTheKits: true) else {
                    output("Every exercise of \(lesson.name) passes: no hint needed." + (lesson.exercises.first.map {
                        " (`swift run lab hint \($0.section)` still shows §\($0.section)'s hints.)" } ?? ""))
                    return 0
                }
                exercise = unfinished
            }
        }
        output(try request.answer(lesson: lesson, exercise: exercise, book: &book))
        return 0
    }

    /// `lab watch [<lesson>] [--runs N]`: checks now, then again after every save under Exercises/.
    public static func watch(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        var rest = Kit.joiningSplitLessonName(arguments)
        var runs = Int.max
        if let index = rest.firstIndex(of: "--runs") {
            guard index + 1 < rest.count, let count = Int(rest[index + 1]), count > 0 else {
                throw UsageError("--runs takes a whole number above 0")
            }
            runs = count
            rest.removeSubrange(index...(index + 1))
        }
        if let option = rest.first(where: { $0.hasPrefix("-") }) { throw UsageError("unknown option \(option)") }
        guard rest.count <= 1 else { throw UsageError("watch takes one lesson at most") }
        let kit = try Kit.here()
        let lesson = try rest.first.map { try kit.lesson($0) }
        let folder = kit.root.appendingPathComponent("Exercises").appendingPathComponent(lesson?.name ?? "")
        output("Watching \(folder.path.replacingOccurrences(of: kit.root.path + "/", with: "")): save a file to check again (Ctrl-C stops).")

        var seen: [String: Data]? = nil  // nil: check at once
        var done = 0
        while done < runs {
            let now = contents(under: folder)
            if now != seen {
                // What was checked is what was there before the run: a file saved while it builds or runs differs
                // from it, and is checked next, at once.
                seen = now
                done += 1
                if let lesson = lesson {
                    let (outcome, replaced) = try kit.runAroundBrokenLessons([lesson], shownAsErrors: [lesson.name])
                    if outcome.log.contains("modified during the build"), contents(under: folder) != now {
                        output("(a file was saved while it was being compiled: checking again)")
                        done -= 1
                        continue
                    }
                    output(CheckReport(kit: kit, lesson: lesson, outcome: outcome, replaced: replaced).text)
                } else {
                    _ = try progress([], output: output)
                }
                output("\n— watching for changes —")
            }
            if done < runs { Thread.sleep(forTimeInterval: 0.5) }
        }
        return 0
    }

    private static func onlyLesson(_ arguments: [String], command: String, kit: Kit) throws -> String {
        let arguments = Kit.joiningSplitLessonName(arguments)
        guard arguments.count == 1, let name = arguments.first, !name.hasPrefix("-") else {
            throw UsageError("`lab \(command)` takes one lesson, e.g. `lab \(command) Lesson1`. Valid lessons: \(kit.catalog.lessonNames).")
        }
        return name
    }

    /// The files under `folder` and what they hold: a save that changes nothing (or a touch) checks nothing again.
    static func contents(under folder: URL) -> [String: Data] {
        let paths = (try? regularFiles(under: folder)) ?? []
        return Dictionary(uniqueKeysWithValues: paths.compactMap { path -> (String, Data)? in
            (try? Data(contentsOf: folder.appendingPathComponent(path))).map { (path, $0) }
        })
    }
}
