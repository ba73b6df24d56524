import Foundation
import LabMetadata

/// The class report `lab grade` writes: a row per learner, a column per lesson.
struct ClassReport {
    let catalog: LessonCatalog
    let rows: [Row]

    struct Row {
        let learner: String
        /// nil when the copy could not be graded at all.
        let results: LabResults?
        let notes: [String]

        func score(of lesson: LessonCatalog.Lesson) -> String {
            guard let total = results?.lessons.first(where: { $0.name == lesson.name }) else { return "-" }
            return "\(points(total.score))/\(points(total.maxScore))"
        }

        var total: String {
            guard let results = results else { return "-" }
            return "\(points(results.score))/\(points(results.maxScore))"
        }

        var summary: String {
            ([total] + notes).joined(separator: "; ")
        }
    }

    /// `name`, or `name-2`, `name-3`… when two checkouts share a folder name.
    static func uniqueName(_ name: String, among taken: [String]) -> String {
        var candidate = name, number = 1
        while taken.contains(candidate) { number += 1; candidate = "\(name)-\(number)" }
        return candidate
    }

    var csv: String {
        func field(_ text: String) -> String {
            text.contains(where: { ",\"\n".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var lines = [(["learner"] + catalog.lessons.map(\.name) + ["total", "max", "notes"]).joined(separator: ",")]
        for row in rows {
            let lessons = catalog.lessons.map { lesson -> String in
                row.results?.lessons.first { $0.name == lesson.name }.map { points($0.score) } ?? ""
            }
            let cells = [row.learner] + lessons + [row.results.map { points($0.score) } ?? "", row.results.map { points($0.maxScore) } ?? "",
                                                   row.notes.joined(separator: "; ")]
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var markdown: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["# Class report", ""]
        lines.append("| learner | " + catalog.lessons.map { "\($0.name) (\($0.title))" }.joined(separator: " | ") + " | total | notes |")
        lines.append("|---|" + catalog.lessons.map { _ in "---|" }.joined() + "---|---|")
        for row in rows {
            let cells = [row.learner] + catalog.lessons.map(row.score) + [row.total, row.notes.joined(separator: "; ")]
            lines.append("| " + cells.map(cell).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
