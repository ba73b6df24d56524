// Lesson 9 — signing up, in and out with Firebase Auth's REST API. Your exercises are the functions marked EXERCISE
// (LESSONS.md §9.2, §9.3, §9.5).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ForumSession {
    /// EXERCISE 9.2 — Creates an account with this email and password, and signs it in.
    ///
    /// - The request: `POST <identityToolkitURL>/accounts:signUp?key=<apiKey>` through `session`, the body JSON
    ///   `{"email": …, "password": …, "returnSecureToken": true}` with `Content-Type: application/json`. The password
    ///   goes in the body only: never in a URL, never printed.
    /// - Success (200): the answer's `localId`, `idToken` and `refreshToken`, kept as `credentials` and returned.
    /// - Failure: the answer's `error.message` as its `SignInError`: `EMAIL_EXISTS` → `.emailAlreadyInUse`,
    ///   `WEAK_PASSWORD : …` → `.weakPassword`, any other → `.auth(message)`; no answer → `.transport`. The
    ///   credentials are left as they were.
    @discardableResult
    public func signUp(email: String, password: String) async throws -> Credentials {
        throw NotImplemented("signUp(email:password:)", section: "9.2")
    }

    /// EXERCISE 9.3 — Signs in to an existing account.
    ///
    /// - The request: as `signUp`, to `accounts:signInWithPassword`.
    /// - Success: as `signUp`: the credentials kept and returned.
    /// - Failure: `INVALID_PASSWORD` → `.wrongPassword`, `EMAIL_NOT_FOUND` → `.unknownEmail` (two different things
    ///   to tell the user), any other message → `.auth(message)`. The credentials are left as they were.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Credentials {
        throw NotImplemented("signIn(email:password:)", section: "9.3")
    }

    /// EXERCISE 9.5 — Signs out: forgets the credentials, so the next database request throws `.notSignedIn` and
    /// sends nothing. (Firebase has no sign-out request: the tokens are the sign-in, and forgetting them ends it.)
    public func signOut() {
        _ = NotImplemented("signOut()", section: "9.5")
    }

}
