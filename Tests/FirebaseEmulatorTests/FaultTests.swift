import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class FaultTests: XCTestCase {
    func test_permissionDenied_exactBody_andNoWrite() throws {
        let emulator = FirebaseEmulator()
        emulator.inject(.permissionDenied)
        let outcome = try XCTUnwrap(run(request("PUT", "/a.json", on: emulator, body: 1), on: emulator.session))
        XCTAssertNil(outcome.error, "Expected a 401 to arrive as a response (no WWW-Authenticate header)")
        XCTAssertEqual(outcome.response?.statusCode, 401, "Expected 401")
        XCTAssertNil(outcome.response?.value(forHTTPHeaderField: "WWW-Authenticate"), "Expected no WWW-Authenticate")
        XCTAssertEqual(outcome.data.map { String(decoding: $0, as: UTF8.self) }, "{\n  \"error\" : \"Permission denied\"\n}\n",
                       "Expected Firebase's exact bytes")
        XCTAssertEqual(emulator.database, .null, "Expected a faulted request not to write")
        XCTAssertEqual(emulator.requests.first?.response.statusCode, 401, "Expected the faulted request logged")
    }

    func test_internalError_andCustomHTTPError() {
        let emulator = FirebaseEmulator()
        emulator.inject(.internalError)
        emulator.inject(.httpError(status: 503, message: "Service Unavailable"))
        let first = emulator.handle(request("GET", "/.json", on: emulator))
        let second = emulator.handle(request("GET", "/.json", on: emulator))
        let third = emulator.handle(request("GET", "/.json", on: emulator))
        XCTAssertEqual(first.statusCode, 500, "Expected the first fault on the first request")
        XCTAssertEqual(first.bodyText, "{\n  \"error\" : \"An internal error occurred\"\n}\n", "Expected Firebase's 500 body")
        XCTAssertEqual(second.statusCode, 503, "Expected the second fault on the second request")
        XCTAssertEqual(second.bodyJSON, ["error": "Service Unavailable"], "Expected the custom message")
        XCTAssertEqual(third.statusCode, 200, "Expected faults used up after one request each")
        XCTAssertTrue(emulator.pendingFaults.isEmpty, "Expected no pending faults")
    }

    func test_malformedBody() throws {
        let emulator = FirebaseEmulator(database: ["a": 1])
        emulator.inject(.malformedBody("{\"a\": "))
        let outcome = try XCTUnwrap(run(request("GET", "/.json", on: emulator), on: emulator.session))
        XCTAssertEqual(outcome.response?.statusCode, 200, "Expected 200")
        XCTAssertEqual(outcome.data.map { String(decoding: $0, as: UTF8.self) }, "{\"a\": ", "Expected the malformed text")
        XCTAssertNil(outcome.data.flatMap { try? JSONValue(data: $0) }, "Expected the body not to parse")
    }

    func test_transportError_throughSession() throws {
        let emulator = FirebaseEmulator()
        emulator.inject(.transportError(.notConnectedToInternet))
        let outcome = try XCTUnwrap(run(request("PUT", "/a.json", on: emulator, body: 1), on: emulator.session))
        XCTAssertEqual(outcome.urlError?.code, .notConnectedToInternet, "Expected URLError.notConnectedToInternet")
        XCTAssertNil(outcome.response, "Expected no HTTP response")
        XCTAssertEqual(emulator.database, .null, "Expected no write")
        let logged = try XCTUnwrap(emulator.requests.first, "Expected the request logged")
        XCTAssertEqual(logged.response.statusCode, 0, "Expected status 0 in the log")
        XCTAssertEqual(logged.response.transportError?.code, .notConnectedToInternet, "Expected the error in the log")
        XCTAssertTrue(logged.summary.hasSuffix("-> transport error URLError(-1009)"), "Expected the summary to show it: \(logged.summary)")
    }

    func test_transportError_throughHandle_isReportedInTheResponse() {
        let emulator = FirebaseEmulator()
        emulator.inject(.transportError(.timedOut))
        let response = emulator.handle(request("GET", "/.json", on: emulator))
        XCTAssertEqual(response.statusCode, 0, "Expected status 0")
        XCTAssertEqual(response.transportError?.code, .timedOut, "Expected the URLError in the response")
    }

    func test_latency_delaysTheResponse() throws {
        let emulator = FirebaseEmulator()
        emulator.latency = 0.3
        let start = Date()
        let outcome = try XCTUnwrap(run(request("GET", "/.json", on: emulator), on: emulator.session))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.29, "Expected at least the latency")
        XCTAssertEqual(outcome.response?.statusCode, 200, "Expected the response after the delay")
    }

    func test_latency_cancel_givesCancelled() {
        let emulator = FirebaseEmulator()
        emulator.latency = 1.5
        let done = expectation(description: "completion after cancel")
        let box = OutcomeBox()
        let task = emulator.session.dataTask(with: request("GET", "/.json", on: emulator)) { data, response, error in
            box.set(TaskOutcome(data: data, response: response as? HTTPURLResponse, error: error))
            done.fulfill()
        }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { task.cancel() }
        wait(for: [done], timeout: 1)  // well before the 1.5 s latency: cancel must cut it short
        XCTAssertEqual(box.get()?.urlError?.code, .cancelled, "Expected URLError.cancelled")
    }

    func test_faultWithItsOwnLatency_isAnsweredBeforeTheSlowerRest() {
        let emulator = FirebaseEmulator()
        emulator.latency = 0.5
        emulator.inject(.internalError, latency: 0)
        let bothAnswered = expectation(description: "both answers")
        bothAnswered.expectedFulfillmentCount = 2
        let lock = NSLock()
        var statuses: [Int] = []
        for _ in 0..<2 {
            emulator.session.dataTask(with: request("GET", "/.json", on: emulator)) { _, response, _ in
                lock.lock()
                statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
                lock.unlock()
                bothAnswered.fulfill()
            }.resume()
        }
        wait(for: [bothAnswered], timeout: 3)
        lock.lock()
        defer { lock.unlock() }
        XCTAssertEqual(statuses, [500, 200], "Expected the fault answered at once and the other answer 0.5 s later")
    }

    func test_handle_ignoresLatency() {
        let emulator = FirebaseEmulator()
        emulator.latency = 1.5
        let start = Date()
        _ = emulator.handle(request("GET", "/.json", on: emulator))
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "Expected handle(_:) to answer at once")
    }
}
