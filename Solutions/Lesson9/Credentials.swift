// Given: already written for you. What a successful sign-in leaves the app holding (LESSONS.md §9.1).
import Foundation

/// The signed-in user: who they are, and the two tokens that prove it.
public struct Credentials: Equatable, CustomStringConvertible {
    /// The user's id, `localId` in the Auth API's answers: `auth.uid` in the database's rules.
    public let userID: String
    /// The ID token (a JWT, valid for an hour): sent as `auth=` with every database request.
    public let idToken: String
    /// The refresh token: never sent to the database; traded at the Secure Token API for a new ID token.
    public let refreshToken: String

    public init(userID: String, idToken: String, refreshToken: String) {
        self.userID = userID
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    /// Never the tokens: a description ends up in logs and failure messages.
    public var description: String { "Credentials(userID: \(userID), idToken: …, refreshToken: …)" }
}
