import Foundation

/// The database as Firebase stores it: a tree of objects with scalar leaves.
/// Invariants of `root`: no arrays (they are stored as children "0", "1", …), no nulls below the root,
/// no empty objects (writing `{}` or `[]` stores nothing, firebase-tools#218). So `.null` means empty.
/// Priorities [REF "Priorities"]: an object's is its child `.priority`; a leaf with one is stored
/// `{".value": leaf, ".priority": p}`, as Firebase's export format writes it. Reads leave them out.
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
    func read(at path: [String], withPriorities: Bool = false) -> JSONValue {
        Self.presented(stored(at: path), withPriorities: withPriorities)
    }

    /// Replaces the value at `path` (null removes it) and prunes ancestors left empty.
    mutating func write(_ value: JSONValue, at path: [String]) {
        root = Self.replacing(in: root, path: path[...], with: Self.normalized(value))
    }

    private static func replacing(in node: JSONValue, path: ArraySlice<String>, with value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        // Writing below a scalar replaces the scalar, except its priority, which wraps it.
        var children = node.objectValue ?? (key == priorityKey && node != .null ? [valueKey: node] : [:])
        if key != priorityKey { children.removeValue(forKey: valueKey) }
        let child = replacing(in: children[key] ?? .null, path: path.dropFirst(), with: value)
        // Not `children[key] = nil`: JSONValue is ExpressibleByNilLiteral, so that would store .null.
        if child == .null {
            children.removeValue(forKey: key)
        } else {
            children[key] = child
        }
        return storageForm(children)
    }

    static let priorityKey = ".priority"
    static let valueKey = ".value"

    /// An object's children as stored: nothing when none is left but a priority; a `.value` without a priority is
    /// just that value.
    private static func storageForm(_ children: [String: JSONValue]) -> JSONValue {
        if children.isEmpty || (children.count == 1 && children[priorityKey] != nil) { return .null }
        if let leaf = children[valueKey], children[priorityKey] == nil { return leaf }
        return .object(children)
    }

    /// The value of a stored child without its priority wrapper.
    static func leaf(_ stored: JSONValue) -> JSONValue {
        stored.objectValue?[valueKey] ?? stored
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
            return storageForm(children)
        default:
            return value
        }
    }

    /// Read form. The SDK's exact rule (ChildrenNode.ts), which the server is believed to share: an object whose
    /// keys are all canonical non-negative integers, with maxKey < 2 × count, reads back as an array, gaps as null.
    /// Priorities are left out, unless `withPriorities` (`format=export`).
    static func presented(_ value: JSONValue, withPriorities: Bool = false) -> JSONValue {
        guard case .object(var object) = value else { return value }
        if !withPriorities {
            if let leaf = object[valueKey] { return leaf }
            if object[priorityKey] != nil { object.removeValue(forKey: priorityKey) }  // no copy when there is none
        }
        let children = object.mapValues { presented($0, withPriorities: withPriorities) }
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
