import Foundation

/// `POST securetoken.googleapis.com/v1/token`: a refresh token in, a fresh ID token out (Firebase Auth REST API
/// reference, "Exchange a refresh token for an ID token"; operations.ts `grantToken`). The body is a form
/// (`grant_type=refresh_token&refresh_token=…`, as documented) or the same fields as JSON. The answer uses
/// snake_case, unlike every other Auth endpoint.
extension FirebaseAuthService {
    mutating func grantToken(_ body: AuthRequestBody) throws -> OrderedJSON {
        guard let grantType = try body.string("grantType"), !grantType.isEmpty else { throw AuthError.badRequest("MISSING_GRANT_TYPE") }
        guard grantType == "refresh_token" else { throw AuthError.badRequest("INVALID_GRANT_TYPE") }
        guard let refreshToken = try body.string("refreshToken"), !refreshToken.isEmpty else {
            throw AuthError.badRequest("MISSING_REFRESH_TOKEN")
        }
        let account = try self.account(forRefreshToken: refreshToken)
        let tokens = issueTokens(for: account.localId)
        return .fields([
            ("id_token", .string(tokens.idToken)), ("access_token", .string(tokens.idToken)),
            ("expires_in", .string(tokens.expiresIn)), ("refresh_token", .string(tokens.refreshToken)),
            ("token_type", .string("Bearer")), ("user_id", .string(account.localId)),
            ("project_id", .string(Self.projectNumber)),
        ])
    }
}
