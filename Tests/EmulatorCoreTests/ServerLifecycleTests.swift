import XCTest
import EmulatorCore
import EmulatorTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starting, stopping and sharing the server: no leaked threads or ports, streams closed on stop.
final class ServerLifecycleTests: XCTestCase {
    /// Threads of this process (Linux); nil where /proc is missing.
    private var threadCount: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    func test_manyServers_startAndStop_withoutLeakingThreadsOrPorts() throws {
        let before = threadCount
        for _ in 0..<25 {
            let emulator = Emulator(EchoService())
            let server = EmulatorServer(serving: emulator)
            try server.start()
            let connection = try connect(to: server)
            connection.send("GET", "/stream")
            XCTAssertEqual(try connection.readHead().status, 200, "setup: expected a stream to be open while stopping")
            server.stop()
            XCTAssertTrue(connection.serverCloses(within: 1), "Expected stop() to close an open stream")
        }
        if let before = before, let after = threadCount {
            XCTAssertLessThanOrEqual(after, before + 4, "Expected stopped servers to leave no threads behind (\(before) before, \(after) after)")
        }
    }

    func test_aStoppedServersPort_canBeTakenAgain() throws {
        let first = EmulatorServer(serving: Emulator(EchoService()))
        try first.start()
        let port = first.port
        first.stop()
        let second = EmulatorServer(serving: Emulator(EchoService()), port: port)
        XCTAssertNoThrow(try second.start(), "Expected port \(port) to be free again after stop()")
        second.stop()
    }

    func test_aPortInUse_isOneClearError() throws {
        let (_, server) = try startEchoServer()
        let second = EmulatorServer(serving: Emulator(EchoService()), port: server.port)
        XCTAssertThrowsError(try second.start(), "Expected a second server on the same port to fail") { error in
            XCTAssertEqual("\(error)", "port \(server.port) is already in use (another `lab serve`?); pick another with --port",
                           "Expected the error to name the port")
        }
    }

    func test_theSameEmulator_servesBothTransports_withOneLog() throws {
        let (emulator, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("GET", "/over-the-socket")
        XCTAssertEqual(try connection.readResponse().status, 200, "setup: expected the socket answer")
        _ = emulator.handle(URLRequest(url: emulator.baseURL.appendingPathComponent("in-process")))
        XCTAssertEqual(emulator.requests.map(\.path), ["/over-the-socket", "/in-process"], "Expected one log for both transports")
    }

    func test_faultsAndLatency_applyOverTheSocket() throws {
        let (emulator, server) = try startEchoServer()
        emulator.inject(.httpError(status: 503, message: "down"))
        emulator.inject(.transportError(.networkConnectionLost))
        let connection = try connect(to: server)
        connection.send("GET", "/a")
        let faulted = try connection.readResponse()
        XCTAssertEqual(faulted.status, 503, "Expected the injected HTTP error")
        XCTAssertEqual(try JSONValue(data: faulted.body), ["error": "down"], "Expected the service's error body")
        connection.send("GET", "/b")
        XCTAssertTrue(connection.serverCloses(within: 2), "Expected a transport fault to drop the connection without an answer")

        emulator.latency = 0.2
        let slow = try connect(to: server)
        let started = Date()
        slow.send("GET", "/c")
        XCTAssertEqual(try slow.readResponse().status, 200, "Expected the answer after the latency")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.19, "Expected the latency to delay the answer")
    }

    func test_requestsAreReported_oneLineEach() throws {
        let emulator = Emulator(EchoService())
        let server = EmulatorServer(serving: emulator)
        let lines = LockedBox<[String]>([])
        server.onRequest = { served in lines.value.append(served.line) }
        try server.start()
        defer { server.stop() }
        let connection = try connect(to: server)
        connection.send("PUT", "/x?ns=demo", body: Data("1".utf8))
        _ = try connection.readResponse()
        let line = lines.value.first ?? ""
        XCTAssertTrue(line.hasPrefix("PUT /x?ns=demo 200 ") && line.hasSuffix(" ms"), "Expected `method target status ms`, got \(line)")
    }
}
