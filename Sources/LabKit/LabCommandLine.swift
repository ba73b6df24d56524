import Foundation

/// The `lab` command's entry point: picks the subcommand and turns errors into a message and an exit code.
public enum LabCommandLine {
    public static let help = """
        lab — the REST lab kit's tool

        USAGE
        \(GenerateCommand.usage)
          lab --help              this text
        """

    public static func run(_ arguments: [String], output: (String) -> Void = { print($0) }) -> Int32 {
        guard let command = arguments.first else {
            output(help)
            return 0
        }
        do {
            switch command {
            case "--help", "-h", "help":
                output(help)
                return 0
            case "generate":
                return try GenerateCommand.run(Array(arguments.dropFirst()), output: output)
            default:
                output("lab: unknown command '\(command)'. Valid commands: generate, --help.\n\n\(help)")
                return 2
            }
        } catch {
            output("lab: \(error)")
            return 1
        }
    }
}
