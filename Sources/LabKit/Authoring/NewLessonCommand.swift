import Foundation
import LabMetadata

/// `lab new-lesson <LessonN> --title "…"`: adds a lesson to the kit in every place a lesson must be
/// (`LessonPlaces`), with one example exercise that passes against its solution and fails as "not started" against
/// its stub — so `lab lint` and `.ci/run` pass at once, and the instructor replaces the example step by step.
/// It refuses a name that is not `Lesson<N>` right after the last lesson, and a lesson any place already has; it changes
/// nothing until every edit is known to apply.
public enum NewLessonCommand {
    public static let usage = """
          lab new-lesson <LessonN> --title "…"
                                  instructors: add lesson N (the one after the last) in every place a lesson needs — Solutions/,
                                  Exercises/ (generated), Tests/<LessonN>Tests, Fixtures/, LESSONS.md, lessons.json,
                                  Package.swift, Tests/Mutants/, the autograding workflow — with one example exercise
                                  to replace (README § Adding a lesson)
        """

    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        try run(arguments, root: try KitRoot.find(), output: output)
    }

    static func run(_ arguments: [String], root: URL, output: (String) -> Void) throws -> Int32 {
        let (name, title) = try parse(arguments)
        let catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"), scanningTests: false)
        let chapter = try checkName(name, catalog: catalog, root: root)
        let scaffold = LessonScaffold(name: name, chapter: chapter, title: title)
        let edits = try sharedFileEdits(scaffold, root: root)
        var written: [String] = []
        for (path, text) in scaffold.newFiles.sorted(by: { $0.key < $1.key }) {
            try write(text, to: path, in: root)
            written.append(path)
        }
        for (path, text) in edits {
            try write(text, to: path, in: root)
            written.append(path)
        }
        for (path, text) in try ExerciseTree(kitRoot: root).expectedExercises() where path.hasPrefix("\(name)/") {
            try write(text, to: "Exercises/\(path)", in: root)
            written.append("Exercises/\(path)")
        }
        output("Added \(name) — \(title), with one example exercise (§\(scaffold.section) \(scaffold.function)):")
        written.forEach { output("  \($0)") }
        output("""
            Next: `swift run lab lint` (clean now), `LAB_SOLUTIONS=1 swift test --disable-swift-testing --filter \(name)Tests`
            (passes) and `swift test --disable-swift-testing --filter \(name)Tests` (not started). Then replace the example:
            Solutions/\(name)/ (then `swift run lab generate`), its tests, fixtures and chapter, its lessons.json entry and
            hints, and write its mistakes in \(LessonPlaces.mutants(of: name)) — README § Adding a lesson.
            """)
        return 0
    }

    static func parse(_ arguments: [String]) throws -> (name: String, title: String) {
        var name: String?, title: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--title" {
                guard index + 1 < arguments.count else { throw UsageError("--title needs the lesson's title: --title \"Paging\"") }
                title = arguments[index + 1]
                index += 2
            } else if argument.hasPrefix("--title=") {
                title = String(argument.dropFirst("--title=".count))
                index += 1
            } else if argument.hasPrefix("-") {
                throw UsageError("unknown option \(argument)")
            } else if name == nil {
                name = argument
                index += 1
            } else {
                throw UsageError("one lesson at a time: `lab new-lesson <LessonN> --title \"…\"` (a title of several words goes in quotes)")
            }
        }
        guard let lesson = name else { throw UsageError("name the lesson: `lab new-lesson Lesson9 --title \"Paging\"`") }
        let trimmed = title?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !trimmed.isEmpty else { throw UsageError("give the lesson a title: `lab new-lesson \(lesson) --title \"…\"`") }
        guard !trimmed.contains(where: \.isNewline) else { throw UsageError("the title must be one line") }
        return (lesson, trimmed)
    }

    /// The lesson's chapter number, or an error when `name` is not `Lesson<N>` after the last lesson or is in use.
    static func checkName(_ name: String, catalog: LessonCatalog, root: URL) throws -> String {
        let last = catalog.lessons.compactMap { Int($0.chapter) }.max() ?? 0
        let number = name.hasPrefix("Lesson") ? Int(name.dropFirst("Lesson".count)) : nil
        guard let chapter = number, "Lesson\(chapter)" == name else {
            throw UsageError("'\(name)' is not a lesson name: lessons are named Lesson<N> (a module name, and what CI's `Lesson[0-9]+Tests` matches), e.g. Lesson\(last + 1)")
        }
        if catalog.lessons.contains(where: { $0.name == name }) {
            throw UsageError("\(name) already exists (lessons.json lists it): edit it, or add Lesson\(last + 1)")
        }
        guard chapter > last else {
            throw UsageError("\(name) would come before Lesson\(last), but a new lesson goes last in the course: add Lesson\(last + 1)")
        }
        // The course's chapters, the lesson names `lab` accepts (`3`, `L3`) and "the next lesson" all count on no gap.
        guard chapter == last + 1 else {
            throw UsageError("\(name) would leave a gap after Lesson\(last): the next lesson is Lesson\(last + 1)")
        }
        let places = ["Solutions/\(name)", "Exercises/\(name)", "Tests/\(name)Tests", LessonPlaces.fixtures(of: name), LessonPlaces.mutants(of: name)]
        if let taken = places.first(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }) {
            throw UsageError("\(taken) already exists: \(name) is half made. Remove what is there, or finish it by hand (`lab lint` names what is missing)")
        }
        return String(chapter)
    }

    /// The new texts of the files every lesson shares: lessons.json, Package.swift, LESSONS.md, the workflow.
    static func sharedFileEdits(_ lesson: LessonScaffold, root: URL) throws -> [(String, String)] {
        func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
        func cannot(_ path: String, _ what: String) -> UsageError {
            UsageError("\(path) no longer has \(what), which lab new-lesson edits: nothing was written; add \(lesson.name) by hand")
        }
        let catalog = try read("lessons.json")
        guard let end = catalog.range(of: "]", options: .backwards),
              let lastLesson = catalog.range(of: "}", options: .backwards, range: catalog.startIndex..<end.lowerBound)
        else { throw cannot("lessons.json", "a `lessons` array to add to") }
        var newCatalog = catalog
        newCatalog.insert(contentsOf: ",\n" + lesson.catalogEntry, at: lastLesson.upperBound)
        let decoded = try? JSONDecoder().decode(LessonCatalog.self, from: Data(newCatalog.utf8))
        guard decoded?.lessons.last?.name == lesson.name else { throw cannot("lessons.json", "its `lessons` array last") }

        let manifest = try read("Package.swift")
        guard let line = manifest.range(of: #"(?m)^let allLessons = \[[^\]\n]*"#, options: .regularExpression)
        else { throw cannot("Package.swift", "its `let allLessons = [...]` line") }
        var newManifest = manifest
        newManifest.insert(contentsOf: (manifest[line].hasSuffix("[") ? "" : ", ") + "\"\(lesson.name)\"", at: line.upperBound)

        var chapters = try read("LESSONS.md")
        while chapters.hasSuffix("\n\n") { chapters.removeLast() }
        let workflow = try AutogradingWorkflow(text: read(AutogradingWorkflow.path)).adding(lesson: lesson.name, title: lesson.title)
        return [("lessons.json", newCatalog), ("Package.swift", newManifest), ("LESSONS.md", chapters + lesson.chapterText),
                (AutogradingWorkflow.path, workflow)]
    }

    private static func write(_ text: String, to path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
