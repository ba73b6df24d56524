import Foundation

/// The tokens of a rule expression: Firebase's JavaScript-like rules language (numbers, 'strings' or "strings",
/// identifiers including `$location` variables, `/regex/flags` as an argument, operators and punctuation).
struct RuleToken: Equatable {
    enum Kind: Equatable {
        case number(Double)
        case string(String)
        case identifier(String)
        case regex(pattern: String, flags: String)
        case symbol(String)
        case end
    }

    let kind: Kind
    /// 1-based character offset in the expression, for error messages.
    let offset: Int
}

/// Why a rule cannot be read, and where in its expression.
struct RuleSyntaxError: Error, Equatable {
    let message: String
}

enum RuleLexer {
    /// Longest first, so `===` is not read as `==` then `=`.
    private static let symbols = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||",
                                  "(", ")", "[", "]", ".", ",", "?", ":", "!", "<", ">", "+", "-", "*", "/", "%"]

    static func tokens(_ text: String) throws -> [RuleToken] {
        let characters = Array(text.unicodeScalars)
        var tokens: [RuleToken] = []
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            let start = index + 1
            if character.properties.isWhitespace {
                index += 1
            } else if ("0"..."9").contains(character) || (character == "." && at(1).map { ("0"..."9").contains($0) } == true) {
                var end = index
                while end < characters.count, ("0"..."9").contains(characters[end]) || characters[end] == "." { end += 1 }
                let literal = String(String.UnicodeScalarView(characters[index..<end]))
                guard let number = Double(literal) else { throw RuleSyntaxError(message: "Invalid number \(literal) at character \(start)") }
                tokens.append(RuleToken(kind: .number(number), offset: start))
                index = end
            } else if character == "'" || character == "\"" {
                var value = String.UnicodeScalarView()
                index += 1
                while true {
                    guard let next = at(0) else { throw RuleSyntaxError(message: "Unterminated string starting at character \(start)") }
                    index += 1
                    if next == character { break }
                    if next == "\\", let escaped = at(0) {
                        index += 1
                        switch escaped {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        default: value.append(escaped)
                        }
                    } else {
                        value.append(next)
                    }
                }
                tokens.append(RuleToken(kind: .string(String(value)), offset: start))
            } else if character.properties.isAlphabetic || character == "_" || character == "$" {
                var end = index
                while end < characters.count,
                    characters[end].properties.isAlphabetic || ("0"..."9").contains(characters[end]) || characters[end] == "_" || characters[end] == "$" {
                    end += 1
                }
                tokens.append(RuleToken(kind: .identifier(String(String.UnicodeScalarView(characters[index..<end]))), offset: start))
                index = end
            } else if character == "/", case .symbol(let previous)? = tokens.last?.kind, previous == "(" || previous == "," {
                // A regular expression literal: only ever an argument (`matches(/^a+$/)`), so it follows `(` or `,`.
                var pattern = String.UnicodeScalarView()
                index += 1
                while true {
                    guard let next = at(0) else { throw RuleSyntaxError(message: "Unterminated regular expression starting at character \(start)") }
                    index += 1
                    if next == "/" { break }
                    pattern.append(next)
                    if next == "\\", let escaped = at(0) { pattern.append(escaped); index += 1 }
                }
                var flags = ""
                while let flag = at(0), flag.properties.isAlphabetic { flags.unicodeScalars.append(flag); index += 1 }
                tokens.append(RuleToken(kind: .regex(pattern: String(pattern), flags: flags), offset: start))
            } else if let symbol = symbols.first(where: { symbol in
                symbol.unicodeScalars.enumerated().allSatisfy { at($0.offset) == $0.element }
            }) {
                tokens.append(RuleToken(kind: .symbol(symbol), offset: start))
                index += symbol.unicodeScalars.count
            } else {
                throw RuleSyntaxError(message: "Unexpected character '\(character)' at character \(start)")
            }
        }
        tokens.append(RuleToken(kind: .end, offset: characters.count + 1))
        return tokens
    }
}
