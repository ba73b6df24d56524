import Foundation

/// `lab generate [--check]`: writes Exercises/ from Solutions/, or (with --check) fails when they differ.
public enum GenerateCommand {
    public static let usage = """
          lab generate            rewrite Exercises/ from Solutions/ (instructors: after editing a solution)
          lab generate --check    exit 1 if Exercises/ differs from what Solutions/ generates (CI runs this)
          lab generate --force    also overwrite exercises a learner has started (every file it replaces or removes is
                                  copied to .lab/backups/ first)
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        let unknown = arguments.filter { $0 != "--check" && $0 != "--force" }
        guard unknown.isEmpty else {
            output("lab generate: unknown option \(unknown.joined(separator: " ")). Usage:\n\(usage)")
            return 2
        }
        let root = try KitRoot.find()
        let tree = ExerciseTree(kitRoot: root)
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
        let work = try tree.learnersWork()
        if !work.isEmpty {
            guard arguments.contains("--force") else {
                output("lab generate would overwrite or remove work in Exercises/, so it wrote nothing:")
                work.forEach { output("  - Exercises/\($0)") }
                output("These hold a learner's code (an exercise started, or a file the generator does not make). To replace them with fresh stubs anyway: `swift run lab generate --force` (it copies them to .lab/backups/ first).")
                return 1
            }
            // Every file it replaces or removes, not only those that look started: nothing is lost to --force.
            let replaced = try tree.replaced()
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "-")
            let backup = root.appendingPathComponent(".lab/backups/Exercises-\(stamp)")
            try tree.backUp(replaced, to: backup)
            output("Copied the \(replaced.count) file(s) it replaces or removes (\(work.count) with a learner's work) to \(backup.path).")
        }
        let written = try tree.write()
        output(written.isEmpty ? "Exercises/ was already up to date." : "Wrote \(written.count) file(s) in Exercises/:")
        written.forEach { output("  \($0)") }
        return 0
    }
}
