import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a data task's completion received.
struct TaskOutcome {
    let data: Data?
    let response: HTTPURLResponse?
    let error: Error?
    var urlError: URLError? { error as? URLError }
}

extension XCTestCase {
    /// Runs `request` through `session` with a completion-handler data task and waits at most `timeout` (≤ 2 s).
    /// Returns nil (after recording a failure) when the completion was not called in time.
    func run(_ request: URLRequest, on session: URLSession, timeout: TimeInterval = 2,
             file: StaticString = #filePath, line: UInt = #line) -> TaskOutcome? {
        let done = expectation(description: "completion of \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")")
        let box = OutcomeBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(TaskOutcome(data: data, response: response as? HTTPURLResponse, error: error))
            done.fulfill()
        }
        task.resume()
        let result = XCTWaiter().wait(for: [done], timeout: min(timeout, 2))
        guard result == .completed else {
            XCTFail("Expected the data task's completion within \(min(timeout, 2)) s; it was not called", file: file, line: line)
            task.cancel()
            return nil
        }
        return box.get()
    }

    /// A URLRequest for `path` (e.g. "/a.json?print=silent") on `emulator`.
    func request(_ method: String, _ path: String, on emulator: FirebaseEmulator, body: JSONValue? = nil,
                 headers: [String: String] = [:]) -> URLRequest {
        let url = URL(string: String(emulator.baseURL.absoluteString.dropLast()) + path)!
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body?.jsonData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}

/// The completion runs on the session's queue; the test reads after the wait. A lock keeps that clean.
final class OutcomeBox {
    private let lock = NSLock()
    private var outcome: TaskOutcome?
    func set(_ value: TaskOutcome) { lock.lock(); outcome = value; lock.unlock() }
    func get() -> TaskOutcome? { lock.lock(); defer { lock.unlock() }; return outcome }
}
