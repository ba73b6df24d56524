import Foundation
import LabMetadata

/// Every place a lesson must be for the kit to build, grade, teach and measure it — the places `lab new-lesson`
/// creates and `lab lint` checks: Solutions/<L>/ (with solution markers), Exercises/<L>/, Tests/<L>Tests/,
/// Fixtures/<l>/, its chapter in LESSONS.md, Package.swift's lesson list, Tests/Mutants/<L>.json and the
/// autograding workflow's step. (Its entry in lessons.json is where the lint starts from.)
struct LessonPlaces {
    let root: URL

    static func fixtures(of lesson: String) -> String { "Fixtures/\(lesson.lowercased())" }
    static func mutants(of lesson: String) -> String { "Tests/Mutants/\(lesson).json" }

    /// One line per place `lesson` is missing from, each naming the place.
    func missing(_ lesson: LessonCatalog.Lesson) -> [String] {
        let name = lesson.name
        var problems: [String] = []
        for folder in ["Solutions/\(name)", "Exercises/\(name)", "Tests/\(name)Tests", Self.fixtures(of: name)] where !exists(folder) {
            problems.append("\(name): \(folder)/ does not exist")
        }
        if exists("Solutions/\(name)"), !solutionFiles(of: name).contains(where: { $0.contains(StubGenerator.beginMarker) }) {
            problems.append("\(name): no file in Solutions/\(name)/ has a `\(StubGenerator.beginMarker)` marker, so its stubs are the solution")
        }
        if !manifestLessons.contains(name) { problems.append("\(name) is not in Package.swift's lessons list (`let allLessons = [...]`)") }
        if !lessonsText.split(separator: "\n").contains(where: { $0.hasPrefix("## \(lesson.chapter).") }) {
            problems.append("\(name): LESSONS.md has no chapter heading `## \(lesson.chapter). …`")
        }
        if !exists(Self.mutants(of: name)) { problems.append("\(name): \(Self.mutants(of: name)) does not exist (its mutant catalog, `[]` to start)") }
        if let workflow = workflow {
            problems += workflow.problems(for: name).map { "\(name): \(AutogradingWorkflow.path): \($0)" }
        } else {
            problems.append("\(name): \(AutogradingWorkflow.path) does not exist")
        }
        return problems
    }

    /// The names in Package.swift's `let allLessons = [...]` line.
    var manifestLessons: [String] {
        let manifest = read("Package.swift")
        guard let line = manifest.split(separator: "\n").first(where: { $0.hasPrefix("let allLessons = [") }) else { return [] }
        return line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private var lessonsText: String { read("LESSONS.md") }

    private var workflow: AutogradingWorkflow? {
        exists(AutogradingWorkflow.path) ? AutogradingWorkflow(text: read(AutogradingWorkflow.path)) : nil
    }

    private func solutionFiles(of lesson: String) -> [String] {
        let folder = root.appendingPathComponent("Solutions/\(lesson)")
        return ((try? regularFiles(under: folder)) ?? []).filter { $0.hasSuffix(".swift") }
            .compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }

    private func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }
}
