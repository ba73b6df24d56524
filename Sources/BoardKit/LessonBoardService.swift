import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The board's server, spoken to through the learner's own code: the Lesson 4 fetch, the Lesson 1 PUT and POST.
/// Any base URL and session: the embedded emulator's, `lab serve`'s, or a real Firebase with `URLSession.shared`.
public final class LessonBoardService: BoardService {
    /// How long the board waits for a learner's completion before it says there was no answer.
    public let timeout: TimeInterval
    private let fetcher: Lesson4Fetch
    private let writer: Lesson1Writes

    public init(baseURL: URL, session: URLSession, timeout: TimeInterval = 10) {
        self.timeout = timeout
        fetcher = Lesson4Fetch(baseURL: baseURL, session: session)
        writer = Lesson1Writes(baseURL: baseURL, session: session)
    }

    public func fetchThreads(completion: @escaping (Result<[BoardThread], BoardFailure>) -> Void) {
        fetcher.fetch(timeout: timeout, completion: completion)
    }

    public func createThread(title: String, completion: @escaping (Result<BoardThread?, BoardFailure>) -> Void) {
        writer.createThread(title: title, timeout: timeout, completion: completion)
    }

    public func post(text: String, sender: String, to thread: BoardThread,
                     completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void) {
        writer.post(text: text, sender: sender, to: thread, timeout: timeout, completion: completion)
    }
}
