import Foundation

/// Firebase's rules for keys, paths and depth, and the error texts it answers with.
enum Validation {
    /// Firebase limits a location to 32 levels below the root: the write path plus the data's own nesting.
    static let maximumDepth = 32
    static let maximumKeyBytes = 768

    /// A key in written data: non-empty UTF-8, at most 768 bytes, none of `. $ # [ ] /`, no control characters.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= maximumKeyBytes && !key.unicodeScalars.contains(where: isForbiddenInKey)
    }

    /// A segment of the URL path: the same rules except `/`, which separates segments.
    static func isValidPathSegment(_ segment: String) -> Bool {
        !segment.isEmpty && segment.utf8.count <= maximumKeyBytes
            && !segment.unicodeScalars.contains(where: isForbiddenInKey)
    }

    private static func isForbiddenInKey(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", "$", "#", "[", "]", "/", "\u{7F}", "\u{00}"..."\u{1F}": return true
        default: return false
        }
    }

    /// The first key (in document order) Firebase would refuse. `.sv` is allowed: it marks a server value,
    /// checked later. In a PATCH body the top-level keys are paths ("a/b"), so each of their segments must be a key.
    static func firstInvalidKey(in keys: [JSONParser.Key], topLevelKeysArePaths: Bool) -> JSONParser.Key? {
        keys.first { key in
            if key.name == ".sv" || key.name == DataTree.priorityKey || key.name == DataTree.valueKey { return false }
            if topLevelKeysArePaths && key.depth == 1 {
                let segments = key.name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
                return segments.isEmpty || !isValidPath(segments)
            }
            return !isValidKey(key.name)
        }
    }

    /// Path segments in a URL or a PATCH key: valid keys, the last of which may be `.priority` [REF "Priorities"].
    static func isValidPath(_ segments: [String]) -> Bool {
        segments.indices.allSatisfy { index in
            isValidPathSegment(segments[index]) || (index == segments.count - 1 && segments[index] == DataTree.priorityKey)
        }
    }

    /// Where written data uses priorities, Firebase's shape: a `.priority` is a number, a string or null, and a
    /// `.value` (a leaf) has nothing beside it but a `.priority`. True when `value` breaks it.
    static func misusesPriorities(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value else { return false }
        if let priority = object[DataTree.priorityKey], !isPriority(priority) { return true }
        if let leaf = object[DataTree.valueKey] {
            if leaf.objectValue != nil || leaf.arrayValue != nil { return true }
            return object.keys.contains { $0 != DataTree.valueKey && $0 != DataTree.priorityKey }
        }
        return object.values.contains(where: misusesPriorities)
    }

    static func isPriority(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .number, .string: return true
        default: return false
        }
    }

    /// A string may hold 10 MB of UTF-8 [LIMITS: https://firebase.google.com/docs/database/usage/limits].
    static let maximumStringBytes = 10 << 20

    /// How many levels of keys `value` adds below its location (0 for a scalar), and its longest string in UTF-8
    /// bytes. Recursive: call it only on values whose nesting `NestingLimit` has checked.
    static func measure(_ value: JSONValue) -> (depth: Int, longestString: Int) {
        switch value {
        case .object(let object): return deeper(object.values.lazy.map(measure))
        case .array(let array): return deeper(array.lazy.map(measure))
        case .string(let string): return (0, string.utf8.count)
        default: return (0, 0)
        }
    }

    private static func deeper<S: Sequence>(_ children: S) -> (depth: Int, longestString: Int) where S.Element == (depth: Int, longestString: Int) {
        var result = (depth: 1, longestString: 0)
        for child in children {
            result = (max(result.depth, child.depth + 1), max(result.longestString, child.longestString))
        }
        return result
    }
}

/// Error texts. The documented ones are Firebase's exact words (firebase-rest.md); the inferred ones
/// are marked and listed in Fixtures/README.md.
enum ErrorText {
    static let missingJSONSuffix = "append .json to your request URI to use the REST API."
    static let invalidPath = "Invalid path: Invalid token in path"
    static let invalidJSON = "Invalid data; couldn't parse JSON object, array, or value."
    static let permissionDenied = "Permission denied"
    static let internalError = "An internal error occurred"

    /// The real text quotes where the offending key begins (line:column of its opening quote, 1-based).
    static func invalidKey(line: Int, column: Int) -> String {
        "Invalid data; couldn't parse key beginning at \(line):\(column). Key value can't be empty or contain $ # [ ] / or ."
    }

    /// Inferred wording: Firebase refuses such data; the text is not documented.
    static let invalidPriority = "Invalid data; a .priority must be a number, a string or null, and a .value may only have a .priority beside it."
    /// Inferred wording: Firebase documents the limit (10 MB), not this message.
    static let stringTooLong = "Invalid data; a string is longer than 10 MB."
    /// Inferred wording: Firebase documents the limit, not this message.
    static let tooDeep = "Invalid data; data is nested too deeply (more than 32 levels)."
    /// Inferred wording: Firebase answers 400 for an unknown server value; the text is not documented.
    static let unknownServerValue = "Invalid data; unknown server value."
    /// Inferred wording: an increment past a Double's range would store infinity, which JSON cannot write (it was
    /// stored and read back as `null`); Firebase's answer is not documented.
    static let incrementOverflow = "Invalid data; the increment's result is beyond the range of a number."
    /// Inferred wording: Firebase documents the values (REF "Query Parameters"), not this message.
    static let invalidTimeout = "Invalid timeout: a whole number followed by ms, s or min, at most 15min (e.g. timeout=3s)."
    /// Inferred wording: Firebase documents the values (REF "Query Parameters"), not this message.
    static let invalidWriteSizeLimit = "Invalid writeSizeLimit: tiny, small, medium, large or unlimited."
    /// Inferred: Firebase's answer to other methods is not documented; 405 as firetest answers.
    static func methodNotAllowed(_ method: String) -> String { "Method not allowed: \(method)" }
}
