import Foundation

/// Who a request is, from `auth=` or `access_token=` in its query (https://firebase.google.com/docs/database/rest/auth)
/// or an `Authorization: Bearer` header: an ID token of the Auth emulator (an unsigned JWT, read without checking a
/// signature, as Firebase's emulators read them), or `owner`, the Firebase emulators' admin credential, which
/// bypasses the rules. No credential: `auth` is null in the rules.
enum RequestAuth: Equatable {
    case signedOut
    /// `auth` as rules see it, and when the token stops being valid.
    case user(RuleValue, expires: Date?)
    case admin
    /// 401 with this text.
    case refused(String)

    /// Firebase's texts (inferred from what its servers and SDKs report; not in the REST reference).
    static let expiredText = "Auth token is expired"
    static let unparsableText = "Could not parse auth token."

    static func of(_ request: ServiceRequest, now: Date) -> RequestAuth {
        var credential = request.query["auth"] ?? request.query["access_token"]
        if credential == nil, let header = request.header("Authorization") {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { credential = String(parts[1]) }
        }
        guard let token = credential?.trimmingCharacters(in: .whitespaces), !token.isEmpty else { return .signedOut }
        if token.lowercased() == "owner" { return .admin }
        guard let claims = UnsignedJWT.decode(token)?.claims,
            let uid = claims["user_id"]?.stringValue ?? claims["sub"]?.stringValue, !uid.isEmpty
        else { return .refused(unparsableText) }
        let expires = claims["exp"]?.numberValue.map { Date(timeIntervalSince1970: $0) }
        if let expires = expires, expires <= now { return .refused(expiredText) }
        let provider = claims["firebase"]?["sign_in_provider"].stringValue ?? "custom"
        let auth = RuleValue.map(["uid": .string(uid), "provider": .string(provider), "token": RuleValue(.object(claims))])
        return .user(auth, expires: expires)
    }
}
