import Foundation

/// A value while a rule is evaluated: JSON's scalars, a snapshot of the database (`root`, `data`, `newData` and
/// what `child()`/`parent()` return), a map (`auth`, `auth.token`), a list (`hasChildren([...])`'s argument).
indirect enum RuleValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case snapshot(RuleSnapshot)
    case map([String: RuleValue])
    case list([RuleValue])

    /// A stored JSON value as rules see it (`val()` of an object is a map of its children).
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number(let number): self = .number(number)
        case .string(let string): self = .string(string)
        case .array(let elements): self = .list(elements.map(RuleValue.init))
        case .object(let object): self = .map(object.mapValues(RuleValue.init))
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .snapshot: return "RuleDataSnapshot"
        case .map: return "map"
        case .list: return "list"
        }
    }
}

/// `data`, `newData`, `root` and their children: a location in one version of the tree (before or after a write).
struct RuleSnapshot: Equatable {
    /// The whole tree in storage form (`DataTree.root`).
    let tree: JSONValue
    let path: [String]

    var value: JSONValue {
        var node = tree
        for key in path {
            guard let child = node.objectValue?[key] else { return .null }
            node = child
        }
        return node
    }

    func child(_ relative: String) -> RuleSnapshot {
        RuleSnapshot(tree: tree, path: path + relative.split(separator: "/").map(String.init))
    }

    static func == (left: RuleSnapshot, right: RuleSnapshot) -> Bool { left.path == right.path && left.tree == right.tree }
}
