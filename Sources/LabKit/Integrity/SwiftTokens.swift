import Foundation

/// A rough Swift tokenizer for scanning learners' sources: words and operator symbols, each with its line and brace
/// depth, comments and string literals left out — but not the code in a literal's interpolations (`"\(code)"`),
/// which is code like any other. Enough to find imports and declarations; not a parser.
struct SwiftTokens {
    struct Token {
        let text: String
        let line: Int
        /// `{` nesting before the token.
        let depth: Int
        /// Whether a `.` came right before it (`x.name`, `.name`): a member, not a free name.
        let afterDot: Bool
    }

    let tokens: [Token]

    init(_ source: String) {
        var tokens: [Token] = []
        let characters = Array(source.unicodeScalars)
        var index = 0, line = 1, depth = 0
        var afterDot = false
        func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1; index += 1; continue }
            if character == "/", peek(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "/", peek(1) == "*" {
                var nesting = 0
                repeat {
                    if characters[index] == "/", peek(1) == "*" { nesting += 1; index += 2; continue }
                    if characters[index] == "*", peek(1) == "/" { nesting -= 1; index += 2; continue }
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                } while nesting > 0 && index < characters.count
                continue
            }
            if character == "\"" || (character == "#" && (peek(1) == "\"" || peek(1) == "#")) {
                var interpolations: [(code: String, line: Int)] = []
                Self.skipString(characters, &index, &line, interpolations: &interpolations)
                for (code, firstLine) in interpolations {
                    tokens += SwiftTokens(code).tokens.map {
                        Token(text: $0.text, line: firstLine + $0.line - 1, depth: depth + $0.depth, afterDot: $0.afterDot)
                    }
                }
                afterDot = false
                continue
            }
            if character == "{" { depth += 1; index += 1; afterDot = false; continue }
            if character == "}" { depth = max(0, depth - 1); index += 1; afterDot = false; continue }
            if character == "." && !(peek(1).map(Self.isOperator) ?? false) { afterDot = true; index += 1; continue }
            let start = index
            if Self.isWord(character) {
                while index < characters.count, Self.isWord(characters[index]) { index += 1 }
            } else if Self.isOperator(character) {
                while index < characters.count, Self.isOperator(characters[index]) { index += 1 }
            } else {
                if !character.properties.isWhitespace { afterDot = false }
                index += 1
                continue
            }
            let text = String(String.UnicodeScalarView(characters[start..<index]))
            tokens.append(Token(text: text, line: line, depth: depth, afterDot: afterDot))
            afterDot = false
        }
        self.tokens = tokens
    }

    /// Skips a string literal starting at `index`: "…", """…""", and raw #"…"# forms; the code of each
    /// interpolation (`\(…)`, `\#(…)` in a raw string) goes to `interpolations` with its first line.
    private static func skipString(_ characters: [Unicode.Scalar], _ index: inout Int, _ line: inout Int,
                                   interpolations: inout [(code: String, line: Int)]) {
        var hashes = 0
        while index < characters.count, characters[index] == "#" { hashes += 1; index += 1 }
        guard index < characters.count, characters[index] == "\"" else { return }
        let multiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
        let quotes = multiline ? 3 : 1
        index += quotes
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1; if !multiline { return } }
            if character == "\\" {
                var marks = 0
                while index + 1 + marks < characters.count, characters[index + 1 + marks] == "#" { marks += 1 }
                if marks == hashes, index + 1 + marks < characters.count, characters[index + 1 + marks] == "(" {
                    index += 2 + marks
                    interpolations.append(interpolation(characters, &index, &line))
                    continue
                }
                if hashes == 0 { index += 2; continue }
            }
            if character == "\"" {
                var run = 0
                while index + run < characters.count, characters[index + run] == "\"", run < quotes { run += 1 }
                var closing = run == quotes
                var trailing = 0
                while closing, trailing < hashes {
                    if index + run + trailing < characters.count, characters[index + run + trailing] == "#" { trailing += 1 } else { closing = false }
                }
                if closing { index += run + hashes; return }
                index += max(run, 1)
                continue
            }
            index += 1
        }
    }

    /// The code of an interpolation whose `(` is just before `index`, up to its matching `)` (strings inside it
    /// skipped whole); `index` ends after the `)`.
    private static func interpolation(_ characters: [Unicode.Scalar], _ index: inout Int, _ line: inout Int) -> (code: String, line: Int) {
        let start = index, firstLine = line
        var open = 1
        var nested: [(code: String, line: Int)] = []  // found again when the code itself is tokenized
        while index < characters.count {
            let character = characters[index]
            if character == "\"" || (character == "#" && index + 1 < characters.count && characters[index + 1] == "\"") {
                skipString(characters, &index, &line, interpolations: &nested)
                continue
            }
            if character == "\n" { line += 1 }
            if character == "(" { open += 1 }
            if character == ")" { open -= 1; if open == 0 { break } }
            index += 1
        }
        let code = String(String.UnicodeScalarView(characters[start..<min(index, characters.count)]))
        index += 1
        return (code, firstLine)
    }

    static func isWord(_ character: Unicode.Scalar) -> Bool {
        character == "_" || character == "@" || character == "$" || character.properties.isAlphabetic || ("0"..."9").contains(character)
    }

    static func isOperator(_ character: Unicode.Scalar) -> Bool { "=-+!*%<>&|^~?/".unicodeScalars.contains(character) }
}
