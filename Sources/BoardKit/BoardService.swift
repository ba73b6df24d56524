import Foundation

/// A message as the board shows it. Plain values: the lessons each have their own model types, and the screen
/// should not care which lesson a thread came through.
public struct BoardMessage: Equatable {
    public let text: String
    public let sender: String
    public let timestamp: Date

    public init(text: String, sender: String, timestamp: Date) {
        self.text = text
        self.sender = sender
        self.timestamp = timestamp
    }
}

public struct BoardThread: Equatable {
    public let title: String
    public let identifier: String
    /// Oldest first.
    public var messages: [BoardMessage]

    public init(title: String, identifier: String, messages: [BoardMessage] = []) {
        self.title = title
        self.identifier = identifier
        self.messages = messages
    }
}

/// What the board asks of a server. `LessonBoardService` answers with the learner's own code; tests use fakes.
/// Completions may come on any queue, at most once each.
public protocol BoardService: AnyObject {
    func fetchThreads(completion: @escaping (Result<[BoardThread], BoardFailure>) -> Void)
    /// The created thread, when the learner's controller kept it (nil when it did not: the board refreshes anyway).
    func createThread(title: String, completion: @escaping (Result<BoardThread?, BoardFailure>) -> Void)
    /// The posted message, when the learner's controller appended it to the thread.
    func post(text: String, sender: String, to thread: BoardThread,
              completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void)
}

/// Where live updates plug in: a source that follows one thread's messages (Lesson 8's `ForumListener` on Firebase's
/// event stream) while the board shows that thread.
public protocol LiveUpdates: AnyObject {
    /// Starts following the thread, ending any earlier one. `changed` gets all its messages, oldest first, after every
    /// change; `ended` once, when the stream ends without `stop()`. Both may be called on any queue.
    func start(threadID: String, changed: @escaping ([BoardMessage]) -> Void, ended: @escaping (BoardFailure) -> Void)
    /// Stops following; returns at once.
    func stop()
}

/// Where a long thread's pages plug in (Lesson 10's `ThreadPages`): its newest page first, then older ones.
public protocol ThreadPaging: AnyObject {
    /// How many messages a page holds: a page with fewer is the thread's first.
    var pageSize: Int { get }
    /// The thread's newest messages, oldest first; paging that thread starts again from them.
    func newestPage(of threadID: String, completion: @escaping (Result<[BoardMessage], BoardFailure>) -> Void)
    /// The messages just before those loaded of the thread so far, oldest first: none again, none skipped; [] at its start.
    func olderPage(of threadID: String, completion: @escaping (Result<[BoardMessage], BoardFailure>) -> Void)
}

/// Who is signed in (Lesson 9), as the board shows them and as their posts carry them.
public struct BoardUser: Equatable {
    public let email: String
    /// `auth.uid` in the rules: a post carries it as `uid`.
    public let userID: String

    public init(email: String, userID: String) {
        self.email = email
        self.userID = userID
    }
}

/// Where Firebase Auth's REST API answers: the embedded Auth emulator's URLs (any API key does there).
public struct SignInEndpoints {
    public let identityToolkitURL: URL
    public let secureTokenURL: URL
    public let apiKey: String

    public init(identityToolkitURL: URL, secureTokenURL: URL, apiKey: String) {
        self.identityToolkitURL = identityToolkitURL
        self.secureTokenURL = secureTokenURL
        self.apiKey = apiKey
    }
}

/// A server the board can sign in to; once signed in, its posts go as that user.
public protocol SignInService: AnyObject {
    func signIn(email: String, password: String, completion: @escaping (Result<BoardUser, BoardFailure>) -> Void)
}
