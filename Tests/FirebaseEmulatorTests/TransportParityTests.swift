import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same handler answers through `emulator.session` (URLProtocol) and over HTTP on a port (EmulatorServer):
/// every recorded exchange gets the same status, headers that matter and body both ways, and matches the recording.
final class TransportParityTests: XCTestCase {
    /// The headers a client acts on; Date, Connection and the like belong to the transport.
    static let headersThatMatter = ["Content-Type", "Content-Length", "Cache-Control", "Access-Control-Allow-Origin"]

    private struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
        let database: JSONValue
    }

    /// Runs `exchange` from a fresh emulator, through its session or over a socket.
    private func answer(_ exchange: Exchange, overSocket: Bool) throws -> Answer? {
        let emulator = exchange.makeEmulator()
        var base = emulator.baseURL
        var session = emulator.session
        if overSocket {
            base = try serve(emulator).baseURL
            session = URLSession(configuration: .ephemeral)
        }
        defer { if overSocket { session.invalidateAndCancel() } }
        guard let url = URL(string: String(base.absoluteString.dropLast()) + exchange.request.path) else {
            XCTFail("Fixtures/exchanges/\(exchange.file): expected request.path to form a URL")
            return nil
        }
        var request = URLRequest(url: url)
        request.httpMethod = exchange.request.method
        for (name, value) in exchange.request.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = exchange.request.body
        guard let outcome = run(request, on: session), let response = outcome.response else {
            XCTFail("Fixtures/exchanges/\(exchange.file)\(overSocket ? " over a socket" : ""): expected an HTTP response")
            return nil
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
        return Answer(status: response.statusCode, headers: headers, body: outcome.data ?? Data(), database: emulator.database)
    }

    func test_everyExchange_sameAnswerOverBothTransports() throws {
        let files = try FixturePaths.jsonFiles(in: FixturePaths.exchanges)
        XCTAssertGreaterThanOrEqual(files.count, 20, "Expected the recorded exchanges in \(FixturePaths.exchanges.path)")
        for file in files {
            let exchange = try Exchange.load(file)
            guard let inProcess = try answer(exchange, overSocket: false), let socket = try answer(exchange, overSocket: true) else { continue }
            let name = "Fixtures/exchanges/\(exchange.file)"
            XCTAssertEqual(socket.status, inProcess.status, "\(name): expected the same status over both transports")
            XCTAssertEqual(socket.body, inProcess.body, "\(name): expected the same body bytes over both transports")
            for header in Self.headersThatMatter {
                XCTAssertEqual(socket.headers[header.lowercased()], inProcess.headers[header.lowercased()],
                               "\(name): expected the same \(header) over both transports")
            }
            let problems = exchange.mismatches(status: socket.status, headers: socket.headers, body: socket.body, database: socket.database)
            XCTAssert(problems.isEmpty, "\(name) over a socket:\n  " + problems.joined(separator: "\n  "))
        }
    }
}
