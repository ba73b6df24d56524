/// Turns one reference-solution file into the learner's stub file.
///
/// Markers, each alone on its line (leading spaces allowed):
///   `// BEGIN SOLUTION` … `// END SOLUTION`  the reference code: dropped from the stub, markers included.
///   `// STUB: <code>`                         a line of stub code: a comment in Solutions/, `<code>` in Exercises/.
/// Everything else (given code, the learner's step-by-step TODO comments) is copied as it is.
public enum StubGenerator {
    public struct MarkerError: Error, CustomStringConvertible, Equatable {
        public let file: String
        public let line: Int
        public let problem: String
        public var description: String { "\(file):\(line): \(problem)" }
    }

    static let beginMarker = "// BEGIN SOLUTION"
    static let endMarker = "// END SOLUTION"
    static let stubPrefix = "// STUB:"

    /// The stub text for `solution`. `file` only names the file in errors.
    public static func stub(fromSolution solution: String, file: String) throws -> String {
        var output: [Substring] = []
        var openedAt: Int?  // line of the `BEGIN SOLUTION` we are inside, if any
        let lines = solution.split(separator: "\n", omittingEmptySubsequences: false)

        for (index, line) in lines.enumerated() {
            let number = index + 1
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            func fail(_ problem: String) -> MarkerError { MarkerError(file: file, line: number, problem: problem) }

            if trimmed.hasPrefix(beginMarker) {
                if let opened = openedAt { throw fail("`\(beginMarker)` inside the block opened at line \(opened); close it first with `\(endMarker)`") }
                openedAt = number
            } else if trimmed.hasPrefix(endMarker) {
                if openedAt == nil { throw fail("`\(endMarker)` without a `\(beginMarker)` before it") }
                openedAt = nil
            } else if trimmed.hasPrefix(stubPrefix) {
                if let opened = openedAt { throw fail("`\(stubPrefix)` line inside the solution block opened at line \(opened); stub lines go after `\(endMarker)`") }
                let indent = line.prefix(while: { $0 == " " || $0 == "\t" })
                var code = trimmed.dropFirst(stubPrefix.count)
                if code.first == " " { code = code.dropFirst() }
                output.append(code.isEmpty ? "" : indent + code)
            } else if openedAt == nil {
                output.append(line)
            }
        }
        if let opened = openedAt {
            throw MarkerError(file: file, line: opened, problem: "`\(beginMarker)` is never closed with `\(endMarker)`")
        }
        return output.joined(separator: "\n")
    }
}
