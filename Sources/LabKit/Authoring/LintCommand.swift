import Foundation
import LabMetadata

/// `lab lint`: lessons.json must describe exactly the lessons, exercises and test classes that exist, every
/// exercise needs a hint, every section it names must be a heading in LESSONS.md, and every lesson must be in each
/// place a lesson needs (`LessonPlaces`: its folders, Package.swift, its mutant catalog, the autograding workflow).
/// CI runs it.
public enum LintCommand {
    public static func run(_ arguments: [String], output: (String) -> Void) throws -> Int32 {
        guard arguments.isEmpty else { throw UsageError("`lab lint` takes no options") }
        let problems = try findProblems(in: KitRoot.find())
        if problems.isEmpty {
            output("lessons.json matches the kit.")
            return 0
        }
        output("lessons.json does not match the kit:")
        problems.forEach { output("  - \($0)") }
        return 1
    }

    public static func findProblems(in root: URL) throws -> [String] {
        let catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
        let lessonsText = (try? String(contentsOf: root.appendingPathComponent("LESSONS.md"), encoding: .utf8)) ?? ""
        var problems: [String] = []
        let names = catalog.lessons.map(\.name)
        let places = LessonPlaces(root: root)

        problems += catalog.contradictions  // a lesson listed twice, points of 0 or less, a section or test class twice
        for folder in subfolders(of: root.appendingPathComponent("Solutions")) where !names.contains(folder) {
            problems.append("Solutions/\(folder) is not in lessons.json")
        }
        for name in places.manifestLessons where !names.contains(name) {
            problems.append("\(name) is in Package.swift's lessons list but not in lessons.json")
        }
        for lesson in catalog.lessons {
            problems += places.missing(lesson)
            if lesson.exercises.isEmpty { problems.append("\(lesson.name) has no exercises") }

            let testClasses = classes(in: root.appendingPathComponent("Tests/\(lesson.name)Tests"))
            for exercise in lesson.exercises {
                let label = "\(lesson.name) §\(exercise.section) \(exercise.function)"
                if exercise.hints.isEmpty { problems.append("\(label) has no hint") }
                if !exercise.section.hasPrefix(lesson.chapter + ".") { problems.append("\(label): section is not in chapter \(lesson.chapter)") }
                if !hasHeading("### \(exercise.section) ", in: lessonsText) { problems.append("\(label): LESSONS.md has no heading `### \(exercise.section) …`") }
                if !exists(root.appendingPathComponent(exercise.file)) { problems.append("\(label): \(exercise.file) does not exist") }
                if !testClasses.contains(exercise.testClass) { problems.append("\(label): no test class \(exercise.testClass) in Tests/\(lesson.name)Tests") }
            }
            let listed = Set(lesson.exercises.map(\.testClass))
            for testClass in testClasses.sorted() where !listed.contains(testClass) {
                problems.append("\(lesson.name): test class \(testClass) is graded by no exercise in lessons.json")
            }
        }
        return problems
    }

    private static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    private static func hasHeading(_ prefix: String, in text: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix(prefix) }
    }

    private static func subfolders(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            var isFolder: ObjCBool = false
            return !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// Names of the XCTest classes (`class …Tests`) declared in a test folder's Swift files.
    private static func classes(in folder: URL) -> Set<String> {
        var found = Set<String>()
        let pattern = try! NSRegularExpression(pattern: #"^\s*(?:final\s+)?class\s+(\w+Tests)\b"#, options: .anchorsMatchLines)
        for path in (try? regularFiles(under: folder)) ?? [] where path.hasSuffix(".swift") {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) else { continue }
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { found.insert(String(text[range])) }
            }
        }
        return found
    }
}
