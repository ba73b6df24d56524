import Foundation

/// The `lab` command's entry point: picks the subcommand and turns errors into a message and an exit code.
public enum LabCommandLine {
    public static let help = """
        lab — the REST lab kit's companion (run it from the kit's folder as `swift run lab …`)

        LEARNERS
        \(LearnerCommands.usage)

        INSTRUCTORS
        \(GradeCommand.usage)
        \(GenerateCommand.usage)
          lab lint                check lessons.json against the lessons, tests, sections and hints that exist

          lab --help              this text

        Lessons are named Lesson1, Lesson2, … (or just 1, 2, …).
        """

    static let commands = ["check", "hint", "watch", "grade", "generate", "lint", "--help"]

    public static func run(_ arguments: [String], output: (String) -> Void = { print($0) }) -> Int32 {
        let command = arguments.first ?? ""
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "": return try LearnerCommands.progress(rest, output: output)
            case "--help", "-h", "help":
                output(help)
                return 0
            case "check": return try LearnerCommands.check(rest, output: output)
            case "hint": return try LearnerCommands.hint(rest, output: output)
            case "watch": return try LearnerCommands.watch(rest, output: output)
            case "grade": return try GradeCommand.run(rest, output: output)
            case "generate": return try GenerateCommand.run(rest, output: output)
            case "lint": return try LintCommand.run(rest, output: output)
            default:
                output("lab: unknown command '\(command)'. Valid commands: \(commands.joined(separator: ", ")).\n\n\(help)")
                return 2
            }
        } catch let error as UsageError {
            output("lab \(command): \(error)\n\n\(help)")
            return 2
        } catch {
            output("lab: \(error)")
            return 1
        }
    }
}
