// The thread list, through the learner's Lesson 4 `fetchMessageThreads`.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Lesson4

/// One controller for the board's whole run, as an app keeps one: a fetch that appends instead of replacing shows
/// every thread twice after a refresh, as it would in the learner's app.
final class Lesson4Fetch {
    private let controller: MessageThreadController

    init(baseURL: URL, session: URLSession) {
        controller = MessageThreadController(baseURL: baseURL, session: session)
    }

    func fetch(timeout: TimeInterval, completion: @escaping (Result<[BoardThread], BoardFailure>) -> Void) {
        let controller = self.controller
        LearnerCall.run(.threadList, timeout: timeout, body: { finish in
            controller.fetchMessageThreads { error in
                finish(error.map { .failure($0) } ?? .success(controller.messageThreads.map(Self.boardThread)))
            }
        }, completion: completion)
    }

    static func boardThread(_ thread: MessageThread) -> BoardThread {
        BoardThread(title: thread.title, identifier: thread.identifier, messages: thread.messages.map {
            BoardMessage(text: $0.text, sender: $0.sender, timestamp: $0.timestamp)
        })
    }
}

extension HTTPStatusError: LessonStatusError {}
