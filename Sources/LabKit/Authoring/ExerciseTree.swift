import Foundation

/// Writes Exercises/ from Solutions/, or checks that it matches: Solutions/ is the single source of truth.
public struct ExerciseTree {
    public let solutions: URL
    public let exercises: URL

    public init(kitRoot: URL) {
        solutions = kitRoot.appendingPathComponent("Solutions")
        exercises = kitRoot.appendingPathComponent("Exercises")
    }

    /// One way Exercises/ differs from what the generator makes.
    public enum Drift: Equatable, CustomStringConvertible {
        case missing(String), extra(String), differs(String, line: Int)
        public var description: String {
            switch self {
            case .missing(let path): return "Exercises/\(path) is missing"
            case .extra(let path): return "Exercises/\(path) has no counterpart in Solutions/"
            case .differs(let path, let line): return "Exercises/\(path) differs from the generated stub from line \(line)"
            }
        }
    }

    /// Relative path → the content Exercises/ should have. Swift files are stubbed; other files are copied.
    public func expectedExercises() throws -> [String: String] {
        var expected: [String: String] = [:]
        for path in try regularFiles(under: solutions) {
            let text = try String(contentsOf: solutions.appendingPathComponent(path), encoding: .utf8)
            expected[path] = path.hasSuffix(".swift")
                ? try StubGenerator.stub(fromSolution: text, file: "Solutions/\(path)")
                : text
        }
        return expected
    }

    /// The files of Exercises/ that hold a learner's work, which `write()` would overwrite or remove: a file with
    /// fewer stubs (`NotImplemented(` calls) than its generated version — an exercise was started —, a file holding
    /// a solution's `// BEGIN SOLUTION` markers (its `// STUB:` lines would count as stubs), a file that is not
    /// UTF-8 text, and any file the generator does not make.
    public func learnersWork() throws -> [String] {
        let expected = try expectedExercises()
        let actual = FileManager.default.fileExists(atPath: exercises.path) ? try regularFiles(under: exercises) : []
        return actual.filter { path in
            guard let stub = expected[path] else { return true }
            // A file that is not UTF-8 text is not a stub this generator made: somebody's, and kept.
            guard let text = try? String(contentsOf: exercises.appendingPathComponent(path), encoding: .utf8) else { return true }
            guard text != stub else { return false }
            // A solution's text (its markers' `// STUB:` lines count as stubs below) is somebody's code too.
            if text.contains("// BEGIN SOLUTION") { return true }
            return text.components(separatedBy: "NotImplemented(").count < stub.components(separatedBy: "NotImplemented(").count
        }
    }

    /// Every file in Exercises/ that `write()` would replace or remove: whatever differs from what it makes.
    public func replaced() throws -> [String] {
        let expected = try expectedExercises()
        let actual = FileManager.default.fileExists(atPath: exercises.path) ? try regularFiles(under: exercises) : []
        return actual.filter { path in
            guard let stub = expected[path] else { return true }
            return (try? String(contentsOf: exercises.appendingPathComponent(path), encoding: .utf8)) != stub
        }
    }

    /// Copies `paths` (inside Exercises/) to `backup`, keeping their layout.
    public func backUp(_ paths: [String], to backup: URL) throws {
        for path in paths {
            let target = backup.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: exercises.appendingPathComponent(path), to: target)
        }
    }

    /// Rewrites Exercises/ to match Solutions/, removing files that no longer have a solution. Returns the paths written.
    @discardableResult
    public func write() throws -> [String] {
        let expected = try expectedExercises()
        let manager = FileManager.default
        if manager.fileExists(atPath: exercises.path) {
            for path in try regularFiles(under: exercises) where expected[path] == nil {
                try manager.removeItem(at: exercises.appendingPathComponent(path))
            }
        }
        var written: [String] = []
        for (path, text) in expected.sorted(by: { $0.key < $1.key }) {
            let url = exercises.appendingPathComponent(path)
            if (try? String(contentsOf: url, encoding: .utf8)) == text { continue }
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            written.append(path)
        }
        return written
    }

    /// Every way Exercises/ differs from what `write()` would make; empty when they match.
    public func drift() throws -> [Drift] {
        let expected = try expectedExercises()
        let actual = FileManager.default.fileExists(atPath: exercises.path) ? try regularFiles(under: exercises) : []
        var drift: [Drift] = actual.filter { expected[$0] == nil }.map { .extra($0) }
        for (path, text) in expected.sorted(by: { $0.key < $1.key }) {
            guard let existing = try? String(contentsOf: exercises.appendingPathComponent(path), encoding: .utf8) else {
                drift.append(.missing(path))
                continue
            }
            if existing != text { drift.append(.differs(path, line: firstDifferentLine(existing, text))) }
        }
        return drift
    }

    private func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        return (Array(zip(left, right)).firstIndex(where: { $0 != $1 }) ?? min(left.count, right.count)) + 1
    }
}
