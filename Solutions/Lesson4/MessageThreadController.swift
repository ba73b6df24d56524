// Given: already written for you. The controller and Lesson 1's two writes, solved; your exercise, fetching, is in
// FetchMessageThreads.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to the message board's Firebase Realtime Database through its REST API: fetches the threads (your
/// exercise, in FetchMessageThreads.swift), creates threads and posts messages (given).
public final class MessageThreadController {
    /// The course's real database. The tests pass an emulator's URL instead, so they never touch the network.
    public static let firebaseURL = URL(string: "https://lambda-message-board.firebaseio.com/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    /// The threads the app knows: those `fetchMessageThreads` found (sorted by title), then those created since.
    /// Changed only after the server said yes. (`internal(set)` so FetchMessageThreads.swift can set it.)
    public internal(set) var messageThreads: [MessageThread] = []

    public init(baseURL: URL = MessageThreadController.firebaseURL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Lesson 1, given (LESSONS.md §1.3). Creates a thread titled `title` with PUT, at the key the client chooses: its identifier.
    public func createMessageThread(title: String, completion: @escaping (Error?) -> Void) {
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
    }

    /// Lesson 1, given (LESSONS.md §1.4). Adds a message to `messageThread` with POST: the server chooses its key (a push ID).
    public func createMessage(messageThread: MessageThread, text: String, sender: String, completion: @escaping (Error?) -> Void) {
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
    }
}
