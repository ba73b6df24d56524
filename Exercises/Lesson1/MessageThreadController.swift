// Lesson 1 — PUT vs POST. Your exercises are the two functions marked EXERCISE. LESSONS.md §1 explains them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// Creates threads and messages on the message board's Firebase Realtime Database, through its REST API.
public final class MessageThreadController {
    /// The course's real database. The tests pass an emulator's URL instead, so they never touch the network.
    public static let firebaseURL = URL(string: "https://lambda-message-board.firebaseio.com/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    /// The threads this app created, oldest first. Changed only after the server accepted the write.
    public private(set) var messageThreads: [MessageThread] = []

    public init(baseURL: URL = MessageThreadController.firebaseURL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// EXERCISE 1.3 — Creates a thread titled `title` with PUT, at the key the client chooses: its identifier.
    ///
    /// 1. Make the thread: `MessageThread(title: title)`.
    /// 2. URL: `<baseURL>/<thread.identifier>.json` (appendingPathComponent, then appendingPathExtension("json")).
    /// 3. A URLRequest with httpMethod "PUT" and httpBody = the JSON-encoded thread.
    /// 4. `session.dataTask(with:)`: on a transport error, or a status outside 200...299, call
    ///    `completion(error)` and return. Otherwise append the thread to `messageThreads`, then `completion(nil)`.
    /// 5. Don't forget `resume()`. Call `completion` exactly once, on every path.
    public func createMessageThread(title: String, completion: @escaping (Error?) -> Void) {
        completion(NotImplemented("createMessageThread(title:completion:)", section: "1.3"))
    }

    /// EXERCISE 1.4 — Adds a message to `messageThread` with POST: the server chooses its key (a push ID).
    ///
    /// 1. Make the message: `MessageThread.Message(text: text, sender: sender)`.
    /// 2. URL: `<baseURL>/<messageThread.identifier>/messages.json`.
    /// 3. A URLRequest with httpMethod "POST" and httpBody = the JSON-encoded message.
    /// 4. In the data task's handler: transport error or status outside 200...299 → `completion(error)` and return.
    ///    Otherwise append the message to `messageThread.messages`, then `completion(nil)`.
    /// 5. `resume()` the task. Call `completion` exactly once, on every path.
    public func createMessage(messageThread: MessageThread, text: String, sender: String, completion: @escaping (Error?) -> Void) {
        completion(NotImplemented("createMessage(messageThread:text:sender:completion:)", section: "1.4"))
    }
}
