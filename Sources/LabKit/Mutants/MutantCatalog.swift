import Foundation

/// Tests/Mutants/<Lesson>.json: realistic wrong solutions ("mistake") and correct-but-different ones ("correct") of
/// one lesson, each a small edit of its reference solution. `lab mutants` applies each to a copy of Solutions/ and
/// measures whether the lesson's tests catch the mistakes, name them first, and accept the correct variants.
struct MutantCatalog: Codable {
    var lesson: String
    var about: String?
    var mutants: [Mutant]

    struct Mutant: Codable {
        enum Kind: String, Codable { case mistake, correct }
        var id: String
        /// The LESSONS.md section of the exercise the edit changes: "1.3".
        var exercise: String
        var kind: Kind
        var about: String
        var edits: [Edit]
        /// Mistakes: words the first failure's message must contain (all of them, ignoring case).
        var expect: [String]?
    }

    struct Edit: Codable {
        /// Relative to Solutions/<Lesson>/.
        var file: String
        /// Text that occurs exactly once in the file (after the earlier edits).
        var find: String
        var replace: String
    }

    struct CatalogError: Error, CustomStringConvertible {
        let description: String
    }

    static func file(for lesson: String, in kit: Kit) -> URL {
        kit.root.appendingPathComponent("Tests/Mutants/\(lesson).json")
    }

    static func load(_ lesson: String, in kit: Kit) throws -> MutantCatalog {
        let url = file(for: lesson, in: kit)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CatalogError(description: "no mutant catalog for \(lesson): Tests/Mutants/\(lesson).json does not exist")
        }
        let catalog: MutantCatalog
        do {
            catalog = try JSONDecoder().decode(MutantCatalog.self, from: data)
        } catch {
            throw CatalogError(description: "Tests/Mutants/\(lesson).json is malformed: \(error)")
        }
        var seen = Set<String>()
        for mutant in catalog.mutants where !seen.insert(mutant.id).inserted {
            throw CatalogError(description: "Tests/Mutants/\(lesson).json: two mutants are called \(mutant.id)")
        }
        return catalog
    }
}

extension MutantCatalog.Mutant {
    /// Applies the edits to the lesson's files in `folder` (a copy of Solutions/<Lesson>/).
    func apply(in folder: URL) throws {
        for (number, edit) in edits.enumerated() {
            let url = folder.appendingPathComponent(edit.file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw MutantCatalog.CatalogError(description: "\(id), edit \(number + 1): no file \(edit.file) in the lesson")
            }
            let count = text.components(separatedBy: edit.find).count - 1
            guard count == 1, !edit.find.isEmpty else {
                throw MutantCatalog.CatalogError(description: "\(id), edit \(number + 1): the text to find occurs \(count) times in \(edit.file), not once: \(edit.find.prefix(80))")
            }
            try text.replacingOccurrences(of: edit.find, with: edit.replace).write(to: url, atomically: true, encoding: .utf8)
        }
    }
}
