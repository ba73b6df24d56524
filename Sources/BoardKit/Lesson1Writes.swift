// New threads and messages, through the learner's Lesson 1 `createMessageThread` (PUT) and `createMessage` (POST).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Lesson1

final class Lesson1Writes {
    private let controller: MessageThreadController

    init(baseURL: URL, session: URLSession) {
        controller = MessageThreadController(baseURL: baseURL, session: session)
    }

    func createThread(title: String, timeout: TimeInterval,
                      completion: @escaping (Result<BoardThread?, BoardFailure>) -> Void) {
        let controller = self.controller
        LearnerCall.run(.newThread, timeout: timeout, body: { finish in
            let known = controller.messageThreads.count
            controller.createMessageThread(title: title) { error in
                // The new thread is the one the controller appended, if it did.
                let created = controller.messageThreads.count > known ? controller.messageThreads.last : nil
                finish(error.map { .failure($0) } ?? .success(created.map(Self.boardThread)))
            }
        }, completion: completion)
    }

    func post(text: String, sender: String, to thread: BoardThread, timeout: TimeInterval,
              completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void) {
        // Lesson 1's own model of the thread: createMessage needs its identifier and appends to its messages.
        let lessonThread = MessageThread(title: thread.title, identifier: thread.identifier, messages: thread.messages.map {
            MessageThread.Message(text: $0.text, sender: $0.sender, timestamp: $0.timestamp)
        })
        let controller = self.controller
        LearnerCall.run(.post, timeout: timeout, body: { finish in
            controller.createMessage(messageThread: lessonThread, text: text, sender: sender) { error in
                let posted = lessonThread.messages.count > thread.messages.count ? lessonThread.messages.last : nil
                finish(error.map { .failure($0) } ?? .success(posted.map(Self.boardMessage)))
            }
        }, completion: completion)
    }

    private static func boardThread(_ thread: MessageThread) -> BoardThread {
        BoardThread(title: thread.title, identifier: thread.identifier, messages: thread.messages.map(boardMessage))
    }

    private static func boardMessage(_ message: MessageThread.Message) -> BoardMessage {
        BoardMessage(text: message.text, sender: message.sender, timestamp: message.timestamp)
    }
}

extension HTTPStatusError: LessonStatusError {}
