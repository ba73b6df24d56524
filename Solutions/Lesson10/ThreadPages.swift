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
        // BEGIN SOLUTION
        return try await page([URLQueryItem(name: "orderBy", value: "\"timestamp\""),
                               URLQueryItem(name: "limitToLast", value: String(count))])
        // END SOLUTION
        // STUB: throw NotImplemented("ThreadPages.newestPage(count:)", section: "10.3")
    }

    /// EXERCISE 10.4 — "load older": the `count` messages just before `loaded` (the messages shown so far, oldest
    /// first), oldest first. None of `loaded` again, none skipped — also when several messages share the timestamp of
    /// the oldest one shown. Fewer than `count` only when the thread has no more; `[]` at its start; the newest page
    /// when nothing is shown yet (`loaded` is empty).
    public func olderPage(than loaded: [Message], count: Int = 20) async throws -> [Message] {
        // BEGIN SOLUTION
        guard let oldest = loaded.first else { return try await newestPage(count: count) }
        // endAt is inclusive: ask for as many more as there are shown messages at the oldest timestamp, then drop them.
        let shownAtOldest = loaded.filter { $0.timestamp == oldest.timestamp }
        let page = try await page([URLQueryItem(name: "orderBy", value: "\"timestamp\""),
                                   URLQueryItem(name: "endAt", value: String(oldest.timestamp)),
                                   URLQueryItem(name: "limitToLast", value: String(count + shownAtOldest.count))])
        let shownKeys = Set(shownAtOldest.map(\.key))
        return Array(page.filter { !shownKeys.contains($0.key) }.suffix(count))
        // END SOLUTION
        // STUB: throw NotImplemented("ThreadPages.olderPage(than:count:)", section: "10.4")
    }

    // BEGIN SOLUTION
    /// GETs the messages with `query` and gives them in order.
    private func page(_ query: [URLQueryItem]) async throws -> [Message] {
        var components = URLComponents(url: messagesURL, resolvingAgainstBaseURL: false)!
        components.queryItems = query
        let (data, response) = try await firebaseAnswer(to: URLRequest(url: components.url!), through: session)
        guard (200...299).contains(response.statusCode) else { throw failure(status: response.statusCode, body: data) }
        return Message.inOrder(try decoded([String: Message.Body]?.self, from: data) ?? [:])
    }
    // END SOLUTION
}
