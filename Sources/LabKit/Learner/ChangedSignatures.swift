import Foundation

/// When a lesson's *tests* do not compile, the learner changed what the tests call: a function's name, a parameter,
/// a type (a completion `(Bool) -> Void` where the stub had `(Error?) -> Void`, copied from another project). The
/// compiler then reports errors in the kit's test files — at worst "failed to produce diagnostic for expression" — that
/// name nothing the learner wrote. This finds the public declarations of the lesson's reference code
/// (`Solutions/<Lesson>/`, whose signatures the stubs share) that the learner's `Exercises/<Lesson>/` no longer has, as
/// they were, and the learner's declaration of the same name.
enum ChangedSignatures {
    struct Change: Equatable {
        /// The declaration as the stub has it, e.g. `public func createMessageThread(title: String, completion: …)`.
        let expected: String
        /// The learner's declaration of the same name, when there is one.
        let found: String?
    }

    static func find(lesson: String, root: URL) -> [Change] {
        let reference = declarations(in: root.appendingPathComponent("Solutions").appendingPathComponent(lesson))
        let learner = declarations(in: root.appendingPathComponent("Exercises").appendingPathComponent(lesson))
        guard !reference.isEmpty, !learner.isEmpty else { return [] }
        let written = Set(learner)
        return reference.filter { !written.contains($0) }.map { expected in
            Change(expected: expected, found: learner.first { name(of: $0) == name(of: expected) && !reference.contains($0) })
        }
    }

    /// The lines for a `lab check` report; empty when nothing changed (or nothing can be compared).
    static func report(lesson: String, root: URL) -> [String] {
        let changes = find(lesson: lesson, root: root)
        var lines = ["The errors are in \(lesson)'s tests, which call your code as the exercise declared it: keep every "
                     + "declaration of Exercises/\(lesson)/ as it was given (its name, parameters and types), and change "
                     + "only the bodies."]
        for change in changes.prefix(4) {
            lines.append("  the tests call:  \(change.expected)")
            lines.append(change.found.map { "  your code has:   \($0)" } ?? "  your code has no such declaration")
        }
        return lines
    }

    /// Every public function and initialiser declared in a folder's Swift files, each on one line with its spaces
    /// collapsed, up to its opening brace: what a test can call. `init(from:)` and `encode(to:)` are left out: an
    /// exercise may leave them to the compiler.
    static func declarations(in folder: URL) -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
        var found: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("public "), trimmed.range(of: #"\b(func|init)\b"#, options: .regularExpression) != nil
                else { continue }
                var declaration = trimmed
                var next = index + 1
                while !declaration.contains("{"), next < lines.count, next <= index + 4 {
                    declaration += " " + lines[next].trimmingCharacters(in: .whitespaces)
                    next += 1
                }
                if let brace = declaration.firstIndex(of: "{") { declaration = String(declaration[..<brace]) }
                declaration = declaration.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if declaration.contains("init(from decoder") || declaration.contains("encode(to encoder") { continue }
                found.append(declaration)
            }
        }
        return found
    }

    /// `public func createMessageThread(title: …` → "createMessageThread"; `public init(…` → "init".
    static func name(of declaration: String) -> String {
        guard let range = declaration.range(of: #"(func\s+\S+?|init)\s*[(<]"#, options: .regularExpression) else { return declaration }
        return declaration[range].replacingOccurrences(of: "func", with: "")
            .trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "(<")))
    }
}
