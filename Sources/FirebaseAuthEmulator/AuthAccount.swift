import Foundation

/// One user as the Auth emulator keeps it (firebase-tools src/emulator/auth/state.ts `UserInfo`). Like the
/// emulator, it stores the password in the clear inside a fake hash, so tests and `accounts:lookup` can show it:
/// never put a real password into an emulator.
public struct AuthAccount: Equatable {
    /// The user's id (`localId`, the `user_id` and `sub` of its ID tokens, `auth.uid` in rules): 28 letters and digits.
    public let localId: String
    /// Lower-cased, as the emulator canonicalises it; nil for an anonymous user.
    public internal(set) var email: String?
    public internal(set) var displayName: String?
    /// nil: no password (an anonymous user).
    public internal(set) var password: String?
    var salt: String?
    /// Milliseconds since 1970.
    var createdAt: Int64
    var lastLoginAt: Int64
    var lastRefreshAt: Date
    var passwordUpdatedAt: Int64?
    /// Seconds since 1970: ID tokens issued before it are refused with TOKEN_EXPIRED (set with each new password).
    var validSince: Int64?

    var signInProvider: String { password == nil ? "anonymous" : "password" }

    /// `fakeHash:salt=<salt>:password=<password>`, as the emulator writes it.
    var passwordHash: String? {
        guard let password = password, let salt = salt else { return nil }
        return "fakeHash:salt=\(salt):password=\(password)"
    }

    /// The user as `accounts:lookup` answers it.
    var lookupInfo: OrderedJSON {
        let provider: OrderedJSON? = email.flatMap { email in
            password == nil ? nil : .fields([
                ("providerId", .string("password")), ("email", .string(email)), ("federatedId", .string(email)),
                ("rawId", .string(email)), ("displayName", .string(displayName)),
            ])
        }
        return .fields([
            ("localId", .string(localId)),
            ("lastLoginAt", .string(String(lastLoginAt))),
            ("displayName", .string(displayName)),
            ("emailVerified", email == nil ? nil : .value(.bool(false))),
            ("email", .string(email)),
            ("salt", .string(salt)),
            ("passwordHash", .string(passwordHash)),
            ("passwordUpdatedAt", passwordUpdatedAt.map { .value(.number(Double($0))) }),
            ("validSince", .string(validSince.map(String.init))),
            ("createdAt", .string(String(createdAt))),
            ("providerUserInfo", .array(provider.map { [$0] } ?? [])),
            ("lastRefreshAt", .string(Self.isoText(lastRefreshAt))),
        ])
    }

    /// `2026-11-24T06:40:33.123Z`, as JavaScript's `toISOString()` writes it. A formatter per call: emulators in
    /// parallel tests must not share one (formatters are not thread-safe on every platform).
    static func isoText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
