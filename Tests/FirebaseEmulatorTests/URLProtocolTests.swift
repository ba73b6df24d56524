import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// End to end through `emulator.session`, the way learner code uses it: dataTask + resume.
final class URLProtocolTests: XCTestCase {
    func test_baseURL_isUniqueInvalidHost() {
        let a = FirebaseEmulator(), b = FirebaseEmulator()
        XCTAssertNotEqual(a.baseURL, b.baseURL, "Expected a unique host per emulator")
        let pattern = #"^https://lab-[0-9a-f]{8}\.firebaseio\.invalid/$"#
        XCTAssertNotNil(a.baseURL.absoluteString.range(of: pattern, options: .regularExpression),
                        "Expected https://lab-<8 hex>.firebaseio.invalid/, got \(a.baseURL)")
    }

    func test_get_deliversStatusHeadersAndBody() throws {
        let emulator = FirebaseEmulator(database: ["a": ["b": 1]])
        let outcome = try XCTUnwrap(run(request("GET", "/a.json", on: emulator), on: emulator.session))
        XCTAssertNil(outcome.error, "Expected no error")
        XCTAssertEqual(outcome.response?.statusCode, 200, "Expected 200")
        XCTAssertEqual(outcome.response?.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8",
                       "Expected Firebase's Content-Type")
        XCTAssertEqual(outcome.data.flatMap { try? JSONValue(data: $0) }, ["b": 1], "Expected the data")
    }

    func test_put_bodyReachesTheEmulator() throws {
        let emulator = FirebaseEmulator()
        var urlRequest = request("PUT", "/thread.json", on: emulator, body: ["title": "REST APIs"])
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let outcome = try XCTUnwrap(run(urlRequest, on: emulator.session))
        XCTAssertEqual(outcome.response?.statusCode, 200, "Expected 200")
        XCTAssertEqual(emulator.database, ["thread": ["title": "REST APIs"]], "Expected the body stored")
        XCTAssertEqual(emulator.requests.first?.bodyJSON, ["title": "REST APIs"], "Expected the body in the log")
        XCTAssertEqual(emulator.requests.first?.header("Content-Type"), "application/json", "Expected request headers in the log")
    }

    func test_largeBody_arrivesWhole() throws {
        let emulator = FirebaseEmulator()
        let big = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<2000).map { ("key\($0)", JSONValue.string(String(repeating: "x", count: 50))) }))
        emulator.load(["big": big])
        let outcome = try XCTUnwrap(run(request("GET", "/big.json", on: emulator), on: emulator.session))
        XCTAssertGreaterThan(outcome.data?.count ?? 0, 100_000, "Expected the whole body (one didLoad)")
        XCTAssertEqual(outcome.data.flatMap { try? JSONValue(data: $0) }, big, "Expected the body intact")
    }

    func test_printSilent_deliversEmpty204() throws {
        let emulator = FirebaseEmulator()
        let outcome = try XCTUnwrap(run(request("PUT", "/a.json?print=silent", on: emulator, body: 1), on: emulator.session))
        XCTAssertEqual(outcome.response?.statusCode, 204, "Expected 204")
        XCTAssertEqual(outcome.data?.count ?? 0, 0, "Expected no body")
        XCTAssertEqual(emulator.database, ["a": 1], "Expected the write done")
    }

    func test_errorStatus_arrivesAsResponseNotError() throws {
        let emulator = FirebaseEmulator()
        let outcome = try XCTUnwrap(run(request("PUT", "/a.b.json", on: emulator, body: 1), on: emulator.session))
        XCTAssertNil(outcome.error, "Expected an HTTP error to come as a response, not a URLError")
        XCTAssertEqual(outcome.response?.statusCode, 400, "Expected 400")
        XCTAssertEqual(outcome.data.flatMap { try? JSONValue(data: $0) }, ["error": "Invalid path: Invalid token in path"],
                       "Expected Firebase's error body")
    }

    func test_postWithBodyStream_isDrained() throws {
        let emulator = FirebaseEmulator()
        var urlRequest = request("POST", "/list.json", on: emulator)
        urlRequest.httpBodyStream = InputStream(data: Data(#"{"n": 1}"#.utf8))
        let response = emulator.handle(urlRequest)  // Darwin hands the protocol a stream; drive that path directly
        XCTAssertEqual(response.statusCode, 200, "Expected the streamed body accepted")
        XCTAssertEqual(emulator.requests.first?.bodyJSON, ["n": 1], "Expected the body drained from the stream")
    }

    func test_asyncData_works() async throws {
        let emulator = FirebaseEmulator(database: ["x": true])
        let (data, response) = try await emulator.session.data(for: request("GET", "/x.json", on: emulator))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, "Expected 200 through async data(for:)")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "true", "Expected the body")
    }

    func test_concurrentRequests_areAllServedAndLogged() {
        let emulator = FirebaseEmulator(randomness: .seeded(3))
        let group = DispatchGroup()
        for index in 0..<20 {
            group.enter()
            emulator.session.dataTask(with: request("POST", "/items.json", on: emulator, body: ["i": .number(Double(index))])) { _, _, _ in
                group.leave()
            }.resume()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 2), .success, "Expected all 20 completions within 2 s")
        XCTAssertEqual(emulator.requests.count, 20, "Expected 20 logged requests")
        XCTAssertEqual(emulator.value(at: "items").objectValue?.count, 20, "Expected 20 distinct push IDs")
    }
}
