import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and updates a results file. Tests run in several processes at once (`swift test --parallel`), so every
/// update happens under an exclusive lock: read, replace this test's earlier record, write.
public enum ResultsFile {
    public static func read(_ file: URL) throws -> LabResults {
        let data = try Data(contentsOf: file)
        return try JSONDecoder().decode(LabResults.self, from: data)
    }

    /// Adds `result` to `file` (creating it), replacing an earlier result of the same test.
    public static func record(_ result: TestResult, in file: URL, catalog: LessonCatalog) throws {
        try withLock(on: file) {
            var tests = (try? read(file))?.tests ?? []
            tests.removeAll { $0.testCode == result.testCode }
            tests.append(result)
            try write(LabResults(tests: tests, catalog: catalog), to: file)
        }
    }

    public static func write(_ results: LabResults, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(results).write(to: file, options: .atomic)
    }

    private static func withLock(on file: URL, _ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path + ".lock", O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        try body()
    }
}
