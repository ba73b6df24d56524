// Lesson 7 — designing the client of a REST API. Your exercises are the functions marked EXERCISE, in this file and
// the three ChatCaveService+… files. LESSONS.md §7 explains them; `swift run lab hint Lesson7` gives hints.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

/// The one class that talks to ChatCave: callers ask for rooms and messages and get model values or a
/// `ChatCaveError`; URLs, methods, headers, status codes and JSON stay in here.
public final class ChatCaveService {
    /// The course's real server. The tests pass an emulator's URL instead, so they never touch the network.
    public static let chatCaveURL = URL(string: "https://chatcave.example/api/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession
    public let credentials: Credentials

    // Add the state your service needs here: the tasks in flight (for cancelRequest), the last message seen in
    // each room (for fetchNewMessages). Calls come from any thread and answers on the session's queue: guard it.
    // BEGIN SOLUTION
    /// The tasks in flight, by id; a cancelled or finished one is no longer here.
    var tasks: [RequestID: URLSessionTask] = [:]
    /// Room id → the largest message id a fetch has delivered from that room.
    var lastSeenMessageIDs: [Int: Int] = [:]
    let lock = NSLock()
    // END SOLUTION

    public init(baseURL: URL = ChatCaveService.chatCaveURL, session: URLSession = .shared, credentials: Credentials) {
        self.baseURL = baseURL
        self.session = session
        self.credentials = credentials
    }

    /// EXERCISE 7.3 — Fetches every room: `GET <baseURL>/rooms`, signed in (LESSONS.md §7.3).
    ///
    /// - Every request this service sends carries `Authorization: Basic <base64 of "user:password">`.
    /// - Success (200): `success` with the rooms, decoded as `[Room]` (times are ISO 8601), in the server's order.
    /// - Failure: `failure` with a `ChatCaveError`: `.transport` (no answer), `.unauthorized` (401), `.server` (any
    ///   other status outside 200...299, with the body), `.decoding` (a 2xx answer that does not decode).
    /// - Exactly one of the two closures is called, once, after the server answered.
    /// - Returns an id that `cancelRequest(_:)` accepts (§7.6).
    @discardableResult
    public func fetchRooms(success: @escaping ([Room]) -> Void, failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        // BEGIN SOLUTION
        send(request("GET", "rooms"), decoding: [Room].self, success: success, failure: failure)
        // END SOLUTION
        // STUB: _ = NotImplemented("fetchRooms(success:failure:)", section: "7.3")
        // STUB: return RequestID()
    }

    // Write the helpers every call shares here: one that builds a signed-in request, one that sends it and turns
    // the answer into a model value or a ChatCaveError. Each later exercise is then a few lines.
    // BEGIN SOLUTION
    /// A request to `<baseURL>/<path>`, signed in; `body` is sent as a JSON object.
    func request(_ method: String, _ path: String, query: [URLQueryItem] = [], body: [String: String]? = nil) -> URLRequest {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
        request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        if let body = body {
            request.httpBody = try? JSONEncoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends `request` and decodes a 2xx answer as `Value`.
    func send<Value: Decodable>(_ request: URLRequest, decoding type: Value.Type, success: @escaping (Value) -> Void,
                                failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        send(request, failure: failure) { data in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let value: Value
            do {
                value = try decoder.decode(Value.self, from: data)
            } catch {
                return failure(.decoding(error))
            }
            success(value)
        }
    }

    /// Sends `request`, keeps its task until it finishes or is cancelled, and hands a 2xx answer's body to `answered`.
    func send(_ request: URLRequest, failure: @escaping (ChatCaveError) -> Void, answered: @escaping (Data) -> Void) -> RequestID {
        let id = RequestID()
        let task = session.dataTask(with: request) { data, response, error in
            // A cancelled request is no longer in `tasks`: its caller must hear nothing more.
            guard self.finish(id) else { return }
            if let error = error { return failure(.transport(error)) }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status == 401 { return failure(.unauthorized) }
            guard (200...299).contains(status) else {
                return failure(.server(statusCode: status, body: String(decoding: data ?? Data(), as: UTF8.self)))
            }
            answered(data ?? Data())
        }
        lock.lock()
        tasks[id] = task
        lock.unlock()
        task.resume()
        return id
    }

    /// Forgets a finished task; false when it was cancelled (already forgotten).
    private func finish(_ id: RequestID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return tasks.removeValue(forKey: id) != nil
    }
    // END SOLUTION
}
