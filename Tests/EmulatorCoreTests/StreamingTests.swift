import XCTest
import EmulatorCore
import EmulatorTestSupport

/// Streamed responses: pieces as they are sent, idle events when quiet, a clean end that keeps the connection.
final class StreamingTests: XCTestCase {
    func test_piecesArriveAsTheyAreSent_andTheEndKeepsTheConnection() throws {
        let (_, server) = try startEchoServer()
        let listener = try connect(to: server)
        listener.send("GET", "/stream")
        let head = try listener.readHead()
        XCTAssertEqual(head.header("Transfer-Encoding"), "chunked", "Expected a stream to be chunked over HTTP/1.1")
        let writer = try connect(to: server)
        for word in ["one", "two"] {
            writer.send("POST", "/broadcast", body: Data(word.utf8))
            _ = try writer.readResponse()
            XCTAssertEqual(try listener.readChunk().map { String(decoding: $0, as: UTF8.self) }, word,
                           "Expected each piece to arrive while the stream stays open")
        }
        writer.send("POST", "/finish")
        _ = try writer.readResponse()
        XCTAssertNil(try listener.readChunk(), "Expected the finished stream to end with the last chunk")
        listener.send("GET", "/after")
        XCTAssertEqual(try listener.readResponse().status, 200, "Expected the connection to serve again after the stream ended")
    }

    func test_aQuietStream_sendsItsIdleEvent() throws {
        let emulator = Emulator(EchoService(idleInterval: 0.1))
        let server = EmulatorServer(serving: emulator)
        try server.start()
        defer { server.stop() }
        let listener = try connect(to: server)
        listener.send("GET", "/stream")
        _ = try listener.readHead()
        XCTAssertEqual(try listener.readChunk(timeout: 1).map { String(decoding: $0, as: UTF8.self) }, "idle\n",
                       "Expected the idle event after 0.1 s of quiet")
    }

    func test_anHTTP10Stream_endsWithTheConnection() throws {
        let (_, server) = try startEchoServer()
        let listener = try connect(to: server)
        listener.send("GET /stream HTTP/1.0\r\n\r\n")
        let head = try listener.readHead()
        XCTAssertNil(head.header("Transfer-Encoding"), "Expected no chunked coding for an HTTP/1.0 client")
        let writer = try connect(to: server)
        writer.send("POST", "/broadcast", body: Data("raw".utf8))
        _ = try writer.readResponse()
        writer.send("POST", "/finish")
        _ = try writer.readResponse()
        XCTAssertEqual(try listener.readUntilClose(), Data("raw".utf8), "Expected the raw piece, then the close that ends it")
    }
}
