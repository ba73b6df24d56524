import Foundation

/// The headings of LESSONS.md by section number: "## 1. PUT vs POST" gives "1" → "PUT vs POST", and
/// "### 1.3 Exercise: `createMessageThread(…)`" gives "1.3" → "Exercise: createMessageThread(…)" (Markdown's code
/// quotes dropped: the page shows the words, not the marks).
enum LessonSections {
    static func titles(in markdown: String) -> [String: String] {
        var titles: [String: String] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("## ") || line.hasPrefix("### ") {
            let heading = line.drop { $0 == "#" }.drop { $0 == " " }
            let number = heading.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, number.first!.isNumber else { continue }
            let key = number.hasSuffix(".") ? String(number.dropLast()) : String(number)
            if titles[key] == nil {
                titles[key] = heading.dropFirst(number.count).replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
            }
        }
        return titles
    }

    static func titles(ofKitAt root: URL) -> [String: String] {
        titles(in: (try? String(contentsOf: root.appendingPathComponent("LESSONS.md"), encoding: .utf8)) ?? "")
    }
}
