import Foundation

/// Firebase refuses data nested more than 32 levels [LIMITS]. This check reads the raw bytes without recursion, so a
/// body nested 100,000 levels deep is refused before anything recursive (the parser, the tree) ever sees it.
enum NestingLimit {
    /// The deepest nesting of objects and arrays in `bytes`, counted up to `limit + 1` (then it stops reading).
    /// Brackets inside strings do not count. Malformed JSON is measured all the same: the parser refuses it later.
    static func depth(of bytes: Data, stoppingAbove limit: Int) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// True when `bytes` nest deeper than Firebase stores anywhere (32 levels below the root).
    static func isTooDeep(_ bytes: Data) -> Bool {
        depth(of: bytes, stoppingAbove: Validation.maximumDepth) > Validation.maximumDepth
    }
}
