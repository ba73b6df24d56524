// Lesson 9 — MorMessages' sign-in. Your exercises are in ForumSession+SignIn.swift and ForumSession+Database.swift,
// and the state marked EXERCISE below. LESSONS.md §9 explains them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// The app's one door to Firebase as a signed-in user: it signs up, signs in and out with Firebase Auth's REST API,
/// and sends every database request as that user, keeping the ID token fresh.
/// ```
/// let session = ForumSession(apiKey: "…")
/// let me = try await session.signIn(email: "ada@example.com", password: "analytical")
/// _ = try await session.database("PUT", "users/\(me.userID)/name", body: Data(#""Ada""#.utf8))
/// session.signOut()
/// ```
/// (`@unchecked Sendable`: calls come from any task at once; what they share is kept behind a guard you choose.)
public final class ForumSession: @unchecked Sendable {
    /// The real services. The tests pass their emulators' URLs instead (the Auth emulator serves both under one host).
    public static let firebaseURL = URL(string: "https://mor-messages.firebaseio.com/")!
    public static let identityToolkitURL = URL(string: "https://identitytoolkit.googleapis.com/v1/")!
    public static let secureTokenURL = URL(string: "https://securetoken.googleapis.com/v1/token")!

    /// The Realtime Database: `<databaseURL>/<path>.json?auth=<ID token>`.
    public let databaseURL: URL
    /// Identity Toolkit: `<identityToolkitURL>/accounts:signUp?key=<apiKey>` and `accounts:signInWithPassword`.
    public let identityToolkitURL: URL
    /// Secure Token: `<secureTokenURL>?key=<apiKey>`, where a refresh token is traded for a new ID token.
    public let secureTokenURL: URL
    /// The project's Web API key: `?key=` on every Auth request (not a secret; it names the project).
    public let apiKey: String
    /// Send every request, to Auth and to the database, through this session.
    public let session: URLSession
    /// Event streams (§9.6) each get a session of their own, made from this configuration by the given `events(of:)`.
    public let streamConfiguration: URLSessionConfiguration

    // EXERCISE 9.2 (its state) — What the calls share goes here: the credentials of the signed-in user (nil when
    // nobody is), and what §9.4 needs to refresh only once when several requests find the token expired together.
    // Calls come from many tasks at once: guard it (a lock, a serial queue…).
    // BEGIN SOLUTION
    private let lock = NSLock()
    /// The signed-in user; nil when nobody is. Read and written only inside `locked`.
    var signedIn: Credentials?
    /// The refresh under way, shared by every request that finds the token expired meanwhile (§9.4).
    var refreshing: Task<Credentials, Error>?

    /// Runs `body` holding the lock: every read and write of the state above goes through it.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
    // END SOLUTION

    public init(databaseURL: URL = ForumSession.firebaseURL, identityToolkitURL: URL = ForumSession.identityToolkitURL,
                secureTokenURL: URL = ForumSession.secureTokenURL, apiKey: String, session: URLSession = .shared,
                streamConfiguration: URLSessionConfiguration = .default) {
        self.databaseURL = databaseURL
        self.identityToolkitURL = identityToolkitURL
        self.secureTokenURL = secureTokenURL
        self.apiKey = apiKey
        self.session = session
        self.streamConfiguration = streamConfiguration
    }

    /// EXERCISE 9.2 — The signed-in user's credentials, as kept now: nil before signing in, after signing out, and
    /// after a refused refresh. After a refresh, the new tokens.
    public var credentials: Credentials? {
        // BEGIN SOLUTION
        return locked { signedIn }
        // END SOLUTION
        // STUB: return nil
    }
}
