import Foundation

/// What a failure message names, without its values: two learners who make the same mistake get the same kind,
/// though their messages differ in the identifiers, URLs, bodies and numbers their code produced.
///
/// The kit's messages start with what went wrong and follow it with values and the why (LabTestCase, FailureText):
/// "createMessageThread sent POST /695398C4-….json  body: {…}  -> 200. Use PUT: …". So a kind is the test plus the
/// message's first clause — up to the first `. `, `: `, `; `, ` — ` or ` (` — with its values stripped.
struct FailureKind: Equatable {
    /// The grouping key: "<test code>|<clause>".
    let key: String
    /// The first clause, values stripped: what a reader sees as the mistake's name.
    let clause: String
    /// The LESSONS.md section the message sends the learner to (its last `§N.M`), if it names one.
    let section: String?

    init(testCode: String, message: String) {
        let stripped = Self.strippingValues(message)
        clause = Self.firstClause(of: stripped)
        key = "\(testCode)|\(clause)"
        section = Self.lastSection(in: message)
    }

    /// The text before the first clause break, at most 140 characters.
    static func firstClause(of text: String) -> String {
        let breaks = [". ", ": ", "; ", " — ", " ("]
        var end = text.endIndex
        for mark in breaks {
            if let range = text.range(of: mark), range.lowerBound < end { end = range.lowerBound }
        }
        var clause = text[..<end].trimmingCharacters(in: .whitespaces)
        while clause.hasSuffix(".") { clause.removeLast() }
        return clause.count > 140 ? String(clause.prefix(140)) + "…" : clause
    }

    /// `text` with its values replaced by `…`: quoted strings, JSON objects and arrays, URLs, paths, identifiers
    /// (UUIDs, Firebase push IDs) and numbers. Code in backticks and words are kept: they name the mistake.
    static func strippingValues(_ text: String) -> String {
        var result = replacingBalanced(in: text)
        let patterns = [
            #"(?:\s{2}body[^:]*: .*?)?\s{2}-> [^.]*"#,                                // a request's body and answer (`RecordedRequest.summary`)
            #""(?:[^"\\]|\\.)*""#,                                                  // "a quoted string"
            #"[a-zA-Z][a-zA-Z0-9+.-]*://\S*[^\s.,;:]"#,                              // a URL (not its sentence's full stop)
            #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#,  // a UUID
            #"(?<![\w`])-[A-Za-z0-9_-]{19}(?![\w-])"#,                              // a push ID
            #"(?<=^|\s)/(?:\S*[^\s.,;:])?"#,                                        // a path
            #"(?<![A-Za-z_§.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![A-Za-z_])"#,  // a number (not §1.3)
        ]
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            result = regex.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "…")
        }
        return result.replacingOccurrences(of: #"…(?:\s*…)+"#, with: "…", options: .regularExpression)
    }

    /// `{…}` and `[…]` for every outermost JSON object or array (brackets inside quotes do not count).
    private static func replacingBalanced(in text: String) -> String {
        var output = "", depth = 0, quoted = false, escaped = false
        for character in text {
            if depth > 0 {
                if quoted {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
                } else if character == "\"" {
                    quoted = true
                } else if character == "{" || character == "[" {
                    depth += 1
                } else if character == "}" || character == "]" {
                    depth -= 1
                    if depth == 0 { output += "…" }
                }
                continue
            }
            if character == "{" || character == "[" { depth = 1; quoted = false } else { output.append(character) }
        }
        return depth > 0 ? output + "…" : output
    }

    private static func lastSection(in message: String) -> String? {
        let regex = try! NSRegularExpression(pattern: #"§(\d+(?:\.\d+)*)"#)
        let matches = regex.matches(in: message, range: NSRange(message.startIndex..., in: message))
        guard let last = matches.last, let range = Range(last.range(at: 1), in: message) else { return nil }
        return String(message[range])
    }
}
