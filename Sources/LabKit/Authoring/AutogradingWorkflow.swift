import Foundation

/// `.github/classroom/autograding.yml`, the workflow an instructor copies into a class's template repository: one
/// step per lesson, each handing its result to the autograding reporter. A lesson missing from it is silently worth
/// nothing, so `lab lint` checks every lesson is in it and `lab new-lesson` adds its step.
struct AutogradingWorkflow {
    static let path = ".github/classroom/autograding.yml"
    var text: String

    static func id(of lesson: String) -> String { lesson.lowercased() }

    /// What the workflow lacks for `lesson`: its step, its result for the reporter, its place among the runners.
    func problems(for lesson: String) -> [String] {
        let id = Self.id(of: lesson)
        var problems: [String] = []
        if !text.contains("id: \(id)\n") || !text.contains("lab grade ../submission --lesson \(lesson) --github-output\n") {
            problems.append("no step `id: \(id)` that runs `lab grade ../submission --lesson \(lesson) --github-output`")
        }
        if !text.contains("\(id.uppercased())_RESULTS: \"${{ steps.\(id).outputs.result }}\"") {
            problems.append("the reporter is not given \(id.uppercased())_RESULTS")
        }
        let runners = text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("runners:") }
        let listed = runners.map { $0.split(separator: ":", maxSplits: 1).last!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        if !listed.contains(id) { problems.append("`runners:` does not list \(id)") }
        return problems
    }

    struct EditError: Error, CustomStringConvertible {
        let description: String
    }

    /// The workflow with `lesson`'s step (after the last lesson's), its result for the reporter and its runner.
    func adding(lesson: String, title: String) throws -> String {
        let id = Self.id(of: lesson)
        var lines = text.components(separatedBy: "\n")
        guard let reporter = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "- name: Autograding Reporter" }),
              let lastResult = lines.lastIndex(where: { $0.contains("_RESULTS: \"${{ steps.") }),
              let runners = lines.lastIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("runners:") }),
              lastResult > reporter, runners > lastResult
        else { throw EditError(description: "\(Self.path) no longer has the reporter step, its `_RESULTS` lines and `runners:` in the shape lab new-lesson edits; add \(lesson) by hand") }
        let number = lesson.drop { !$0.isNumber }
        let name = "Lesson \(number) — \(title)"
        let quotedName = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""  // YAML
        lines[runners] += ",\(id)"
        let resultIndent = String(lines[lastResult].prefix { $0 == " " })
        lines.insert("\(resultIndent)\(id.uppercased())_RESULTS: \"${{ steps.\(id).outputs.result }}\"", at: lastResult + 1)
        let stepIndent = String(lines[reporter].prefix { $0 == " " })
        lines.insert(contentsOf: [
            "\(stepIndent)- name: \(quotedName)",
            "\(stepIndent)  id: \(id)",
            "\(stepIndent)  working-directory: kit",
            "\(stepIndent)  run: swift run lab grade ../submission --lesson \(lesson) --github-output",
        ], at: reporter)
        return lines.joined(separator: "\n")
    }
}
