import Foundation

/// The step output GitHub's autograding reporter reads (classroom-resources/autograding-grading-reporter): a line
/// `result=<base64 of the results as compact JSON>` appended to the file `$GITHUB_OUTPUT` names. The reporter
/// decodes each runner's result and adds up `max_score` and every `tests[].score` (Fixtures/graders/README.md).
public enum GitHubOutput {
    /// `result=…`: one line, no newline in the base64.
    public static func line(for results: LabResults) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // compact: no whitespace, stable
        return "result=" + (try encoder.encode(results)).base64EncodedString()
    }

    /// Appends `line(for:)` to `file` (other steps' outputs stay).
    public static func append(_ results: LabResults, to file: URL) throws {
        let text = try line(for: results) + "\n"
        guard let handle = FileHandle(forWritingAtPath: file.path) else {
            try Data(text.utf8).write(to: file)
            return
        }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
    }
}
