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
        // BEGIN SOLUTION
        return try await signIn(at: "accounts:signUp", email: email, password: password)
        // END SOLUTION
        // STUB: throw NotImplemented("signUp(email:password:)", section: "9.2")
    }

    /// EXERCISE 9.3 — Signs in to an existing account.
    ///
    /// - The request: as `signUp`, to `accounts:signInWithPassword`.
    /// - Success: as `signUp`: the credentials kept and returned.
    /// - Failure: `INVALID_PASSWORD` → `.wrongPassword`, `EMAIL_NOT_FOUND` → `.unknownEmail` (two different things
    ///   to tell the user), any other message → `.auth(message)`. The credentials are left as they were.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Credentials {
        // BEGIN SOLUTION
        return try await signIn(at: "accounts:signInWithPassword", email: email, password: password)
        // END SOLUTION
        // STUB: throw NotImplemented("signIn(email:password:)", section: "9.3")
    }

    /// EXERCISE 9.5 — Signs out: forgets the credentials, so the next database request throws `.notSignedIn` and
    /// sends nothing. (Firebase has no sign-out request: the tokens are the sign-in, and forgetting them ends it.)
    public func signOut() {
        // BEGIN SOLUTION
        locked { signedIn = nil }
        // END SOLUTION
        // STUB: _ = NotImplemented("signOut()", section: "9.5")
    }

    // BEGIN SOLUTION
    /// What sign-up and sign-in share: the POST, the answer's three fields, and the errors by their message.
    private func signIn(at operation: String, email: String, password: String) async throws -> Credentials {
        var components = URLComponents(url: identityToolkitURL.appendingPathComponent(operation), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        struct Body: Encodable { let email: String, password: String, returnSecureToken = true }
        request.httpBody = try JSONEncoder().encode(Body(email: email, password: password))
        let data = try await answer(to: request)
        struct Answer: Decodable { let localId: String, idToken: String, refreshToken: String }
        guard let signed = try? JSONDecoder().decode(Answer.self, from: data) else {
            throw SignInError.decoding("no localId, idToken and refreshToken in the answer")
        }
        let credentials = Credentials(userID: signed.localId, idToken: signed.idToken, refreshToken: signed.refreshToken)
        locked { signedIn = credentials }
        return credentials
    }

    /// Sends an Auth request and gives the body of a 2xx answer; any other answer as its `SignInError`.
    func answer(to request: URLRequest) async throws -> Data {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw SignInError.transport(error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200...299).contains(status) else { throw Self.authError(status: status, body: data) }
        return data
    }

    /// The Auth API's error, `{"error": {"code": 400, "message": "EMAIL_EXISTS", …}}`, as its case. A message may
    /// carry a detail after " : " (`WEAK_PASSWORD : Password should be at least 6 characters`).
    static func authError(status: Int, body: Data) -> SignInError {
        struct Body: Decodable { struct Inner: Decodable { let message: String }; let error: Inner }
        guard let message = (try? JSONDecoder().decode(Body.self, from: body))?.error.message else {
            return .status(status, String(decoding: body, as: UTF8.self))
        }
        let code = message.components(separatedBy: " : ")[0]
        switch code {
        case "EMAIL_EXISTS": return .emailAlreadyInUse
        case "WEAK_PASSWORD": return .weakPassword
        case "INVALID_PASSWORD": return .wrongPassword
        case "EMAIL_NOT_FOUND": return .unknownEmail
        case "INVALID_REFRESH_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND", "USER_DISABLED": return .signInExpired
        default: return .auth(message)
        }
    }
    // END SOLUTION
}
