import Foundation

/// A JSON answer whose keys keep the order the Auth emulator writes them in, printed as it prints them: Express's
/// `json spaces 2`, i.e. JavaScript's `JSON.stringify(value, null, 2)` (`"key": value`, two-space indent, `{}`
/// and `[]` when empty). Clients compare values, not bytes; the order only makes curl output look like the real one.
indirect enum OrderedJSON {
    case value(JSONValue)
    case object([(String, OrderedJSON)])
    case array([OrderedJSON])

    /// An object from fields, leaving out the nil ones (JavaScript's `undefined` is never written).
    static func fields(_ fields: [(String, OrderedJSON?)]) -> OrderedJSON {
        .object(fields.compactMap { key, value in value.map { (key, $0) } })
    }

    static func string(_ text: String?) -> OrderedJSON? { text.map { .value(.string($0)) } }

    var text: String {
        var out = ""
        write(indent: "", into: &out)
        return out
    }

    /// The same value without the order (for tests and the log).
    var jsonValue: JSONValue {
        switch self {
        case .value(let value): return value
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let fields):
            return .object(Dictionary(fields.map { ($0.0, $0.1.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }

    private func write(indent: String, into out: inout String) {
        let inner = indent + "  "
        switch self {
        case .value(let value):
            out += value.description
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (offset, element) in elements.enumerated() {
                out += inner
                element.write(indent: inner, into: &out)
                out += offset < elements.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (offset, field) in fields.enumerated() {
                out += inner + JSONValue.string(field.0).description + ": "
                field.1.write(indent: inner, into: &out)
                out += offset < fields.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }
}
