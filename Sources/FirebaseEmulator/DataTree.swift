import Foundation

/// The database as Firebase stores it: a tree of objects with scalar leaves.
/// Invariants of `root`: no arrays (they are stored as children "0", "1", …), no nulls below the root,
/// no empty objects (writing `{}` or `[]` stores nothing, firebase-tools#218). So `.null` means empty.
struct DataTree {
    private(set) var root: JSONValue = .null

    init(_ value: JSONValue = .null) {
        root = Self.normalized(value)
    }

    /// The stored value at `path`, as it is stored (no arrays); `.null` when missing.
    func stored(at path: [String]) -> JSONValue {
        var node = root
        for key in path {
            guard let child = node.objectValue?[key] else { return .null }
            node = child
        }
        return node
    }

    /// The value at `path` as a read returns it: arrays reconstructed by Firebase's heuristic.
    func read(at path: [String]) -> JSONValue {
        Self.presented(stored(at: path))
    }

    /// Replaces the value at `path` (null removes it) and prunes ancestors left empty.
    mutating func write(_ value: JSONValue, at path: [String]) {
        root = Self.replacing(in: root, path: path[...], with: Self.normalized(value))
    }

    private static func replacing(in node: JSONValue, path: ArraySlice<String>, with value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var children = node.objectValue ?? [:]  // writing below a scalar replaces the scalar
        let child = replacing(in: children[key] ?? .null, path: path.dropFirst(), with: value)
        // Not `children[key] = nil`: JSONValue is ExpressibleByNilLiteral, so that would store .null.
        if child == .null {
            children.removeValue(forKey: key)
        } else {
            children[key] = child
        }
        return children.isEmpty ? .null : .object(children)
    }

    /// Storage form: arrays become integer-keyed objects, nulls and empty containers disappear.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            var children: [String: JSONValue] = [:]
            for (index, element) in elements.enumerated() {
                let child = normalized(element)
                if child != .null { children[String(index)] = child }
            }
            return children.isEmpty ? .null : .object(children)
        case .object(let object):
            var children: [String: JSONValue] = [:]
            for (key, element) in object {
                let child = normalized(element)
                if child != .null { children[key] = child }
            }
            return children.isEmpty ? .null : .object(children)
        default:
            return value
        }
    }

    /// Read form. The SDK's exact rule (ChildrenNode.ts), which the server is believed to share: an object whose
    /// keys are all canonical non-negative integers, with maxKey < 2 × count, reads back as an array, gaps as null.
    static func presented(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        let children = object.mapValues(presented)
        var maxKey = -1
        for key in children.keys {
            guard let index = arrayIndex(key) else { return .object(children) }
            maxKey = max(maxKey, index)
        }
        guard !children.isEmpty, maxKey < 2 * children.count else { return .object(children) }
        return .array((0...maxKey).map { children[String($0)] ?? .null })
    }

    /// The integer a key names when it matches ^(0|[1-9]\d*)$; nil otherwise (or when it would overflow).
    static func arrayIndex(_ key: String) -> Int? {
        guard let first = key.utf8.first, key.utf8.count <= 9,  // 9 digits: far beyond any array, never overflows
            key.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            first != UInt8(ascii: "0") || key.utf8.count == 1
        else { return nil }
        return Int(key)
    }
}
