import XCTest
import TodoEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replays every file in Fixtures/todos/exchanges three ways — `handle(_:)`, the URLProtocol `session`, and over
/// HTTP on a port (EmulatorServer) — and each must answer as recorded, with the store as recorded afterwards.
final class ExchangeReplayTests: XCTestCase {
    private func exchanges() throws -> [TodoExchange] {
        let all = try TodoExchange.all()
        XCTAssertGreaterThanOrEqual(all.count, 15, "Expected the recorded exchanges in Fixtures/todos/exchanges")
        return all
    }

    func test_everyExchange_throughHandle() throws {
        for exchange in try exchanges() {
            let emulator = try exchange.makeEmulator()
            let response = emulator.handle(exchange.urlRequest(base: emulator.baseURL))
            let problems = exchange.mismatches(status: response.statusCode, headers: response.headers, body: response.body, emulator: emulator)
            XCTAssert(problems.isEmpty, "\(exchange.file) (\(exchange.description)):\n  " + problems.joined(separator: "\n  "))
            XCTAssertEqual(emulator.requests.count, 1, "\(exchange.file): expected the request to be logged once")
        }
    }

    func test_everyExchange_throughTheSession() throws {
        for exchange in try exchanges() {
            let emulator = try exchange.makeEmulator()
            try replay(exchange, on: emulator, base: emulator.baseURL, session: emulator.session, over: "the session")
        }
    }

    func test_everyExchange_overASocket() throws {
        for exchange in try exchanges() {
            let emulator = try exchange.makeEmulator()
            let server = EmulatorServer(serving: emulator)
            try server.start()
            defer { server.stop() }
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            try replay(exchange, on: emulator, base: server.baseURL, session: session, over: "a socket")
        }
    }

    private func replay(_ exchange: TodoExchange, on emulator: TodoEmulator, base: URL, session: URLSession, over transport: String) throws {
        let done = expectation(description: "\(exchange.file) over \(transport)")
        let box = ResponseBox()
        session.dataTask(with: exchange.urlRequest(base: base)) { data, response, _ in
            box.set(data ?? Data(), response as? HTTPURLResponse)
            done.fulfill()
        }.resume()
        guard XCTWaiter().wait(for: [done], timeout: 2) == .completed, let (data, response) = box.get(), let http = response else {
            return XCTFail("\(exchange.file) over \(transport): expected an HTTP response within 2 s")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers["\(name)"] = "\(value)" }
        let problems = exchange.mismatches(status: http.statusCode, headers: headers, body: data, emulator: emulator)
        XCTAssert(problems.isEmpty, "\(exchange.file) over \(transport):\n  " + problems.joined(separator: "\n  "))
    }
}

/// The data task's answer, written on the session's queue and read by the test after the wait.
final class ResponseBox {
    private let lock = NSLock()
    private var value: (Data, HTTPURLResponse?)?
    func set(_ data: Data, _ response: HTTPURLResponse?) { lock.lock(); value = (data, response); lock.unlock() }
    func get() -> (Data, HTTPURLResponse?)? { lock.lock(); defer { lock.unlock() }; return value }
}
