import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replays every file in Fixtures/exchanges: the emulator must answer each recorded request as recorded.
final class ExchangeReplayTests: XCTestCase {
    private func exchangeFiles() throws -> [URL] {
        let files = try FixturePaths.jsonFiles(in: FixturePaths.exchanges)
        XCTAssertGreaterThanOrEqual(files.count, 20, "Expected the recorded exchanges in \(FixturePaths.exchanges.path)")
        return files
    }

    /// Loads every exchange; a malformed one is a failure naming the file and the problem.
    private func exchanges() throws -> [Exchange] {
        try exchangeFiles().compactMap { url in
            do {
                return try Exchange.load(url)
            } catch {
                XCTFail("Expected a well-formed exchange: \(error)")
                return nil
            }
        }
    }

    func test_everyExchange_throughHandle() throws {
        for exchange in try exchanges() {
            let emulator = exchange.makeEmulator()
            guard let request = exchange.urlRequest(for: emulator) else {
                XCTFail("Fixtures/exchanges/\(exchange.file): expected request.path to form a URL")
                continue
            }
            let response = emulator.handle(request)
            let problems = exchange.mismatches(
                status: response.statusCode, headers: response.headers, body: response.body, database: emulator.database)
            XCTAssert(problems.isEmpty, "Fixtures/exchanges/\(exchange.file) (\(exchange.description)):\n  " + problems.joined(separator: "\n  "))
            XCTAssertEqual(emulator.requests.count, 1, "\(exchange.file): expected the request to be logged once")
        }
    }

    func test_everyExchange_throughURLSession() throws {
        for exchange in try exchanges() {
            let emulator = exchange.makeEmulator()
            guard let request = exchange.urlRequest(for: emulator),
                let outcome = run(request, on: emulator.session)
            else { continue }
            guard let response = outcome.response else {
                XCTFail("\(exchange.file): expected an HTTP response, got error \(String(describing: outcome.error))")
                continue
            }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields { headers["\(name)"] = "\(value)" }
            let problems = exchange.mismatches(
                status: response.statusCode, headers: headers, body: outcome.data ?? Data(), database: emulator.database)
            XCTAssert(problems.isEmpty, "Fixtures/exchanges/\(exchange.file) via URLSession:\n  " + problems.joined(separator: "\n  "))
        }
    }

    func test_malformedExchange_failsWithFileAndProblem() {
        let cases: [(String, String)] = [
            ("{not json", "is not valid JSON"),
            ("[1, 2]", "must be a JSON object"),
            (#"{"description": "d", "source": "s", "reqest": {}}"#, "unknown key \"reqest\""),
            (#"{"description": "d", "source": "s", "response": {"status": 200}}"#, "\"request\" must be an object"),
            (#"{"description": "d", "source": "s", "request": {"method": "GET", "path": "a.json"}, "response": {"status": 200}}"#,
             "must start with /"),
            (#"{"description": "d", "source": "s", "request": {"method": "GET", "path": "/.json"}, "response": {"status": "ok"}}"#,
             "\"response.status\" must be an HTTP status code"),
            (#"{"description": "d", "source": "s", "request": {"method": "GET", "path": "/.json"}, "response": {"status": 200}, "beforeDatabase": "nope.json"}"#,
             "cannot be loaded from Fixtures/databases"),
            (#"{"description": "d", "source": "s", "fault": "teapot", "request": {"method": "GET", "path": "/.json"}, "response": {"status": 200}}"#,
             "\"fault\" must be"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try Exchange.parse(Data(text.utf8), file: "broken.json")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("Fixtures/exchanges/broken.json: "), "Expected the message to name the file, got: \(message)")
                XCTAssertTrue(message.contains(expected), "Expected the message to say \(expected.debugDescription), got: \(message)")
            }
        }
    }
}
