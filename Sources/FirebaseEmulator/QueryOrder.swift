import Foundation

/// Firebase's sort order [RETR "How Data is Ordered": https://firebase.google.com/docs/database/rest/retrieve-data].
/// Values: null, then false, then true, then numbers ascending, then strings lexicographically, then objects; ties by
/// key. Keys: those that parse as 32-bit integers first, numerically, then the rest lexicographically.
enum QueryOrder {
    /// Firebase's key order (the SDKs' `nameCompare`): integer keys first, numerically; then the other strings.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        keyPrecedes(a, int32Key(a), b, int32Key(b))
    }

    /// The same, with each key's integer (or nil) already worked out.
    static func keyPrecedes(_ a: String, _ intA: Int64?, _ b: String, _ intB: Int64?) -> Bool {
        switch (intA, intB) {
        case let (x?, y?): return x == y ? a.utf8.count < b.utf8.count : x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return textPrecedes(a, b)
        }
    }

    /// The integer a key names when Firebase orders it as one: `-?\d{1,10}` within the 32-bit range.
    static func int32Key(_ key: String) -> Int64? {
        let digits = key.utf8.first == UInt8(ascii: "-") ? key.utf8.dropFirst() : key.utf8[...]
        guard (1...10).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Int64(key), (Int64(Int32.min)...Int64(Int32.max)).contains(value)
        else { return nil }
        return value
    }

    /// Strings in code-point order (UTF-8 bytes compare that way, and fast). Firebase's Java server compares UTF-16
    /// units, which differs only between a character from U+E000–U+FFFF and one beyond U+FFFF (an emoji, say).
    static func textPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// -1, 0 or 1: how two values compare in Firebase's order (objects compare equal: their keys break the tie).
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case let (.number(x), .number(y)): return x == y ? 0 : (x < y ? -1 : 1)
        case let (.string(x), .string(y)):
            return x == y ? 0 : (textPrecedes(x, y) ? -1 : 1)
        default: return 0
        }
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 0
        case .bool(false): return 1
        case .bool(true): return 2
        case .number: return 3
        case .string: return 4
        case .array, .object: return 5
        }
    }
}
