import Foundation
import LabMetadata

/// XCTest writes its assertion's name before the test's own message — "XCTAssertTrue failed - …", "failed - …" (from
/// XCTFail), "XCTAssertEqual failed: ("a") is not equal to ("b") - …". The learner reads the test's message first,
/// whichever assertion made it, and the compared values, when there are some, after it, in brackets.
enum FailureText {
    static func plain(_ description: String) -> String {
        let named = description.hasPrefix("XCT") ? description.range(of: " failed")?.upperBound : nil
        guard let afterFailed = description.hasPrefix("failed") ? description.index(description.startIndex, offsetBy: 6) : named
        else { return description }
        let rest = description[afterFailed...]
        if rest.hasPrefix(" - ") { return String(rest.dropFirst(3)) }
        guard rest.hasPrefix(": ") else { return description }
        // `: <values> - <message>`: the values end at the first " - " after a quote or a parenthesis.
        var search = rest.startIndex
        while let dash = rest.range(of: " - ", range: search..<rest.endIndex) {
            let before = rest[rest.index(before: dash.lowerBound)]
            if before == ")" || before == "\"" {
                let values = rest[rest.index(rest.startIndex, offsetBy: 2)..<dash.lowerBound]
                let message = rest[dash.upperBound...]
                // Both values, whole up to DiagnosisLine's `in full:` limit: cut at 300, a list of nine push IDs lost
                // the expected one, which is the half a learner needs.
                let limit = DiagnosisLine.keptData
                let shown = values.count > limit ? values.prefix(limit) + "…" : values
                return message.isEmpty ? String(shown) : "\(message) [\(shown)]"
            }
            search = dash.upperBound
        }
        return String(rest.dropFirst(2))
    }
}
