import Foundation

/// `accounts:signUp`, `accounts:signInWithPassword`, `accounts:lookup` and `accounts:delete`, checked in the order
/// the emulator checks them (firebase-tools src/emulator/auth/operations.ts), so the first broken rule is the one
/// reported. Firebase Auth REST API reference: https://firebase.google.com/docs/reference/rest/auth
extension FirebaseAuthService {
    static let minimumPasswordLength = 6

    /// Email and password: a new password user. No email, password or ID token: a new anonymous user. With the ID
    /// token of an anonymous user, email and password: that user, upgraded to a password user.
    mutating func signUp(_ body: AuthRequestBody) throws -> OrderedJSON {
        guard try body.string("localId") == nil else { throw AuthError.badRequest("UNEXPECTED_PARAMETER : User ID") }
        let email = try body.string("email"), password = try body.string("password"), idToken = try body.string("idToken")
        let anonymous = (idToken ?? "").isEmpty && (password ?? "").isEmpty && (email ?? "").isEmpty
        if !anonymous {
            guard let email = email, !email.isEmpty else { throw AuthError.badRequest("MISSING_EMAIL") }
            guard let password = password, !password.isEmpty else { throw AuthError.badRequest("MISSING_PASSWORD") }
            guard Self.isValidEmail(email) else { throw AuthError.badRequest("INVALID_EMAIL") }
            guard accounts.account(email: email.lowercased()) == nil else { throw AuthError.badRequest("EMAIL_EXISTS") }
            guard password.utf16.count >= Self.minimumPasswordLength else {
                throw AuthError.badRequest("WEAK_PASSWORD : Password should be at least \(Self.minimumPasswordLength) characters")
            }
        }
        let now = clock()
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        var account: AuthAccount
        if let idToken = idToken, !idToken.isEmpty {
            account = try self.account(forIDToken: idToken)
        } else {
            account = AuthAccount(localId: newLocalId(), email: nil, displayName: nil, password: nil, salt: nil,
                                  createdAt: milliseconds, lastLoginAt: milliseconds, lastRefreshAt: now)
        }
        account.lastLoginAt = milliseconds
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        if !anonymous, let email = email, let password = password {
            account.email = email.lowercased()
            account.password = password
            account.salt = "fakeSalt" + Self.randomId(20)
            account.passwordUpdatedAt = milliseconds
            account.validSince = Int64(now.timeIntervalSince1970.rounded(.down))
        }
        accounts.remove(account.localId)
        accounts.insert(account)
        let tokens = issueTokens(for: account.localId)
        return .fields([
            ("kind", .string("identitytoolkit#SignupNewUserResponse")), ("localId", .string(account.localId)),
            ("displayName", .string(account.displayName)), ("email", .string(account.email)),
            ("idToken", .string(tokens.idToken)), ("refreshToken", .string(tokens.refreshToken)),
            ("expiresIn", .string(tokens.expiresIn)),
        ])
    }

    mutating func signInWithPassword(_ body: AuthRequestBody) throws -> OrderedJSON {
        guard let email = try body.string("email") else { throw AuthError.badRequest("MISSING_EMAIL") }
        guard Self.isValidEmail(email) else { throw AuthError.badRequest("INVALID_EMAIL") }
        guard let password = try body.string("password"), !password.isEmpty else { throw AuthError.badRequest("MISSING_PASSWORD") }
        let account = accounts.account(email: email.lowercased())
        // With email enumeration protection one answer covers both mistakes, so a caller cannot probe for accounts.
        guard let found = account else { throw AuthError.badRequest(improvedEmailPrivacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND") }
        guard found.password == password else { throw AuthError.badRequest(improvedEmailPrivacy ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD") }
        let localId = found.localId
        accounts.update(localId) { $0.lastLoginAt = Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }
        let tokens = issueTokens(for: localId)
        return .fields([
            ("kind", .string("identitytoolkit#VerifyPasswordResponse")), ("registered", .value(true)),
            ("localId", .string(localId)), ("email", .string(email.lowercased())),
            ("idToken", .string(tokens.idToken)), ("refreshToken", .string(tokens.refreshToken)),
            ("expiresIn", .string(tokens.expiresIn)),
        ])
    }

    func lookup(_ body: AuthRequestBody) throws -> OrderedJSON {
        guard let idToken = try body.string("idToken"), !idToken.isEmpty else { throw AuthError.badRequest("MISSING_ID_TOKEN") }
        let account = try self.account(forIDToken: idToken)
        return .fields([("kind", .string("identitytoolkit#GetAccountInfoResponse")), ("users", .array([account.lookupInfo]))])
    }

    mutating func deleteAccount(_ body: AuthRequestBody) throws -> OrderedJSON {
        guard let idToken = try body.string("idToken"), !idToken.isEmpty else { throw AuthError.badRequest("MISSING_ID_TOKEN") }
        accounts.remove(try account(forIDToken: idToken).localId)
        return .fields([("kind", .string("identitytoolkit#DeleteAccountResponse"))])
    }

    /// The emulator's own check (copied by it from the JS SDK): something, `@`, something, and one `@` only.
    static func isValidEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// 28 letters and digits, like the emulator's user ids.
    func newLocalId() -> String {
        while true {
            let id = Self.randomId(28)
            if accounts[id] == nil { return id }
        }
    }

    static func randomId(_ length: Int) -> String {
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in characters.randomElement()! })
    }
}
