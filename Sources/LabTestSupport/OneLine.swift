import Foundation

/// Folds text onto one line, so a failure message stays one line in XCTest's output (and in results files).
public func oneLine(_ value: Any) -> String {
    "\(value)".split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
}
