import Foundation
@testable import LabKit

/// A copy of the kit's own files (no build, no `.lab/`) in `folder`, for commands that change a kit:
/// `lab new-lesson`, then `lab lint` and `lab generate --check` on the result. `Workspace.mirror` copies only what
/// differs, so a copy kept between runs (the walkthrough's, in `.lab/`) keeps its build.
enum ScratchKit {
    static let parts = ["Package.swift", "lessons.json", "LESSONS.md", "README.md", "Sources", "Tests", "Fixtures",
                        "Solutions", "Exercises", ".github"]

    /// `building`: with Sources/ and README.md, for a copy that is built; without, for one that is only read.
    static func copy(to folder: URL, building: Bool = false) throws -> URL {
        let root = try KitRoot.find()
        for part in parts where building || (part != "Sources" && part != "README.md") { try Workspace.mirror(root.appendingPathComponent(part), to: folder.appendingPathComponent(part)) }
        // Empty folders a removed lesson left behind would read as "half made".
        for lesson in ["Solutions/Lesson9", "Exercises/Lesson9", "Tests/Lesson9Tests", "Fixtures/lesson9"] {
            let url = folder.appendingPathComponent(lesson)
            if ((try? regularFiles(under: url)) ?? []).isEmpty { try? FileManager.default.removeItem(at: url) }
        }
        return folder
    }
}
