// Lesson 10 — a like counter that two people may press at the same moment. Your exercises are in
// LikeCounter+Conditional.swift (§10.6) and LikeCounter+Increment.swift (§10.7).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The likes of a thread's messages: `<baseURL>/likes/<message key>` holds a whole number, or nothing (no likes yet).
/// ```
/// let counter = LikeCounter(baseURL: url)
/// let likes = try await counter.like("-P5QyXlj5Vy9AULKtnNq")   // the count after this like, e.g. 4
/// ```
public final class LikeCounter {
    /// The real database. The tests pass an emulator's URL instead, so they never touch the network.
    public static let firebaseURL = URL(string: "https://mor-messages.firebaseio.com/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    /// How many conditional writes `like` sends before it gives up with `.tooManyConflicts`.
    public let maxAttempts: Int

    public init(baseURL: URL = LikeCounter.firebaseURL, session: URLSession = .shared, maxAttempts: Int = 5) {
        self.baseURL = baseURL
        self.session = session
        self.maxAttempts = maxAttempts
    }

    /// `<baseURL>/likes/<messageKey>.json`: the one number every like changes.
    public func likesURL(of messageKey: String) -> URL {
        baseURL.appendingPathComponent("likes").appendingPathComponent(messageKey).appendingPathExtension("json")
    }
}
