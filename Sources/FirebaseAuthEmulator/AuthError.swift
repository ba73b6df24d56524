import Foundation

/// An error as the Auth emulator (firebase-tools src/emulator/auth/errors.ts) answers it, in Google's API error
/// shape: `{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","reason":"invalid",
/// "domain":"global"}]}}`, plus `"status"` for the kinds that have one ("INVALID_ARGUMENT", "PERMISSION_DENIED", …).
/// The message is the code a client switches on: `EMAIL_EXISTS`, `WEAK_PASSWORD : Password should be at least 6
/// characters`, … (Firebase Auth REST API reference, "Common error codes" of each endpoint).
struct AuthError: Error, Equatable {
    let code: Int
    let status: String?
    let message: String
    let reason: String

    /// 400 with no status: what the emulator's `assert(…, "CODE")` throws for every rule a request breaks.
    static func badRequest(_ message: String) -> AuthError {
        AuthError(code: 400, status: nil, message: message, reason: "invalid")
    }

    /// 400 INVALID_ARGUMENT: a body that is not JSON, or a field of the wrong type.
    static func invalidJSON(_ detail: String, reason: String = "invalid") -> AuthError {
        AuthError(code: 400, status: "INVALID_ARGUMENT", message: "Invalid JSON payload received. " + detail, reason: reason)
    }

    /// 403: no API key (`?key=` or the `x-goog-api-key` header).
    static let missingAPIKey = AuthError(code: 403, status: "PERMISSION_DENIED",
                                         message: "The request is missing a valid API key.", reason: "forbidden")

    /// 404 for a path or method the emulator does not serve.
    static let notFound = AuthError(code: 404, status: "NOT_FOUND", message: "Not Found", reason: "notFound")

    var body: OrderedJSON {
        let item: OrderedJSON = reason == "notFound"
            ? .fields([("message", .string(message)), ("reason", .string(reason))])
            : .fields([("message", .string(message)), ("reason", .string(reason)), ("domain", .string("global"))])
        return .fields([("error", .fields([
            ("code", .value(.number(Double(code)))), ("message", .string(message)),
            ("errors", .array([item])), ("status", .string(status)),
        ]))])
    }
}
