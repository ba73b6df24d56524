import Foundation

/// The order in which the graded tests are written in their files. XCTest runs (and lists) them alphabetically, but
/// their author wrote them from the simplest behaviour to the most specific: that is the order in which a learner
/// should meet their failures, so results and `lab check` use it.
enum TestDeclarations {
    /// "Class/test_name" → rank within its file, for every `func test…` of every class in `Tests/*Tests/*.swift`.
    static func scan(testsFolder: URL) -> [String: Int] {
        let manager = FileManager.default
        guard let targets = try? manager.contentsOfDirectory(atPath: testsFolder.path) else { return [:] }
        var order: [String: Int] = [:]
        for target in targets.sorted() where target.hasSuffix("Tests") {
            let folder = testsFolder.appendingPathComponent(target)
            for file in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where file.hasSuffix(".swift") {
                guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { continue }
                scan(text, into: &order)
            }
        }
        return order
    }

    /// Reads class and test-method declarations line by line; a test belongs to the class declared last above it.
    static func scan(_ source: String, into order: inout [String: Int]) {
        var currentClass: String?
        var rank = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(whereSeparator: { " \t(:{<".contains($0) }).map(String.init)
            if let index = words.firstIndex(of: "class"), index + 1 < words.count, words[..<index].allSatisfy(isModifier) {
                currentClass = words[index + 1]
                rank = 0
            } else if let index = words.firstIndex(of: "func"), index + 1 < words.count, words[index + 1].hasPrefix("test"),
                      words[..<index].allSatisfy(isModifier), let owner = currentClass {
                order["\(owner)/\(words[index + 1])"] = rank
                rank += 1
            }
        }
    }

    private static func isModifier(_ word: String) -> Bool {
        ["final", "public", "open", "internal", "private", "fileprivate", "override", "@objc", "@MainActor", "nonisolated"].contains(word)
    }
}
