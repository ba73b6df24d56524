import XCTest
import ChatCaveEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The recorded session (Fixtures/chatcave/session.json) replayed in order from an empty server, through
/// `emulator.session` (URLProtocol) and over HTTP on a port (EmulatorServer): each answer matches the recording.
final class SessionReplayTests: XCTestCase {
    func test_recordedSession_throughTheSession() throws {
        let session = try RecordedSession.load()
        let emulator = session.makeEmulator()
        replay(session, base: emulator.baseURL, on: emulator.session, over: "session")
    }

    func test_recordedSession_overASocket() throws {
        let session = try RecordedSession.load()
        let server = try serve(session.makeEmulator())
        let client = URLSession(configuration: .ephemeral)
        defer { client.invalidateAndCancel() }
        replay(session, base: server.baseURL, on: client, over: "socket")
    }

    func test_recordedSession_coversEveryResource() throws {
        let exchanges = try RecordedSession.load().exchanges
        let calls = Set(exchanges.map { "\($0.method) \(Self.shape(of: $0.path))" })
        for call in ["GET /rooms", "POST /rooms", "GET /rooms/:id", "DELETE /rooms/:id", "PUT /rooms/:id/chatters/:user",
                     "DELETE /rooms/:id/chatters/:user", "GET /rooms/:id/chatters", "GET /rooms/:id/messages",
                     "POST /rooms/:id/messages"] {
            XCTAssertTrue(calls.contains(call), "Expected the recorded session to exercise \(call); it has \(calls.sorted())")
        }
    }

    private func replay(_ session: RecordedSession, base: URL, on urlSession: URLSession, over transport: String) {
        for (index, exchange) in session.exchanges.enumerated() {
            let label = "exchange \(index) (\(exchange.note)) over the \(transport)"
            var request = URLRequest(url: URL(string: String(base.absoluteString.dropLast()) + exchange.path)!)
            request.httpMethod = exchange.method
            exchange.headers.forEach { request.setValue($1, forHTTPHeaderField: $0) }
            request.httpBody = exchange.body
            guard let fetched = fetch(request, on: urlSession), let response = fetched.response else {
                return XCTFail("\(label): expected an HTTP response within 2 s")
            }
            XCTAssertEqual(response.statusCode, exchange.status, "\(label): status")
            for (name, expected) in exchange.expectedHeaders {
                XCTAssertEqual(response.value(forHTTPHeaderField: name), expected, "\(label): header \(name)")
            }
            let body = fetched.data.flatMap { $0.isEmpty ? nil : try? JSONValue(data: $0) }
            XCTAssertEqual(body, exchange.expectedBody, "\(label): body \(String(decoding: fetched.data ?? Data(), as: UTF8.self))")
        }
    }

    /// "/rooms/1/chatters/ada?x" → "/rooms/:id/chatters/:user".
    static func shape(of path: String) -> String {
        let parts = path.split(separator: "?")[0].split(separator: "/").enumerated().map { index, part -> String in
            index == 1 ? ":id" : index == 3 ? ":user" : String(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
