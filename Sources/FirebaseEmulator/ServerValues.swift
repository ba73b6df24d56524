import Foundation

/// Server values: placeholders the server replaces while writing.
/// `{".sv": "timestamp"}` becomes milliseconds since 1970 (from the emulator's clock);
/// `{".sv": {"increment": n}}` becomes the current number at that location plus n (n when it is not a number).
enum ServerValues {
    struct UnknownServerValue: Error {}
    /// An increment whose sum is beyond a Double (1.7e308 + 1.7e308): JSON has no infinity to store.
    struct IncrementOverflow: Error {}

    /// Replaces every placeholder in `value`; `existing` is what is stored at the same location now.
    static func resolve(_ value: JSONValue, existing: JSONValue, now: Date) throws -> JSONValue {
        switch value {
        case .object(let object) where object[".sv"] != nil:
            guard object.count == 1, let placeholder = object[".sv"] else { throw UnknownServerValue() }
            return try resolvePlaceholder(placeholder, existing: existing, now: now)
        case .object(let object):
            var resolved: [String: JSONValue] = [:]
            for (key, child) in object {
                resolved[key] = try resolve(child, existing: existing[key], now: now)
            }
            return .object(resolved)
        case .array(let array):
            return .array(try array.enumerated().map { index, child in
                try resolve(child, existing: existing[String(index)], now: now)
            })
        default:
            return value
        }
    }

    private static func resolvePlaceholder(_ placeholder: JSONValue, existing: JSONValue, now: Date) throws -> JSONValue {
        if placeholder == "timestamp" {
            return .number(Double(PushIDGenerator.milliseconds(now)))
        }
        if let increment = placeholder.objectValue, increment.count == 1, let delta = increment["increment"]?.numberValue {
            let sum = (DataTree.leaf(existing).numberValue ?? 0) + delta  // a number with a priority counts too
            guard sum.isFinite else { throw IncrementOverflow() }
            return .number(sum)
        }
        throw UnknownServerValue()
    }
}
