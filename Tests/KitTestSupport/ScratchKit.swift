// What LabKitTests and GradingTests both need, in one place: a test-support library built only with the kit's own
// tests. It reaches into LabKit's internals, which `@testable import` opens only in a build for testing (a debug
// build, what `swift test` makes); a release build compiles this target empty.
#if DEBUG
import Foundation
@testable import LabKit
import LabMetadata

/// A copy of the kit's own files (no build, no `.lab/`) in `folder`, for commands that change a kit:
/// `lab new-lesson`, then `lab lint` and `lab generate --check` on the result. `Workspace.mirror` copies only what
/// differs, so a copy kept between runs (the walkthrough's, in `.lab/`) keeps its build.
public enum ScratchKit {
    /// The lesson `lab new-lesson` can add to the kit: "Lesson9" and chapter "9" while the kit has eight.
    public static func nextLesson() throws -> (name: String, chapter: String) {
        let catalog = try LessonCatalog.load(from: KitRoot.find().appendingPathComponent("lessons.json"), scanningTests: false)
        let chapter = (catalog.lessons.compactMap { Int($0.chapter) }.max() ?? 0) + 1
        return ("Lesson\(chapter)", "\(chapter)")
    }

    static let parts = ["Package.swift", "lessons.json", "LESSONS.md", "README.md", "Sources", "Tests", "Fixtures",
                        "Solutions", "Exercises", ".github"]

    /// `building`: with Sources/ and README.md, for a copy that is built; without, for one that is only read.
    public static func copy(to folder: URL, building: Bool = false) throws -> URL {
        let root = try KitRoot.find()
        for part in parts where building || (part != "Sources" && part != "README.md") { try Workspace.mirror(root.appendingPathComponent(part), to: folder.appendingPathComponent(part)) }
        // Empty folders a removed lesson left behind would read as "half made".
        let next = try nextLesson()
        for lesson in ["Solutions/\(next.name)", "Exercises/\(next.name)", "Tests/\(next.name)Tests", "Fixtures/\(next.name.lowercased())"] {
            let url = folder.appendingPathComponent(lesson)
            if ((try? regularFiles(under: url)) ?? []).isEmpty { try? FileManager.default.removeItem(at: url) }
        }
        return folder
    }
}
#endif
