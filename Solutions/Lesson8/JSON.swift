// Given: already written for you. Any JSON value, so the local model (§8.3) can hold what the events carry.
import Foundation

/// A JSON value decoded with JSONDecoder: `JSONDecoder().decode(JSON.self, from: data)`.
public enum JSON: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The children of an object; nil for anything else.
    public var objectValue: [String: JSON]? {
        if case .object(let children) = self { return children }
        return nil
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}

/// What a `put` or `patch` event's data holds: where (relative to the listened location, "/" for itself) and what.
public struct StreamPayload: Decodable, Equatable {
    public let path: String
    public let data: JSON

    public init(path: String, data: JSON) {
        self.path = path
        self.data = data
    }
}
