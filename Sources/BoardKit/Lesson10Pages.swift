// A long thread a page at a time, through the learner's Lesson 10 `ThreadPages`.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Lesson10

/// Pages of one thread at a time, as a chat screen loads them: its newest page, then "load older" before what was
/// loaded — `shown = try await pages.olderPage(than: shown) + shown`, the way ThreadPages' documentation shows.
public final class Lesson10Pages: ThreadPaging {
    public let pageSize = 20
    private let baseURL: URL
    private let session: URLSession
    private let timeout: TimeInterval
    private let lock = NSLock()
    /// What was loaded of the thread being paged, oldest first: what `olderPage` is given.
    private var shown: (threadID: String, messages: [Message])?

    public init(baseURL: URL, session: URLSession, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.session = session
        self.timeout = timeout
    }

    public func newestPage(of threadID: String, completion: @escaping (Result<[BoardMessage], BoardFailure>) -> Void) {
        let pages = ThreadPages(baseURL: baseURL, threadID: threadID, session: session)
        let size = pageSize
        load(.newestPage, threadID: threadID, completion: completion) { _ in try await pages.newestPage(count: size) }
    }

    public func olderPage(of threadID: String, completion: @escaping (Result<[BoardMessage], BoardFailure>) -> Void) {
        let pages = ThreadPages(baseURL: baseURL, threadID: threadID, session: session)
        let size = pageSize
        load(.olderPage, threadID: threadID, completion: completion) { loaded in try await pages.olderPage(than: loaded, count: size) }
    }

    /// Runs one page's call with what was loaded of `threadID` so far, and puts the page in front of it.
    private func load(_ feature: BoardFeature, threadID: String,
                      completion: @escaping (Result<[BoardMessage], BoardFailure>) -> Void,
                      page: @escaping ([Message]) async throws -> [Message]) {
        let loaded = locked { shown?.threadID == threadID && feature == .olderPage ? shown!.messages : [] }
        LearnerCall.run(feature, timeout: timeout, async: { try await page(loaded) }, completion: { [weak self] result in
            if case .success(let messages) = result { self?.locked { self?.shown = (threadID, messages + loaded) } }
            completion(result.map { $0.map(Self.boardMessage) })
        })
    }

    /// The board's messages keep Lesson 1's unit, seconds since 2001 (LongThread); Lesson 10 orders by the number.
    private static func boardMessage(_ message: Message) -> BoardMessage {
        BoardMessage(text: message.text, sender: message.sender, timestamp: Date(timeIntervalSinceReferenceDate: Double(message.timestamp)))
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Lesson 10's errors in the board's words.
extension ThreadAPIError: LessonTypedError {
    var boardProblem: BoardFailure.Problem {
        switch self {
        case .transport(let error): return .transport(error.code)
        case .indexNotDefined(let text), .badQuery(let text): return .httpStatus(400, message: text)
        case .status(let status): return .httpStatus(status, message: "")
        case .decoding(let error): return .undecodable(LearnerCall.describe(error))
        case .tooManyConflicts(let attempts): return .other("ThreadAPIError.tooManyConflicts after \(attempts) writes")
        case .unexpected(let error): return .other("ThreadAPIError.unexpected(\(error))")
        }
    }
}
