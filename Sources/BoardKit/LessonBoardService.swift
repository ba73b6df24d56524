import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The board's server, spoken to through the learner's own code: the Lesson 4 fetch, the Lesson 1 PUT and POST, and,
/// where there is an Auth server, the Lesson 9 sign-in, after which posts go through Lesson 9 as the signed-in user.
/// Any base URL and session: the embedded emulator's, `lab serve`'s, or a real Firebase with `URLSession.shared`.
public final class LessonBoardService: BoardService, SignInService {
    /// How long the board waits for a learner's completion before it says there was no answer.
    public let timeout: TimeInterval
    private let fetcher: Lesson4Fetch
    private let writer: Lesson1Writes
    private let account: Lesson9Session?

    /// - auth: where to sign in (nil: nowhere, and every post is a guest's, through Lesson 1).
    public init(baseURL: URL, session: URLSession, timeout: TimeInterval = 10, auth: SignInEndpoints? = nil) {
        self.timeout = timeout
        fetcher = Lesson4Fetch(baseURL: baseURL, session: session)
        writer = Lesson1Writes(baseURL: baseURL, session: session)
        account = auth.map { Lesson9Session(baseURL: baseURL, auth: $0, session: session) }
    }

    /// Who signed in, once the learner's `signIn` succeeded.
    public var user: BoardUser? { account?.user }

    public func fetchThreads(completion: @escaping (Result<[BoardThread], BoardFailure>) -> Void) {
        fetcher.fetch(timeout: timeout, completion: completion)
    }

    public func createThread(title: String, completion: @escaping (Result<BoardThread?, BoardFailure>) -> Void) {
        writer.createThread(title: title, timeout: timeout, completion: completion)
    }

    public func post(text: String, sender: String, to thread: BoardThread,
                     completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void) {
        if let account, account.user != nil {
            account.post(text: text, sender: sender, to: thread, timeout: timeout, completion: completion)
        } else {
            writer.post(text: text, sender: sender, to: thread, timeout: timeout, completion: completion)
        }
    }

    public func signIn(email: String, password: String, completion: @escaping (Result<BoardUser, BoardFailure>) -> Void) {
        guard let account else { return completion(.failure(BoardFailure(.signIn, .other("this server has no sign-in")))) }
        account.signIn(email: email, password: password, timeout: timeout, completion: completion)
    }
}
