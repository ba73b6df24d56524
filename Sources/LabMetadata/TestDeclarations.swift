import Foundation

/// Where and in what order the graded tests are written. XCTest runs (and lists) them alphabetically, but their
/// author wrote them from the simplest behaviour to the most specific: that is the order in which a learner should
/// meet their failures, so results and `lab check` use it. Each test's file and line go into results files
/// (`filename`, `line_no`): read from the kit's own Tests/, never reported by the test process.
enum TestDeclarations {
    /// "Class/test_name" → rank within its file, and → its file ("Tests/Lesson1Tests/X.swift") and line, for every
    /// `func test…` of every class in `Tests/*Tests/*.swift`.
    static func scan(testsFolder: URL) -> (order: [String: Int], places: [String: TestPlace]) {
        let manager = FileManager.default
        guard let targets = try? manager.contentsOfDirectory(atPath: testsFolder.path) else { return ([:], [:]) }
        var order: [String: Int] = [:]
        var places: [String: TestPlace] = [:]
        for target in targets.sorted() where target.hasSuffix("Tests") {
            let folder = testsFolder.appendingPathComponent(target)
            for file in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where file.hasSuffix(".swift") {
                guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { continue }
                scan(text, file: "Tests/\(target)/\(file)", into: &order, places: &places)
            }
        }
        return (order, places)
    }

    static func scan(_ source: String, into order: inout [String: Int]) {
        var places: [String: TestPlace] = [:]
        scan(source, file: "", into: &order, places: &places)
    }

    /// Reads class and test-method declarations line by line; a test belongs to the class declared last above it.
    static func scan(_ source: String, file: String, into order: inout [String: Int], places: inout [String: TestPlace]) {
        var currentClass: String?
        var rank = 0
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: { " \t(:{<".contains($0) }).map(String.init)
            if let at = words.firstIndex(of: "class"), at + 1 < words.count, words[..<at].allSatisfy(isModifier) {
                currentClass = words[at + 1]
                rank = 0
            } else if let at = words.firstIndex(of: "func"), at + 1 < words.count, words[at + 1].hasPrefix("test"),
                      words[..<at].allSatisfy(isModifier), let owner = currentClass {
                order["\(owner)/\(words[at + 1])"] = rank
                places["\(owner)/\(words[at + 1])"] = TestPlace(file: file, line: index + 1)
                rank += 1
            }
        }
    }

    private static func isModifier(_ word: String) -> Bool {
        ["final", "public", "open", "internal", "private", "fileprivate", "override", "@objc", "@MainActor", "nonisolated"].contains(word)
    }
}

/// Where a test method is declared: its file, relative to the kit, and the line of its `func`.
public struct TestPlace: Equatable {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
}
