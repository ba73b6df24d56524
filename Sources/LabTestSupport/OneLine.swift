import Foundation

/// Folds text onto one line, so a failure message stays one line in XCTest's output (and in results files).
public func oneLine(_ value: Any) -> String {
    "\(value)".split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
}

/// A DecodingError in a few words, for a failure message: its case and the key, type or place it names —
/// `DecodingError.keyNotFound("localId")`, `DecodingError.valueNotFound(Dictionary<String, Any>, at the top)`.
/// Its own description runs over three lines ("Debug description: …") and, folded into a sentence, read as part of it.
public func briefly(_ error: DecodingError) -> String {
    func place(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "at the top"
            : "at \"" + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "\""
    }
    switch error {
    case .keyNotFound(let key, let context):
        return "DecodingError.keyNotFound(\"\(key.stringValue)\"\(context.codingPath.isEmpty ? "" : ", " + place(context)))"
    case .typeMismatch(let type, let context): return "DecodingError.typeMismatch(\(type), \(place(context)))"
    case .valueNotFound(let type, let context): return "DecodingError.valueNotFound(\(type), \(place(context)))"
    case .dataCorrupted(let context): return "DecodingError.dataCorrupted(\(oneLine(context.debugDescription)))"
    @unknown default: return "DecodingError: \(oneLine(error))"
    }
}
