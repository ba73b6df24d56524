import XCTest
import FirebaseEmulator
import EmulatorTestSupport

extension XCTestCase {
    /// `emulator` served on a free port of 127.0.0.1, stopped when the test ends.
    func serve(_ emulator: FirebaseEmulator, limits: ServerLimits = ServerLimits(),
               file: StaticString = #filePath, line: UInt = #line) throws -> EmulatorServer {
        let server = EmulatorServer(serving: emulator, limits: limits)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// A raw connection to `server`, or a failure that says so.
    func connect(to server: EmulatorServer, file: StaticString = #filePath, line: UInt = #line) throws -> LoopbackConnection {
        try XCTUnwrap(LoopbackConnection(port: server.port), "setup: could not connect to 127.0.0.1:\(server.port)", file: file, line: line)
    }

    /// A request with `body` that expects 200, for a test's setup or writes.
    func write(_ method: String, _ target: String, _ body: JSONValue?, on connection: LoopbackConnection,
               file: StaticString = #filePath, line: UInt = #line) throws {
        connection.send(method, target, body: body?.jsonData)
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200, "\(method) \(target) answered \(response.status): \(response.bodyText)", file: file, line: line)
    }
}
