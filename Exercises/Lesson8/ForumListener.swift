// Lesson 8 — listening to a thread live. Your exercise is marked EXERCISE. LESSONS.md §8.4 explains it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// Keeps one thread's messages up to date while the app shows them: Firebase's event stream, read as it arrives.
///
/// URLSession hands a response over in pieces only to a session's *delegate*, so the listener is the delegate of its
/// own `session`, made from the configuration it is given (on Linux a task's own `delegate` is never called).
/// (`@unchecked Sendable`: URLSession calls it on its queue while the app calls `start` and `stop` on another; what
/// they share is kept behind a lock.)
public final class ForumListener: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The course's real database. The tests pass their server's URL instead.
    public static let firebaseURL = URL(string: "https://mor-messages.firebaseio.com/")!

    public let baseURL: URL
    public let threadID: String
    /// Open the stream through this session: its delegate is this listener. The tests' configuration marks every
    /// request it sends, so they can tell it from another session's. (A session keeps its delegate until it is
    /// invalidated: an app done with a listener calls `session.invalidateAndCancel()`.)
    public private(set) var session: URLSession!
    /// Where the updates and the end are reported: one at a time, in the order the events came.
    public let delegateQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    // EXERCISE 8.4 (its state) — What start, stop and the delegate methods share goes here: the task, one parser and
    // one model for the whole stream, the two closures. URLSession calls the delegate on `delegateQueue`, the app
    // calls start and stop on its own: guard what both touch with a lock.

    public init(baseURL: URL = ForumListener.firebaseURL, threadID: String,
                configuration: URLSessionConfiguration = .default) {
        self.baseURL = baseURL
        self.threadID = threadID
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
    }

    /// EXERCISE 8.4 — Opens the stream of the thread's messages and keeps the model up to date (LESSONS.md §8.4).
    ///
    /// - One GET of `<baseURL>/<threadID>/messages.json` (where Lesson 1 POSTs them) with the header
    ///   `Accept: text/event-stream`, as a data task of `session` *without* a completion handler (with one, the
    ///   delegate never sees the pieces).
    /// - Every piece that arrives goes through one `EventStreamParser`; every event into one `ForumModel`.
    /// - After each `put` or `patch`: `onUpdate(model.messages)`. Nothing for `keep-alive`.
    /// - When the stream ends without `stop()` — a `cancel` or `auth_revoked` event (the model throws), a status other
    ///   than 200, the server closing it, a transport error — `onEnd(error)` once, and the task is cancelled. No
    ///   reconnecting: the app decides what to do next.
    /// - Updates reach the app one at a time, in the order of the events; neither closure is called while you hold
    ///   your lock: the app may call `stop()` from inside them.
    /// - Neither closure is called after `stop()`.
    public func start(onUpdate: @escaping ([ForumMessage]) -> Void, onEnd: @escaping (Error) -> Void) {
        onEnd(NotImplemented("ForumListener.start(onUpdate:onEnd:)", section: "8.4"))
    }

    /// EXERCISE 8.4 — Stops listening: cancels the task, so the server sees the stream close, and makes sure neither
    /// closure is called again.
    public func stop() {
        _ = NotImplemented("ForumListener.stop()", section: "8.4")
    }

    // EXERCISE 8.4 (the delegate) — URLSession calls these on `delegateQueue`, one at a time, in order:
    // `urlSession(_:dataTask:didReceive:completionHandler:)` with the response (its status; let it go on with
    // `.allow`), `urlSession(_:dataTask:didReceive:)` with each piece as it arrives, and
    // `urlSession(_:task:didCompleteWithError:)` when the task ends, however it ends (after `cancel()` too).
}
