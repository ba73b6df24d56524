// Given: already written for you. Every way signing in, or a request made as the signed-in user, can fail
// (LESSONS.md §9.1, in the style of Lesson 6's TodoAPIError).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `ForumSession` call failed. The app switches over these cases: each one is something to tell the user.
public enum SignInError: Error, Equatable {
    /// Sign-in: the password does not match the account's (`INVALID_PASSWORD`).
    case wrongPassword
    /// Sign-in: no account has this email (`EMAIL_NOT_FOUND`).
    case unknownEmail
    /// Sign-up: an account with this email exists already (`EMAIL_EXISTS`).
    case emailAlreadyInUse
    /// Sign-up: the password is too short (`WEAK_PASSWORD : Password should be at least 6 characters`).
    case weakPassword
    /// The sign-in no longer works and the user must sign in again: the refresh was refused
    /// (`INVALID_REFRESH_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`, `USER_DISABLED`), or the database refused the
    /// freshly refreshed ID token as expired too.
    case signInExpired
    /// A database request while nobody is signed in (before signing in, or after signing out). Nothing was sent.
    case notSignedIn
    /// The database's security rules refused the request: 401 `{"error" : "Permission denied"}`. The user is signed
    /// in; they may not do this (write below another user's id, post with another author's uid).
    case permissionDenied
    /// Another error of the Auth API, with its message as sent (`INVALID_EMAIL`, `MISSING_PASSWORD`, …).
    case auth(String)
    /// Any other status outside 200...299, with the `error` text of the body when it has one.
    case status(Int, String)
    /// No answer at all: the data task's URLError.
    case transport(URLError)
    /// A 2xx answer whose body is not what the API sends.
    case decoding(String)
}
