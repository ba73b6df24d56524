import Foundation

/// A JSON value as Firebase sees it: the emulator's storage, request bodies, and what tests compare.
/// Comparing values (not bytes) is how graded tests stay independent of key order and number spelling.
public enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text. Top-level scalars and `null` are allowed, as in Firebase bodies.
    /// Throws `JSONParseError` (with line and column) on anything that is not one JSON value.
    public init(data: Data) throws {
        self = try JSONParser.parse(data).value
    }

    /// Encodes `value` with a default `JSONEncoder` and reads the result back, so a test can compare
    /// "what this Codable model would send" with what the emulator received.
    public init<T: Encodable>(encoding value: T) throws {
        try self.init(data: JSONEncoder().encode(value))
    }

    /// Compact JSON with sorted keys.
    public var jsonData: Data { Data(JSONWriter.compact(self).utf8) }

    /// JSON text with keys in the given order (a service's own, say Firebase's integer keys first), compact or pretty.
    public func text(pretty: Bool = false, keysOrderedBy order: @escaping (String, String) -> Bool) -> String {
        pretty ? JSONWriter.pretty(self, keyOrder: order) : JSONWriter.compact(self, keyOrder: order)
    }

    /// Pretty JSON with sorted keys, in Firebase's style (`"key" : value`, two-space indent), for failure messages.
    public var prettyText: String { JSONWriter.pretty(self) }

    /// The child named `key`; `.null` when absent or when this is not an object (like Firebase's missing data).
    public subscript(key: String) -> JSONValue {
        objectValue?[key] ?? .null
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON, so interpolating a value into a message shows exactly what would go on the wire.
    public var description: String { JSONWriter.compact(self) }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder refuses to read a JSON number as Bool, so `true` cannot become 1.
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // Last one wins, like a JSON parser; a literal with duplicate keys must not trap.
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
