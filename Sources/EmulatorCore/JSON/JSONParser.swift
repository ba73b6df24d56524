import Foundation

/// Why a text is not JSON, and where (1-based line and column, counted in characters).
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int

    public var description: String { "\(message) at line \(line), column \(column)" }
}

/// A strict JSON parser of our own rather than JSONSerialization: it behaves the same on Linux and macOS
/// (no NSNumber bool/number ambiguity), accepts top-level scalars, and reports where each object key
/// begins, which Firebase's key error message quotes ("couldn't parse key beginning at 1:2").
package struct JSONParser {
    /// One object key as it appeared in the text.
    package struct Key: Equatable {
        package let name: String
        package let line: Int
        package let column: Int
        /// How many containers (objects or arrays) enclose the key; a key of the top-level object has depth 1.
        package let depth: Int
    }

    package struct Result {
        package let value: JSONValue
        /// Every object key in document order (a dictionary loses that order).
        package let keys: [Key]
    }

    /// Far deeper than Firebase's 32 levels, low enough that recursion never exhausts even a 512 KB thread stack
    /// (macOS's default for secondary threads) in a debug build: 512 levels crashed `lab serve`'s 1 MB threads.
    static let maximumNesting = 128

    package static func parse(_ data: Data) throws -> Result {
        var parser = JSONParser(bytes: [UInt8](data))
        return try parser.parseDocument()
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0
    private var keys: [Key] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // tolerate a UTF-8 byte order mark
    }

    private mutating func parseDocument() throws -> Result {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("Unexpected text after the JSON value") }
        return Result(value: value, keys: keys)
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, line: line, column: column)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {  // continuation bytes belong to the previous character
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        for byte in literal.utf8 {
            guard current == byte else { throw error("Invalid literal, expected \(literal)") }
            advance()
        }
        return value
    }

    private mutating func parseValue() throws -> JSONValue {
        guard let byte = current else { throw error("Unexpected end of text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("Unexpected character, expected a value")
        }
    }

    private mutating func enterContainer() throws {
        depth += 1
        if depth > Self.maximumNesting { throw error("Nesting is deeper than \(Self.maximumNesting) levels") }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        advance()  // {
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("Expected a string key") }
            let keyLine = line, keyColumn = column
            let key = try parseString()
            keys.append(Key(name: key, line: keyLine, column: keyColumn, depth: depth))
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("Expected ':' after a key") }
            advance()
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                return .object(object)
            default: throw error("Expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        advance()  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                return .array(array)
            default: throw error("Expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseString() throws -> String {
        advance()  // opening quote
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []  // unescaped UTF-8 run, validated when flushed

        func flush() throws {
            guard !raw.isEmpty else { return }
            guard let text = String(bytes: raw, encoding: .utf8) else { throw error("Invalid UTF-8 in a string") }
            scalars.append(contentsOf: text.unicodeScalars)
            raw.removeAll(keepingCapacity: true)
        }

        while true {
            guard let byte = current else { throw error("Unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                advance()
                scalars.append(try parseEscape())
            case 0x00..<0x20:
                throw error("Unescaped control character in a string")
            default:
                raw.append(byte)
                advance()
            }
        }
    }

    private mutating func parseEscape() throws -> Unicode.Scalar {
        guard let byte = current else { throw error("Unterminated escape") }
        advance()
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800..<0xDC00).contains(first) {
                // A high surrogate must be followed by \u and a low surrogate.
                guard current == UInt8(ascii: "\\") else { throw error("Unpaired surrogate in a string") }
                advance()
                guard current == UInt8(ascii: "u") else { throw error("Unpaired surrogate in a string") }
                advance()
                let second = try parseHex4()
                guard (0xDC00..<0xE000).contains(second) else { throw error("Unpaired surrogate in a string") }
                let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Unicode.Scalar(combined)!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("Unpaired surrogate in a string") }
            return scalar
        default:
            throw error("Invalid escape in a string")
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("Invalid \\u escape") }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The JSON number grammar, checked by hand; the digits are then converted by `Double(_:)`.
    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }

        if current == UInt8(ascii: "-") { advance() }
        guard isDigit(current) else { throw error("Invalid number") }
        if current == UInt8(ascii: "0") {
            advance()
            if isDigit(current) { throw error("Invalid number: leading zero") }
        } else {
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard isDigit(current) else { throw error("Invalid number: no digits after '.'") }
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard isDigit(current) else { throw error("Invalid number: no digits in the exponent") }
            while isDigit(current) { advance() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw error("Number out of range") }
        return .number(number)
    }
}
