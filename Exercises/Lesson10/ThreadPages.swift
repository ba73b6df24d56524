// Lesson 10 — a long thread, one page at a time. Your exercises are the functions marked EXERCISE
// (LESSONS.md §10.3, §10.4).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// Reads one thread's messages a page at a time, newest first, the way a chat screen shows them:
/// ```
/// var shown = try await pages.newestPage()                      // the newest 20, oldest first
/// shown = try await pages.olderPage(than: shown) + shown         // "load older": the 20 before them
/// ```
public final class ThreadPages {
    /// The real database. The tests pass an emulator's URL instead, so they never touch the network.
    public static let firebaseURL = URL(string: "https://mor-messages.firebaseio.com/")!

    public let baseURL: URL
    public let threadID: String
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession

    public init(baseURL: URL = ThreadPages.firebaseURL, threadID: String, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.threadID = threadID
        self.session = session
    }

    /// `<baseURL>/<threadID>/messages.json`: the thread's messages, an object keyed by push ID. Add the query to it.
    public var messagesURL: URL {
        baseURL.appendingPathComponent(threadID).appendingPathComponent("messages").appendingPathExtension("json")
    }

    /// EXERCISE 10.3 — the newest `count` messages of the thread, oldest first (`Message.inOrder`): one GET of
    /// `messagesURL` with the query `orderBy="timestamp"&limitToLast=<count>`. An empty thread is `[]`. Throws only
    /// `ThreadAPIError`s: a 400 whose text starts "Index not defined" is `.indexNotDefined`, another 400 `.badQuery`.
    public func newestPage(count: Int = 20) async throws -> [Message] {
        throw NotImplemented("ThreadPages.newestPage(count:)", section: "10.3")
    }

    /// EXERCISE 10.4 — "load older": the `count` messages just before `loaded` (the messages shown so far, oldest
    /// first), oldest first. None of `loaded` again, none skipped — also when several messages share the timestamp of
    /// the oldest one shown. Fewer than `count` only when the thread has no more; `[]` at its start; the newest page
    /// when nothing is shown yet (`loaded` is empty).
    public func olderPage(than loaded: [Message], count: Int = 20) async throws -> [Message] {
        throw NotImplemented("ThreadPages.olderPage(than:count:)", section: "10.4")
    }

}
