import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `lab` command's entry point: picks the subcommand and turns errors into a message and an exit code.
public enum LabCommandLine {
    public static let help = """
        lab — the REST lab kit's companion (run it from the kit's folder as `swift run lab …`)

        LEARNERS
        \(LearnerCommands.usage)
        \(ServeCommand.usage)

        INSTRUCTORS
        \(GradeCommand.usage)
        \(GenerateCommand.usage)
        \(NewLessonCommand.usage)
        \(MutantsCommand.usage)
        \(SolutionsCopyCommand.usage)
          lab lint                check lessons.json against the lessons, tests, sections and hints that exist, and
                                  that every lesson is in each place a lesson needs (naming each it is missing from)

          lab --help              this text (also `lab <command> --help`)

        Lessons are named Lesson1, Lesson2, … or just 1, 2, … (L1, lesson1 and "Lesson 1" work too).
        """

    static let commands = ["progress", "check", "hint", "watch", "serve", "grade", "generate", "new-lesson", "lint", "mutants", "solutions-copy", "--help"]

    /// The lines of `help` that describe `command` (`lab serve --help`: only `lab serve …` and what follows it), with
    /// a pointer to the rest; nil for a command `help` does not describe.
    static func usage(of command: String) -> String? {
        var lines: [Substring] = []
        var inside = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("lab ") || trimmed.hasPrefix("lab\t") || line.isEmpty || !line.hasPrefix(" ") {
                inside = trimmed.hasPrefix("lab \(command) ") || trimmed == "lab \(command)"
            }
            if inside { lines.append(line) }
        }
        guard !lines.isEmpty else { return nil }
        return (lines + ["", "  (`lab --help` lists every command)"]).joined(separator: "\n")
    }

    /// Writes one message to standard output and flushes it at once, so a pipe or a file (`lab watch | tee log`)
    /// sees each line as it is written, not when a buffer fills or the command ends.
    public static func standardOutput(_ text: String) {
        print(text)
        fflush(stdout)
    }

    public static func run(_ arguments: [String], output: (String) -> Void = LabCommandLine.standardOutput) -> Int32 {
        PhaseTimes.mark("lab \(arguments.joined(separator: " "))")
        defer { PhaseTimes.mark("lab done") }
        let command = arguments.first ?? ""
        let rest = Array(arguments.dropFirst())
        if !command.isEmpty, rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
            output(usage(of: command) ?? help)
            return 0
        }
        do {
            switch command {
            case "", "progress": return try LearnerCommands.progress(rest, output: output)
            case "--help", "-h", "help":
                output(help)
                return 0
            case "check": return try LearnerCommands.check(rest, output: output)
            case "hint": return try LearnerCommands.hint(rest, output: output)
            case "watch": return try LearnerCommands.watch(rest, output: output)
            // Safe: `run` stops the server, and waits for its threads, before it returns.
            case "serve": return try withoutActuallyEscaping(output) { try ServeCommand.run(rest, output: $0) }
            case "grade": return try GradeCommand.run(rest, output: output)
            case "generate": return try GenerateCommand.run(rest, output: output)
            case "new-lesson": return try NewLessonCommand.run(rest, output: output)
            case "lint": return try LintCommand.run(rest, output: output)
            case "mutants": return try MutantsCommand.run(rest, output: output)
            case "solutions-copy": return try SolutionsCopyCommand.run(rest, output: output)
            default:
                output("lab: \(unknownCommand(command, rest)) See `lab --help`.")
                return 2
            }
        } catch let error as UsageError {
            output("lab\(command.isEmpty ? "" : " " + command): \(sentence("\(error)")) See `lab --help`.")
            return 2
        } catch {
            output("lab: \(Self.sentence(for: error))")
            return 1
        }
    }

    /// An error as one line: a file error of Foundation's as its sentence and the file it is about, not as
    /// `Error Domain=NSCocoaErrorDomain Code=… UserInfo={…}`.
    static func sentence(for error: Error) -> String {
        let cocoa = error as NSError
        guard cocoa.domain == NSCocoaErrorDomain else { return "\(error)" }
        let path = cocoa.userInfo[NSFilePathErrorKey] as? String ?? (cocoa.userInfo[NSURLErrorKey] as? URL)?.path
        return cocoa.localizedDescription + (path.map { " (\($0))" } ?? "")
    }

    /// One line for a command that does not exist: the likely one it was meant to be, or the valid ones.
    static func unknownCommand(_ command: String, _ rest: [String]) -> String {
        if command.hasPrefix("-") {
            return "unknown option \(command)." + (Spelling.closest(to: command, among: ["--help"]).map { " Did you mean `lab \($0)`?" } ?? "")
        }
        if let kit = try? Kit.here(), let lesson = kit.catalog.lesson(named: command) {
            return "'\(command)' is a lesson, not a command. Did you mean `lab check \(lesson.name)`?"
        }
        let words = commands.filter { !$0.hasPrefix("-") }
        if let match = Spelling.closest(to: command, among: words) {
            let suggestion = (["lab", match] + rest).joined(separator: " ")
            return "unknown command '\(command)'. Did you mean `\(suggestion)`?"
        }
        return "unknown command '\(command)'. Commands: \(words.joined(separator: ", "))."
    }

    /// `text` ending with one full stop (or its own `?`/`!`), so a message and "See `lab --help`." read as two sentences.
    static func sentence(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        guard let last = line.last else { return line }
        return ".?!".contains(last) ? line : line + "."
    }
}

/// "Did you mean …?": the one candidate closest to a mistyped word.
enum Spelling {
    /// The candidate within a small edit distance of `word` (case-insensitive), or that `word` begins; nil when
    /// none is close, or when two are equally close (a guess between two would mislead).
    static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = word.lowercased()
        guard !typed.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(typed) }
        if typed.count >= 2, prefixed.count == 1 { return prefixed[0] }
        let limit = max(1, min(2, typed.count / 3))
        let scored = candidates.map { ($0, distance(typed, $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return nil }
        let closest = scored.filter { $0.1 == best }
        return closest.count == 1 ? closest[0].0 : nil
    }

    /// Levenshtein distance, with a swap of two neighbouring letters counted as one edit ("chekc" → "check").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
