import Foundation

/// ID and refresh tokens as the Auth emulator makes them (operations.ts `issueTokens`, `generateJwt`,
/// `parseIdToken`; state.ts `createRefreshTokenFor`, `validateRefreshToken`).
extension FirebaseAuthService {
    /// What a sign-in answers: `idToken`, `refreshToken`, `expiresIn` (seconds, as a string).
    struct IssuedTokens {
        let idToken: String
        let refreshToken: String
        let expiresIn: String
    }

    mutating func issueTokens(for localId: String) -> IssuedTokens {
        accounts.update(localId) { $0.lastRefreshAt = clock() }
        let account = accounts[localId]!
        let lifetime = max(1, tokenLifetime)
        return IssuedTokens(idToken: idToken(for: account, lifetime: lifetime), refreshToken: refreshToken(for: account),
                            expiresIn: String(lifetime))
    }

    /// An unsigned JWT with the emulator's claims, in its order: the user's (email, email_verified), provider_id for
    /// an anonymous user, auth_time, user_id, firebase{identities, sign_in_provider}, then iat, exp, aud, iss, sub.
    func idToken(for account: AuthAccount, lifetime: Int) -> String {
        let now = Int64(clock().timeIntervalSince1970.rounded(.down))
        var claims: [(String, JSONValue)] = []
        if let name = account.displayName { claims.append(("name", .string(name))) }
        if let email = account.email {
            claims.append(("email", .string(email)))
            claims.append(("email_verified", false))
        }
        if account.signInProvider == "anonymous" { claims.append(("provider_id", "anonymous")) }
        let identities: JSONValue = account.email.map { ["email": [.string($0)]] } ?? .object([:])
        claims += [
            ("auth_time", .number(Double(account.lastLoginAt / 1000))),
            ("user_id", .string(account.localId)),
            ("firebase", ["identities": identities, "sign_in_provider": .string(account.signInProvider)]),
            ("iat", .number(Double(now))),
            ("exp", .number(Double(now + Int64(lifetime)))),
            ("aud", .string(projectId)),
            ("iss", .string("https://securetoken.google.com/\(projectId)")),
            ("sub", .string(account.localId)),
        ]
        return UnsignedJWT.make(claims: claims)
    }

    /// The emulator's refresh token is its record, as JSON, in base64. This one is base64url (no `+`, `/`, `=`), so
    /// it survives a form body or a URL unescaped, like a real refresh token; both spellings are read back.
    func refreshToken(for account: AuthAccount) -> String {
        let record: JSONValue = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": .string(account.localId),
            "provider": .string(account.signInProvider), "extraClaims": .object([:]), "projectId": .string(projectId),
        ]
        return UnsignedJWT.base64URL(record.jsonData)
    }

    /// The account a refresh token names; INVALID_REFRESH_TOKEN when it is not one of ours or the user is gone.
    func account(forRefreshToken token: String) throws -> AuthAccount {
        guard token.utf8.count <= UnsignedJWT.maximumLength, let data = UnsignedJWT.data(base64URL: token),
            let record = (try? JSONValue(data: data))?.objectValue, record["_AuthEmulatorRefreshToken"] != nil,
            record["projectId"]?.stringValue == projectId,
            let localId = record["localId"]?.stringValue, let account = accounts[localId]
        else { throw AuthError.badRequest("INVALID_REFRESH_TOKEN") }
        return account
    }

    /// The account an ID token names: INVALID_ID_TOKEN when it is not a JWT, USER_NOT_FOUND when its user is gone,
    /// TOKEN_EXPIRED when it was issued before the user's last password change or its `exp` has passed. (The
    /// emulator itself never checks `exp`, "to make interactive debugging easier"; production does, and the kit's
    /// short token lifetimes exist to teach exactly that, so the kit checks it.)
    func account(forIDToken token: String) throws -> AuthAccount {
        guard let claims = UnsignedJWT.decode(token)?.claims else { throw AuthError.badRequest("INVALID_ID_TOKEN") }
        guard let localId = claims["user_id"]?.stringValue, let account = accounts[localId] else {
            throw AuthError.badRequest("USER_NOT_FOUND")
        }
        let issuedAt = claims["iat"]?.numberValue ?? 0
        if let validSince = account.validSince, issuedAt < Double(validSince) { throw AuthError.badRequest("TOKEN_EXPIRED") }
        if let expiry = claims["exp"]?.numberValue, expiry <= clock().timeIntervalSince1970 {
            throw AuthError.badRequest("TOKEN_EXPIRED")
        }
        return account
    }
}
