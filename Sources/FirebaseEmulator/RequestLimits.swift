import Foundation

/// `timeout=` and `writeSizeLimit=` [REF "Query Parameters": https://firebase.google.com/docs/reference/rest/database]:
/// how long a read may take on the server (a whole number with `ms`, `s` or `min`, at most 15 min; past it, 400),
/// and how large a write may be (`tiny` 1 s, `small` 10 s, `medium` 30 s, `large` 60 s, `unlimited`; a write
/// estimated to take longer is refused). Here every read and write finishes at once, so a valid limit is never
/// reached; a value Firebase does not know is refused with 400 (texts inferred, listed in Fixtures/README.md).
enum RequestLimits {
    static let writeSizeLimits: Set<String> = ["tiny", "small", "medium", "large", "unlimited"]
    /// Firebase's longest `timeout`: 15 minutes.
    static let maximumTimeout: TimeInterval = 15 * 60

    /// The 400's text when the request names a limit Firebase would refuse; nil when its limits are valid or absent.
    static func refusal(of request: ServiceRequest) -> String? {
        if let timeout = request.query["timeout"] {
            guard let seconds = seconds(timeout), seconds > 0, seconds <= maximumTimeout else { return ErrorText.invalidTimeout }
        }
        if let limit = request.query["writeSizeLimit"], !writeSizeLimits.contains(limit) {
            return ErrorText.invalidWriteSizeLimit
        }
        return nil
    }

    /// `3ms`, `3s`, `3min` in seconds; nil for anything else.
    static func seconds(_ text: String) -> TimeInterval? {
        for (unit, scale) in [("ms", 0.001), ("min", 60.0), ("s", 1.0)] where text.hasSuffix(unit) {
            let digits = text.dropLast(unit.count)
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ "0"..."9" ~= $0 }), let count = Int(digits) else { return nil }
            return Double(count) * scale
        }
        return nil
    }
}
