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
        // A lesson listed twice stopped `lab grade` with a stack trace; points of 0 or less graded a class -20/0.
        let contradictions = catalog.contradictions
        guard contradictions.isEmpty else {
            throw LessonCatalog.CatalogError(description: "lessons.json contradicts itself: \(contradictions.joined(separator: "; ")). Fix it; `swift run lab lint` names every problem")
        }
    }

    public static func here() throws -> Kit { try Kit(root: KitRoot.find()) }

    public var stateFolder: URL { root.appendingPathComponent(".lab") }
    public var resultsFile: URL { stateFolder.appendingPathComponent("results.json") }
    public var logFile: URL { stateFolder.appendingPathComponent("last-run.log") }
    /// How long each graded test takes on the reference solutions, for sharing tests out among processes
    /// (`TestSchedule`): a kit file, measured again only on request (`LessonRun.recordsTimes`). Never learned from
    /// the runs of learners' code: the same tests then share the same processes on every run and every machine, so
    /// code that keeps state from one test to the next (a static cache) earns the same grade every time.
    public var testTimesFile: URL { root.appendingPathComponent("Tests/test-times.json") }

    /// The lesson the learner named, or an error that suggests the likely one and lists the valid names.
    public func lesson(_ name: String) throws -> LessonCatalog.Lesson {
        if let lesson = catalog.lesson(named: name) { return lesson }
        let names = catalog.lessons.map(\.name)
        let guess = Spelling.closest(to: LessonCatalog.comparable(name), among: names)
        let list = names.isEmpty ? "lessons.json lists no lessons yet" : "Valid lessons: \(catalog.lessonNames) (or just their numbers)"
        throw UsageError("unknown lesson '\(name)'. " + (guess.map { "Did you mean \($0)? " } ?? "") + list + ".")
    }

    /// The arguments with a lesson name typed as two words, `Lesson 1` (the shell splits it), joined as `Lesson1`.
    static func joiningSplitLessonName(_ arguments: [String]) -> [String] {
        guard arguments.count >= 2, arguments[0].lowercased() == "lesson", Int(arguments[1]) != nil else { return arguments }
        return [arguments[0] + arguments[1]] + arguments.dropFirst(2)
    }

    /// Runs the lessons' tests, keeping the log and results in `.lab/`.
    public func run(_ lessons: [LessonCatalog.Lesson]) throws -> LessonRun.Outcome {
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        var run = LessonRun(root: root, catalog: catalog)
        run.timesFile = testTimesFile
        let outcome = try run.run(lessons, resultsFile: resultsFile)
        try? outcome.log.write(to: logFile, atomically: true, encoding: .utf8)
        return outcome
    }
}

/// A mistake in how a command was called: printed with the command's usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
