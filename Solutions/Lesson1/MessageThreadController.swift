// Lesson 1 — PUT vs POST. Your exercises are the two functions marked EXERCISE. LESSONS.md §1 explains them.
import Foundation
// On Linux, URLSession, URLRequest and HTTPURLResponse live in FoundationNetworking (LESSONS.md §0.6).
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

    /// EXERCISE 1.3 — Creates a new thread titled `title` on the server with PUT, at the key the client chooses: the
    /// new thread's identifier (LESSONS.md §1.3).
    ///
    /// The contract:
    /// - one request, through `session`: PUT `<baseURL>/<identifier>.json`, the thread as JSON in its body;
    /// - success (status 200...299): append the thread to `messageThreads`, then call `completion(nil)`;
    /// - failure: call `completion` with the transport `URLError` itself, or with `HTTPStatusError(statusCode:body:)`
    ///   for a status outside 200...299 — and leave `messageThreads` unchanged;
    /// - `completion` exactly once, on every path, after the server answered (§1.2.1).
    public func createMessageThread(title: String, completion: @escaping (Error?) -> Void) {
        // BEGIN SOLUTION
        let thread = MessageThread(title: title)
        let url = baseURL.appendingPathComponent(thread.identifier).appendingPathExtension("json")
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        do {
            request.httpBody = try JSONEncoder().encode(thread)
        } catch {
            completion(error)
            return
        }
        session.dataTask(with: request) { data, response, error in
            if let error = error {
                completion(error)
                return
            }
            if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
                completion(HTTPStatusError(statusCode: http.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self)))
                return
            }
            self.messageThreads.append(thread)
            completion(nil)
        }.resume()
        // END SOLUTION
        // STUB: completion(NotImplemented("createMessageThread(title:completion:)", section: "1.3"))
    }

    /// EXERCISE 1.4 — Adds a message from `sender` to `messageThread` on the server with POST: the server chooses its
    /// key, a push ID (LESSONS.md §1.4).
    ///
    /// The contract:
    /// - one request, through `session`: POST `<baseURL>/<thread identifier>/messages.json`, the new
    ///   `MessageThread.Message` as JSON in its body (its `timestamp` as JSONEncoder writes a Date by default);
    /// - success: append the message to `messageThread.messages`, then call `completion(nil)`;
    /// - failure: as in 1.3 — the `URLError` itself or an `HTTPStatusError`, and the thread's messages unchanged;
    /// - `completion` exactly once, on every path, after the server answered.
    public func createMessage(messageThread: MessageThread, text: String, sender: String, completion: @escaping (Error?) -> Void) {
        // BEGIN SOLUTION
        let message = MessageThread.Message(text: text, sender: sender)
        let url = baseURL
            .appendingPathComponent(messageThread.identifier)
            .appendingPathComponent("messages")
            .appendingPathExtension("json")
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        do {
            request.httpBody = try JSONEncoder().encode(message)
        } catch {
            completion(error)
            return
        }
        session.dataTask(with: request) { data, response, error in
            if let error = error {
                completion(error)
                return
            }
            if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
                completion(HTTPStatusError(statusCode: http.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self)))
                return
            }
            messageThread.messages.append(message)
            completion(nil)
        }.resume()
        // END SOLUTION
        // STUB: completion(NotImplemented("createMessage(messageThread:text:sender:completion:)", section: "1.4"))
    }
}
