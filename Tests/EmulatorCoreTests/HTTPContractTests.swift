import XCTest
import EmulatorCore
import EmulatorTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP/1.1 that URLSession, curl and browsers speak, over a real socket on 127.0.0.1.
final class HTTPContractTests: XCTestCase {
    func test_keepAlive_servesSeveralRequestsOnOneConnection() throws {
        let (emulator, server) = try startEchoServer()
        let connection = try connect(to: server)
        for index in 0..<3 {
            connection.send("PUT", "/item/\(index)", body: Data("{\"n\":\(index)}".utf8))
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, "Expected request \(index) to be answered on the same connection")
            XCTAssertEqual(response.head.header("Connection"), "keep-alive", "Expected HTTP/1.1 to keep the connection")
            XCTAssertEqual(echo(response)?["body"], .string("{\"n\":\(index)}"), "Expected the body to arrive whole")
        }
        XCTAssertEqual(emulator.requests.map(\.path), ["/item/0", "/item/1", "/item/2"], "Expected the log to show all three")
    }

    func test_pipelinedRequests_areAnsweredInOrder() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(echo(try connection.readResponse())?["path"], "/a", "Expected the first answer first")
        XCTAssertEqual(echo(try connection.readResponse())?["path"], "/b", "Expected the second answer next")
    }

    func test_chunkedRequestBody_isReassembled() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nTrailer: t\r\n\r\n")
        XCTAssertEqual(echo(try connection.readResponse())?["body"], "{\"a\":1}", "Expected the chunks joined, extension and trailer ignored")
    }

    func test_expect100Continue_getsContinueBeforeTheBodyIsSent() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("PUT /e HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try connection.readHead().status, 100, "Expected 100 Continue before the client sends its body")
        connection.send("{}")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200, "Expected the final answer after the body")
        XCTAssertEqual(echo(response)?["body"], "{}", "Expected the body sent after 100 Continue")
    }

    func test_http10_closesAfterTheAnswer_unlessKeptAlive() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("GET /old HTTP/1.0\r\n\r\n")
        let response = try connection.readResponse()
        XCTAssertEqual(response.head.header("Connection"), "close", "Expected HTTP/1.0 to close by default")
        XCTAssertTrue(connection.serverCloses(within: 2), "Expected the server to close an HTTP/1.0 connection")
    }

    func test_connectionClose_isHonoured() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("GET", "/bye", headers: ["Connection": "close"])
        XCTAssertEqual(try connection.readResponse().status, 200, "Expected the answer")
        XCTAssertTrue(connection.serverCloses(within: 2), "Expected the server to close after `Connection: close`")
    }

    func test_headRequest_hasNoBody() throws {
        let (_, server) = try startEchoServer()
        let connection = try connect(to: server)
        connection.send("HEAD", "/h")
        let response = try connection.readResponse(method: "HEAD")
        XCTAssertNotNil(response.head.header("Content-Length"), "Expected HEAD to carry the GET's Content-Length")
        connection.send("GET", "/after")
        XCTAssertEqual(echo(try connection.readResponse())?["path"], "/after", "Expected no body bytes left behind by HEAD")
    }

    func test_urlSession_talksToTheServer_withAStreamedBody() throws {
        let (_, server) = try startEchoServer()
        var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("{\"streamed\":true}".utf8))  // sent chunked
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let done = expectation(description: "URLSession answer")
        let received = LockedBox<Data?>(nil)
        session.dataTask(with: request) { data, _, _ in
            received.value = data
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 2)
        XCTAssertEqual(received.value.flatMap { try? JSONValue(data: $0) }?["body"], "{\"streamed\":true}", "Expected URLSession's streamed body to arrive")
    }
}

