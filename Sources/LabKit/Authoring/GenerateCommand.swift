import Foundation

/// `lab generate [--check | --force]`: writes Exercises/ from Solutions/, or (with --check) fails when they differ.
/// It never overwrites a learner's work without `--force`, and whatever it replaces or removes is copied to
/// `.lab/backups/<time>/` first: an instructor who runs it in the wrong folder loses nothing.
public enum GenerateCommand {
    public static let usage = """
          lab generate            rewrite Exercises/ from Solutions/ (instructors: after editing a solution); refuses
                                  when that would overwrite a learner's work
          lab generate --check    exit 1 if Exercises/ differs from what Solutions/ generates (CI runs this)
          lab generate --force    also overwrite exercises a learner has started; every file replaced or removed is
                                  first copied to .lab/backups/<time>/, at the same path
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        try run(arguments, root: try KitRoot.find(), output: output)
    }

    static func run(_ arguments: [String], root: URL, now: Date = Date(), output: (String) -> Void) throws -> Int32 {
        let unknown = arguments.filter { $0 != "--check" && $0 != "--force" }
        guard unknown.isEmpty else {
            output("lab generate: unknown option \(unknown.joined(separator: " ")). Usage:\n\(usage)")
            return 2
        }
        if arguments.contains("--check"), arguments.contains("--force") {
            // --check writes nothing, so --force beside it would be silently ignored: which was meant?
            throw UsageError("--check and --force do not go together: --check only compares, --force writes over a learner's work; give one")
        }
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
        if !work.isEmpty, !arguments.contains("--force") {
            output("lab generate would overwrite or remove work in Exercises/, so it wrote nothing:")
            work.forEach { output("  - Exercises/\($0)") }
            output("These hold a learner's code (an exercise started, a solution's text, or a file the generator does not make). To replace them with fresh stubs anyway: `swift run lab generate --force` (it copies every file it replaces or removes to .lab/backups/<time>/ first).")
            return 1
        }
        // Every file it replaces or removes, not only those that look started: a stub the learner annotated, or an
        // older generation's, is kept too.
        let replaced = try tree.replaced()
        if !replaced.isEmpty {
            let backup = try ExerciseBackup.newFolder(in: root, at: now)
            try tree.backUp(replaced, to: backup.appendingPathComponent("Exercises"))
            let learners = work.isEmpty ? "" : ", \(work.count) of them with a learner's work"
            output("Backed up the \(replaced.count) file(s) it replaces or removes\(learners), at the same paths, to \(ExerciseBackup.shown(backup, in: root))/:")
            replaced.forEach { output("  Exercises/\($0)") }
        }
        let written = try tree.write()
        let removed = replaced.filter { !written.contains($0) }  // replaced and not written: no longer in Solutions/
        if written.isEmpty && removed.isEmpty { output("Exercises/ was already up to date.") }
        if !written.isEmpty { output("Wrote \(written.count) file(s) in Exercises/:") }
        written.forEach { output("  \($0)") }
        if !removed.isEmpty { output("Removed \(removed.count) file(s) that Solutions/ no longer has: \(removed.map { "Exercises/\($0)" }.joined(separator: ", "))") }
        return 0
    }
}
