import Foundation

/// The structural rules of Classroom 50's `classroom50/result/v1` (foundation50/classroom50,
/// schemas/result-v1.schema.json, quoted in Fixtures/graders/README.md), plus the cross-field rule its validators
/// enforce in code (score ≤ max-score). Returns what breaks them; empty when the document is valid.
enum Classroom50Schema {
    static let required = ["schema", "classroom", "assignment", "assignment_type", "owner", "submission", "commit", "release",
                           "review", "datetime", "score", "max-score", "tests"]
    static let allowed = Set(required + ["graded_at", "submitted_by"])
    static let instant = #"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$"#

    static func violations(of document: [String: Any]) -> [String] {
        var found: [String] = []
        for key in required where document[key] == nil { found.append("missing \(key)") }
        for key in document.keys where !allowed.contains(key) { found.append("additional property \(key)") }
        if document["schema"] as? String != "classroom50/result/v1" { found.append("schema is not classroom50/result/v1") }
        for key in ["classroom", "assignment", "owner", "commit", "release", "review"] where (document[key] as? String ?? "").isEmpty {
            found.append("\(key) is not a non-empty string")
        }
        if !["individual", "group"].contains(document["assignment_type"] as? String ?? "") { found.append("assignment_type is not individual or group") }
        if !(document["submission"] as? String ?? "").hasPrefix("submit/") { found.append("submission does not match ^submit/") }
        for key in ["datetime", "graded_at"] {
            guard let value = document[key] else { continue }
            if (value as? String)?.range(of: instant, options: .regularExpression) == nil { found.append("\(key) is not YYYY-MM-DDTHH:MM:SSZ") }
        }
        let score = wholeNumber(document["score"]), maxScore = wholeNumber(document["max-score"])
        if score == nil { found.append("score is not an integer >= 0") }
        if maxScore == nil { found.append("max-score is not an integer >= 0") }
        if let score = score, let maxScore = maxScore, score > maxScore { found.append("score > max-score") }
        guard let tests = document["tests"] as? [Any] else { return found + ["tests is not an array"] }
        for (index, item) in tests.enumerated() {
            let at = "tests[\(index)]"
            guard let test = item as? [String: Any] else { found.append("\(at) is not an object"); continue }
            if (test["test-name"] as? String ?? "").isEmpty { found.append("\(at).test-name is not a non-empty string") }
            if !isBoolean(test["passed"]) { found.append("\(at).passed is not a boolean") }
            let testScore = wholeNumber(test["score"]), testMax = wholeNumber(test["max-score"])
            if testScore == nil { found.append("\(at).score is not an integer >= 0") }
            if testMax == nil { found.append("\(at).max-score is not an integer >= 0") }
            if let s = testScore, let m = testMax, s > m { found.append("\(at).score > max-score") }
        }
        return found
    }

    /// An integer ≥ 0 as JSON writes it (not a boolean, not 1.5).
    private static func wholeNumber(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue >= 0,
              number.doubleValue == number.doubleValue.rounded() else { return nil }
        return number.intValue
    }

    /// JSON's true and false: NSNumbers of type "c" (char) from JSONSerialization, on Linux and Darwin alike.
    private static func isBoolean(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}
