import XCTest
import TodoEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the exchanges do not show one by one: ids across several requests, isolation, HEAD, the fixture itself.
final class TodoServiceTests: XCTestCase {
    private func send(_ method: String, _ path: String, _ body: JSONValue? = nil, to emulator: TodoEmulator) -> EmulatorResponse {
        var request = URLRequest(url: URL(string: String(emulator.baseURL.absoluteString.dropLast()) + path)!)
        request.httpMethod = method
        if let body = body {
            request.httpBody = body.jsonData
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return emulator.handle(request)
    }

    func test_publishedTodos_are200WithIds1To200And90Completed() throws {
        let todos = try TodoExchange.publishedTodos()
        XCTAssertEqual(todos.count, 200)
        XCTAssertEqual(todos.compactMap { $0["id"].numberValue }, (1...200).map(Double.init))
        XCTAssertEqual(todos.filter { $0["completed"] == true }.count, 90)
        XCTAssertEqual(Set(todos.map { $0.objectValue.map { Set($0.keys) } ?? [] }), [["userId", "id", "title", "completed"]])
    }

    func test_twoPOSTs_getConsecutiveIDs() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        let first = send("POST", "/todos", ["title": "a"], to: emulator)
        let second = send("POST", "/todos", ["title": "b"], to: emulator)
        XCTAssertEqual(first.bodyJSON?["id"], 201)
        XCTAssertEqual(second.bodyJSON?["id"], 202)
        XCTAssertEqual(emulator.todo(id: 202)?["title"], "b")
    }

    /// `String(Int(number))` trapped on an id of 1e300 (and `Int(max) + 1` past Int.max): one POST killed the process.
    func test_hugeNumericIDs_areStoredAndFollowed_withoutACrash() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        let huge = send("POST", "/todos", ["id": 1e300, "title": "huge"], to: emulator)
        XCTAssertEqual(huge.statusCode, 201, "Expected a todo with id 1e300 to be stored like any other")
        XCTAssertEqual(send("POST", "/todos", ["id": 1e300, "title": "again"], to: emulator).statusCode, 500,
                       "Expected the same huge id twice to be json-server's duplicate-id error")
        let next = send("POST", "/todos", ["title": "after"], to: emulator)
        XCTAssertEqual(next.statusCode, 201)
        XCTAssertEqual(next.bodyJSON?["id"].numberValue, 1e300 + 1, "Expected the next id to be the largest plus one, as JavaScript adds")
        XCTAssertEqual(send("GET", "/todos?userId=1", to: emulator).statusCode, 200, "Expected filtering over huge numbers to answer")
        _ = send("POST", "/todos", ["id": 9_223_372_036_854_775_807.0, "title": "2^63"], to: emulator)
        XCTAssertEqual(emulator.nextID, Int.max, "Expected nextID past Int's range to be Int.max, not a trap")
    }

    func test_emptyCollection_firstPOSTGetsID1() {
        let emulator = TodoEmulator()
        XCTAssertEqual(send("GET", "/todos", to: emulator).bodyJSON, [])
        XCTAssertEqual(send("POST", "/todos", ["title": "first"], to: emulator).bodyJSON?["id"], 1)
    }

    /// json-server matches its mount path `/todos` against the path as sent: `//todos/4` (a base URL ending in `/`
    /// with "/todos/4" pasted after it) is not routed, while an empty segment after the collection is.
    func test_pathStartingWithTwoSlashes_isNotFound_butOneAfterTheCollectionIsRouted() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        for path in ["//todos/4", "//todos"] {
            let answer = send("GET", path, to: emulator)
            XCTAssertEqual(answer.statusCode, 404, path)
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), "{}", path)
        }
        XCTAssertEqual(send("POST", "//todos", ["title": "lost"], to: emulator).statusCode, 404)
        XCTAssertEqual(emulator.todos.count, 200)
        XCTAssertEqual(send("GET", "/todos//4", to: emulator).statusCode, 200)
    }

    func test_twoEmulators_doNotShareTodos() {
        let one = TodoEmulator(), other = TodoEmulator()
        _ = send("POST", "/todos", ["title": "only in one"], to: one)
        XCTAssertNotEqual(one.baseURL, other.baseURL)
        XCTAssertEqual(one.todos.count, 1)
        XCTAssertEqual(other.todos.count, 0)
    }

    func test_head_isAGETWithoutItsBody() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        let head = send("HEAD", "/todos/1", to: emulator)
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(head.headers["Content-Length"], send("GET", "/todos/1", to: emulator).headers["Content-Length"])
    }

    func test_injectedAnswer_isThatStatusAndBody_once_andChangesNothing() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        emulator.inject(.answer(status: 503, body: #"{"id": 4}"#))
        let faulted = send("POST", "/todos", ["title": "not stored"], to: emulator)
        XCTAssertEqual(faulted.statusCode, 503)
        XCTAssertEqual(String(decoding: faulted.body, as: UTF8.self), #"{"id": 4}"#)
        XCTAssertEqual(faulted.headers["Content-Type"], send("GET", "/todos/1", to: emulator).headers["Content-Type"])
        XCTAssertEqual(emulator.todos.count, 200, "a faulted request must not reach the service")
    }

    func test_injectedTransportError_reachesTheSessionAsURLError() throws {
        let emulator = TodoEmulator(todos: try TodoExchange.publishedTodos())
        emulator.inject(.transportError(.networkConnectionLost))
        let done = expectation(description: "completion")
        let box = LockedError()
        emulator.session.dataTask(with: emulator.baseURL.appendingPathComponent("todos/1")) { _, _, error in
            box.set(error)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 2)
        XCTAssertEqual((box.get() as? URLError)?.code, .networkConnectionLost)
    }
}

final class LockedError {
    private let lock = NSLock()
    private var error: Error?
    func set(_ value: Error?) { lock.lock(); error = value; lock.unlock() }
    func get() -> Error? { lock.lock(); defer { lock.unlock() }; return error }
}
