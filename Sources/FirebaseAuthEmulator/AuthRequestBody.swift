import Foundation

/// A request body as the Auth emulator reads it: a JSON object, or (for `securetoken.googleapis.com/v1/token`, whose
/// documented Content-Type it is) an `application/x-www-form-urlencoded` form. Field names are read in camelCase
/// whichever way they are sent (`refresh_token` = `refreshToken`), as Google's REST mapping and the emulator do.
///
/// The kit tells JSON from a form by the body itself (JSON starts with `{`), not by the Content-Type: URLSession
/// labels a POST body `application/x-www-form-urlencoded` on some platforms when the code sets no type, and a
/// lesson should not pass on one platform and fail on another. The real service goes by the header.
struct AuthRequestBody {
    private let fields: [String: JSONValue]

    init(_ data: Data?) throws {
        guard let data = data, !data.isEmpty else { fields = [:]; return }
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") || firstByte == UInt8(ascii: "\"") {
            let value: JSONValue
            do {
                value = try JSONValue(data: data)
            } catch let error as JSONParseError {
                throw AuthError.invalidJSON(error.description, reason: "parseError")
            }
            guard case .object(let object) = value else { throw AuthError.invalidJSON("Root element must be a message.") }
            fields = Dictionary(object.map { (Self.camelCase($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
        } else {
            guard let text = String(data: data, encoding: .utf8) else { throw AuthError.invalidJSON("The body is not UTF-8 text.") }
            var form: [String: JSONValue] = [:]
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (part: Substring) in part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part) }
                form[Self.camelCase(decode(parts[0]))] = .string(parts.count > 1 ? decode(parts[1]) : "")
            }
            fields = form
        }
    }

    /// The field as a string; nil when absent or null. Numbers and booleans are read as their text, as the emulator
    /// coerces them; anything else is refused the way its schema check refuses it.
    func string(_ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .number(let number)?: return JSONValue.number(number).description
        case .bool(let bool)?: return bool ? "true" : "false"
        default: throw AuthError.invalidJSON("/\(name) should be string")
        }
    }

    /// `a_b_c` → `aBC`, as lodash's camelCase does for the field names clients send.
    static func camelCase(_ name: String) -> String {
        guard name.contains("_") else { return name }
        let parts = name.split(separator: "_")
        guard let first = parts.first else { return name }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
