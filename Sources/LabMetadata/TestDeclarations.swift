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
    /// Only a line that holds "class" or "func" can declare either, and few do: the others are skipped on their bytes,
    /// without being cut into words (`lab` is a debug build, and its every run reads the kit's whole Tests/ here).
    static func scan(_ source: String, file: String, into order: inout [String: Int], places: inout [String: TestPlace]) {
        var currentClass: String?
        var rank = 0
        for (index, line) in candidateLines(of: source) {
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

    /// The lines of `source` (split at "\n", counted from 0) that contain "class" or "func", in order.
    static func candidateLines(of source: String) -> [(index: Int, line: String)] {
        var bytes = Array(source.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let (c, l, a, s, f, u, n) = (UInt8(ascii: "c"), UInt8(ascii: "l"), UInt8(ascii: "a"), UInt8(ascii: "s"),
                                     UInt8(ascii: "f"), UInt8(ascii: "u"), UInt8(ascii: "n"))
        return bytes.withUnsafeBufferPointer { b -> [(Int, String)] in
            var found: [(Int, String)] = []
            var start = 0, index = 0, candidate = false
            for i in 0..<b.count {
                switch b[i] {
                case 0x0A:
                    if candidate { found.append((index, String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))) }
                    (start, index, candidate) = (i + 1, index + 1, false)
                case c where !candidate && i + 4 < b.count:
                    candidate = b[i + 1] == l && b[i + 2] == a && b[i + 3] == s && b[i + 4] == s
                case f where !candidate && i + 3 < b.count:
                    candidate = b[i + 1] == u && b[i + 2] == n && b[i + 3] == c
                default: break
                }
            }
            return found
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
