import Foundation

/// `lab generate [--check]`: writes Exercises/ from Solutions/, or (with --check) fails when they differ.
public enum GenerateCommand {
    public static let usage = """
          lab generate            rewrite Exercises/ from Solutions/ (instructors: after editing a solution)
          lab generate --check    exit 1 if Exercises/ differs from what Solutions/ generates (CI runs this)
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let unknown = arguments.filter { $0 != "--check" }
        guard unknown.isEmpty else {
            output("lab generate: unknown option \(unknown.joined(separator: " ")). Usage:\n\(usage)")
            return 2
        }
        let tree = ExerciseTree(kitRoot: try KitRoot.find())
        if arguments.contains("--check") {
            let drift = try tree.drift()
            if drift.isEmpty {
                output("Exercises/ matches Solutions/.")
                return 0
            }
            output("Exercises/ has drifted from Solutions/ (run `swift run lab generate` to regenerate):")
            drift.forEach { output("  - \($0)") }
            return 1
        }
        let written = try tree.write()
        output(written.isEmpty ? "Exercises/ was already up to date." : "Wrote \(written.count) file(s) in Exercises/:")
        written.forEach { output("  \($0)") }
        return 0
    }
}
