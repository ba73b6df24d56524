import Foundation

/// The files of a class report, in `lab grade`'s output folder: `class-report.csv` and `.md` (a row per learner),
/// `class-report.html` (`ClassReportPage`) and `class-report.json` (`ClassSummary`: what the next grading into
/// this folder compares against, to show who moved and which mistakes faded).
enum ClassReportFiles {
    static let names = ["class-report.csv", "class-report.md", "class-report.html", "class-report.json"]

    /// Writes the four files into `folder`, comparing with the summary an earlier grading left there, if any.
    @discardableResult
    static func write(_ report: ClassReport, to folder: URL, sectionTitles: [String: String], now: Date = Date()) throws -> ClassSummary {
        let summaryFile = folder.appendingPathComponent("class-report.json")
        let previous = (try? Data(contentsOf: summaryFile)).flatMap { try? JSONDecoder().decode(ClassSummary.self, from: $0) }
        let summary = ClassSummary(report, gradedAt: now)
        let page = ClassReportPage(summary: summary, changes: previous.map { ClassChanges(from: $0, to: summary) },
                                   sectionTitles: sectionTitles)
        try report.csv.write(to: folder.appendingPathComponent("class-report.csv"), atomically: true, encoding: .utf8)
        try report.markdown.write(to: folder.appendingPathComponent("class-report.md"), atomically: true, encoding: .utf8)
        try page.html.write(to: folder.appendingPathComponent("class-report.html"), atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: summaryFile, options: .atomic)
        return summary
    }
}
