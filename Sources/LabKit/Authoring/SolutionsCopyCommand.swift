import Foundation

/// `lab solutions-copy`: a copy of the kit with the reference solutions in place of Exercises/, for instructors who
/// work in Xcode. `LAB_SOLUTIONS=1` reaches SwiftPM on the command line but not an Xcode scheme (Xcode reads the
/// manifest in its own environment), so the copy swaps the files instead: open its Package.swift and run the tests.
public enum SolutionsCopyCommand {
    public static let usage = """
          lab solutions-copy      instructors on a Mac: make .lab/solutions/, the kit with Solutions/ as Exercises/,
                                  to open in Xcode (run it again after editing a solution; edit Solutions/, not the copy)
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        guard arguments.isEmpty else { throw UsageError("`lab solutions-copy` takes no arguments") }
        let kit = try Kit.here()
        return try KitLock.during(kit, say: output) {
            let workspace = try Workspace(kit: kit, name: "solutions")
            for lesson in kit.catalog.lessons {
                try workspace.use(kit.root.appendingPathComponent("Solutions").appendingPathComponent(lesson.name), for: lesson.name)
            }
            output("Wrote \(workspace.folder.path): the kit with the reference solutions as its Exercises/.")
            output("Open it in Xcode (`open \(workspace.folder.appendingPathComponent("Package.swift").path)`), then Product › Test.")
            output("It is a copy: edit Solutions/ in the kit, then run `swift run lab solutions-copy` again.")
            return 0
        }
    }
}
