import Foundation

/// A rough Swift tokenizer for scanning learners' sources: words and operator symbols, each with its line and brace
/// depth, comments and string literals left out. Enough to find imports and declarations; not a parser.
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
                Self.skipString(characters, &index, &line)
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

    /// Skips a string literal starting at `index`: "…", """…""", and raw #"…"# forms (interpolations are inside).
    private static func skipString(_ characters: [Unicode.Scalar], _ index: inout Int, _ line: inout Int) {
        var hashes = 0
        while index < characters.count, characters[index] == "#" { hashes += 1; index += 1 }
        guard index < characters.count, characters[index] == "\"" else { return }
        let multiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
        let quotes = multiline ? 3 : 1
        index += quotes
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1; if !multiline { return } }
            if character == "\\" && hashes == 0 { index += 2; continue }
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

    static func isWord(_ character: Unicode.Scalar) -> Bool {
        character == "_" || character == "@" || character == "$" || character.properties.isAlphabetic || ("0"..."9").contains(character)
    }

    static func isOperator(_ character: Unicode.Scalar) -> Bool { "=-+!*%<>&|^~?/".unicodeScalars.contains(character) }
}
