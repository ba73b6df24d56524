import Foundation

/// Writes JSON text: compact (the default response body) or pretty (`print=pretty` and error bodies).
/// Keys are sorted (by `<` unless a service gives its own order) so bodies and failure messages are deterministic.
enum JSONWriter {
    typealias KeyOrder = (String, String) -> Bool

    static func compact(_ value: JSONValue, keyOrder: KeyOrder = (<)) -> String {
        var out = ""
        writeCompact(value, keyOrder: keyOrder, into: &out)
        return out
    }

    /// Firebase's pretty style, as its error bodies show byte for byte: `{\n  "error" : "Permission denied"\n}`.
    /// No trailing newline here; the server adds one after a whole body.
    static func pretty(_ value: JSONValue, keyOrder: KeyOrder = (<)) -> String {
        var out = ""
        writePretty(value, indent: "", keyOrder: keyOrder, into: &out)
        return out
    }

    private static func writeCompact(_ value: JSONValue, keyOrder: KeyOrder, into out: inout String) {
        switch value {
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += "," }
                writeCompact(element, keyOrder: keyOrder, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (offset, key) in object.keys.sorted(by: keyOrder).enumerated() {
                if offset > 0 { out += "," }
                out += quoted(key) + ":"
                writeCompact(object[key]!, keyOrder: keyOrder, into: &out)
            }
            out += "}"
        default:
            out += scalar(value)
        }
    }

    private static func writePretty(_ value: JSONValue, indent: String, keyOrder: KeyOrder, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out += "[\n"
            for (offset, element) in elements.enumerated() {
                out += inner
                writePretty(element, indent: inner, keyOrder: keyOrder, into: &out)
                out += offset < elements.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let object) where !object.isEmpty:
            out += "{\n"
            let keys = object.keys.sorted(by: keyOrder)
            for (offset, key) in keys.enumerated() {
                out += inner + quoted(key) + " : "
                writePretty(object[key]!, indent: inner, keyOrder: keyOrder, into: &out)
                out += offset < keys.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array: out += "[ ]"
        case .object: out += "{ }"
        default: out += scalar(value)
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .number(let number): return formatNumber(number)
        case .string(let string): return quoted(string)
        case .array, .object: return compact(value)
        }
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Integral values print as integers (Firebase stores them as longs: a server timestamp reads back
    /// `1533713072088`). Others print like Java's `Double.toString`, which is how the course's sample export
    /// spells a Swift `Date`: `5.55405872056162E8`. Inferred from that export; see Fixtures/README.md.
    static func formatNumber(_ number: Double) -> String {
        guard number.isFinite else { return "null" }  // JSON has no NaN or infinity; the parser never makes them
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {  // 2^53: exact as an integer
            return String(Int64(number))  // -0.0 prints as 0
        }
        let (digits, pointPosition) = shortestDigits(abs(number))
        let sign = number < 0 ? "-" : ""
        let magnitude = abs(number)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(pointPosition - 1)
    }

    /// The shortest round-tripping decimal digits of a positive finite number (Swift's `description` computes
    /// them), and where the decimal point goes: value = 0.<digits> × 10^pointPosition.
    private static func shortestDigits(_ number: Double) -> (String, Int) {
        let text = "\(number)"  // e.g. "555405872.056162", "1e-05", "1.5e+20"
        let parts = text.lowercased().split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(mantissa[0])
        let fractionPart = mantissa.count > 1 ? String(mantissa[1]) : ""
        var digits = Substring(integerPart + fractionPart)
        var pointPosition = integerPart.count + exponent
        while digits.first == "0", digits.count > 1 {
            digits = digits.dropFirst()
            pointPosition -= 1
        }
        while digits.last == "0", digits.count > 1 { digits = digits.dropLast() }
        return (String(digits), pointPosition)
    }
}
