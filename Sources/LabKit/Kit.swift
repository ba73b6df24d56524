import Foundation
import LabMetadata

/// The kit a `lab` command works on: its root folder, its lessons, and the `.lab/` folder where the command keeps
/// the last results, the log and the hints shown.
public struct Kit {
    public let root: URL
    public let catalog: LessonCatalog

    public init(root: URL) throws {
        self.root = root
        catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
    }

    public static func here() throws -> Kit { try Kit(root: KitRoot.find()) }

    public var stateFolder: URL { root.appendingPathComponent(".lab") }
    public var resultsFile: URL { stateFolder.appendingPathComponent("results.json") }
    public var logFile: URL { stateFolder.appendingPathComponent("last-run.log") }

    /// The lesson the learner named, or an error listing the valid names.
    public func lesson(_ name: String) throws -> LessonCatalog.Lesson {
        guard let lesson = catalog.lesson(named: name) else {
            throw UsageError("unknown lesson '\(name)'. Valid lessons: \(catalog.lessonNames).")
        }
        return lesson
    }

    /// Runs the lessons' tests, keeping the log and results in `.lab/`.
    public func run(_ lessons: [LessonCatalog.Lesson]) throws -> LessonRun.Outcome {
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        let outcome = try LessonRun(root: root, catalog: catalog).run(lessons, resultsFile: resultsFile)
        try? outcome.log.write(to: logFile, atomically: true, encoding: .utf8)
        return outcome
    }
}

/// A mistake in how a command was called: printed with the command's usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
