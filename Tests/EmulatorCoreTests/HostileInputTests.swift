import XCTest
import EmulatorCore
import EmulatorTestSupport

/// Bad and hostile input gets an HTTP error (or a close), and the server goes on serving everyone else.
final class HostileInputTests: XCTestCase {
    /// Short limits so the time-outs take a fraction of a second.
    private var limits: ServerLimits {
        var limits = ServerLimits()
        limits.maximumHeaderBytes = 1024
        limits.maximumBodyBytes = 1000
        limits.requestTimeout = 0.3
        limits.idleTimeout = 0.5
        limits.maximumConnections = 8
        return limits
    }

    /// Sends `bytes`, expects `status` and a close, then proves the server still answers a fresh client.
    private func assertRefused(_ bytes: String, with status: Int, _ why: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, server) = try startEchoServer(limits: limits)
        let hostile = try connect(to: server)
        hostile.send(bytes)
        let response = try hostile.readResponse(timeout: 2)
        XCTAssertEqual(response.status, status, "Expected \(status) for \(why); got \(response.status): \(response.bodyText)", file: file, line: line)
        XCTAssertTrue(hostile.serverCloses(within: 2), "Expected the server to close after refusing \(why)", file: file, line: line)
        try assertStillServing(server, file: file, line: line)
    }

    private func assertStillServing(_ server: EmulatorServer, file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try connect(to: server, file: file, line: line)
        fresh.send("GET", "/alive")
        XCTAssertEqual(try fresh.readResponse().status, 200, "Expected the server to go on serving other clients", file: file, line: line)
    }

    func test_garbage_is400() throws {
        try assertRefused("\u{01}\u{02}garbage\r\n\r\n", with: 400, "bytes that are not a request line")
    }

    func test_aHeaderLineWithoutColon_is400() throws {
        try assertRefused("GET / HTTP/1.1\r\nNoColonHere\r\n\r\n", with: 400, "a header line without a colon")
    }

    func test_anUnknownHTTPVersion_is505() throws {
        try assertRefused("GET / HTTP/2.0\r\n\r\n", with: 505, "HTTP/2.0 in the request line")
    }

    func test_headersOverTheLimit_are431() throws {
        try assertRefused("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 2000) + "\r\n\r\n", with: 431, "2 KB of headers")
    }

    func test_headersOverTheLimit_withoutEverEnding_are431() throws {
        try assertRefused("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 2000), with: 431, "a head that never ends")
    }

    func test_aBodyOverTheLimit_is413_beforeItIsRead() throws {
        try assertRefused("PUT / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", with: 413, "a 5000-byte body")
    }

    func test_aChunkedBodyOverTheLimit_is413() throws {
        let chunk = String(repeating: "x", count: 600)
        try assertRefused("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n",
                          with: 413, "a chunked body over the limit")
    }

    func test_aMalformedChunkSize_is400() throws {
        try assertRefused("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", with: 400, "a chunk size that is not hex")
    }

    func test_contentLengthAndChunked_together_are400() throws {
        try assertRefused("PUT / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", with: 400, "both framings (request smuggling)")
    }

    func test_conflictingContentLengths_are400() throws {
        try assertRefused("PUT / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", with: 400, "two different Content-Lengths")
    }

    func test_anUnknownTransferCoding_is501() throws {
        try assertRefused("PUT / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", with: 501, "a transfer coding the server does not know")
    }

    func test_anUnknownExpectation_is417() throws {
        try assertRefused("PUT / HTTP/1.1\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx", with: 417, "an expectation other than 100-continue")
    }

    /// `body.count + size` overflowed for a size line of 16 hex digits and trapped: one request killed `lab serve`.
    func test_aChunkSizeNearIntMax_is413_notACrash() throws {
        try assertRefused("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n7FFFFFFFFFFFFFFF\r\n", with: 413,
                          "a chunk of Int.max bytes after a first chunk")
    }

    func test_aSignedChunkSize_is400() throws {
        try assertRefused("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+1\r\nx\r\n0\r\n\r\n", with: 400,
                          "a chunk size with a sign (the grammar is hex digits only)")
    }

    /// A bare CR was passed on, and a CORS preflight reflected it into its own headers (a response-splitting seed).
    func test_aBareCRInAHeaderValue_is400() throws {
        try assertRefused("OPTIONS /a HTTP/1.1\r\nAccess-Control-Request-Headers: a\rSet-Cookie: x=1\r\n\r\n", with: 400,
                          "a bare CR inside a header value")
    }

    func test_aNULInAHeaderValue_is400() throws {
        try assertRefused("GET /a HTTP/1.1\r\nX-Name: a\u{0}b\r\n\r\n", with: 400, "a NUL inside a header value")
    }

    func test_aBareCRInTheRequestLine_is400() throws {
        try assertRefused("GET /a?x=1\rY HTTP/1.1\r\n\r\n", with: 400, "a bare CR inside the request line")
    }

    func test_twoHostHeaders_are400() throws {
        try assertRefused("GET /a HTTP/1.1\r\nHost: one\r\nHost: two\r\n\r\n", with: 400, "two Host headers (RFC 9112 §3.2)")
    }

    /// The Host was pasted before the path: `Host: x/threads` read `/threads/a`, `Host: x?shallow=true&` added a query.
    func test_aHostThatIsNotHostAndPort_is400_notPastedIntoTheURL() throws {
        for host in ["x/threads", "x?shallow=true&", "x#", "user@x", "x:port", "[::1"] {
            try assertRefused("GET /a HTTP/1.1\r\nHost: \(host)\r\n\r\n", with: 400, "Host: \(host)")
        }
        let (_, server) = try startEchoServer(limits: limits)
        for host in ["127.0.0.1:9000", "localhost", "[::1]:9000", "my-app.local"] {
            let client = try connect(to: server)
            client.send("GET /fine HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200, "Expected Host: \(host) to be served; got \(response.status): \(response.bodyText)")
            XCTAssertEqual(echo(response)?["path"], "/fine", "Expected Host: \(host) to leave the path alone")
        }
    }

    /// RFC 9112 §2.2: a server should skip empty lines before a request (a client may send CRLF after a body). The
    /// second request was refused with 400 and the connection closed.
    func test_emptyLinesBeforeARequest_areSkipped() throws {
        let (_, server) = try startEchoServer(limits: limits)
        let client = try connect(to: server)
        client.send("PUT /first HTTP/1.1\r\nContent-Length: 1\r\n\r\n1\r\n\r\nGET /second HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200, "setup: expected the PUT to be answered")
        let second = try client.readResponse()
        XCTAssertEqual(second.status, 200, "Expected the request after the stray CRLFs to be served; got \(second.status): \(second.bodyText)")
        XCTAssertEqual(echo(second)?["path"], "/second")
    }

    /// Closing with the body unread reset the connection: a client that writes its whole body before reading
    /// (Python's urllib, URLSession) saw "connection reset" instead of the 413 and its reason.
    func test_aBodyOverTheLimit_sentWhole_stillReadsThe413() throws {
        let (_, server) = try startEchoServer(limits: limits)
        let client = try connect(to: server)
        var bytes = Data("PUT /big HTTP/1.1\r\nContent-Length: 8000000\r\n\r\n".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 8_000_000))
        XCTAssertTrue(client.send(bytes), "Expected the server to read (and drop) the refused body rather than reset the connection")
        let response = try client.readResponse(timeout: 2)
        XCTAssertEqual(response.status, 413, "Expected 413 for an 8 MB body; got \(response.status): \(response.bodyText)")
        XCTAssertTrue(response.bodyText.contains("exceeds"), "Expected the 413 to say why; got \(response.bodyText)")
        XCTAssertTrue(client.serverCloses(within: 2), "Expected the server to close after the 413")
        try assertStillServing(server)
    }

    /// Each connection could hold a body of the limit at once: 20 clients sending 16 MB (all but the last byte)
    /// took `lab serve` from 76 MB to 595 MB, and 512 would take 8 GB. Bodies in flight now share one budget.
    func test_bodiesInFlight_shareOneBudget_andTheOneBeyondGets503() throws {
        var limits = self.limits
        limits.maximumBufferedBodyBytes = 1500
        limits.requestTimeout = 2
        let (_, server) = try startEchoServer(limits: limits)
        let first = try connect(to: server)
        // 100 Continue comes after the server reserved the first body's 1000 bytes: no timing luck.
        first.send("PUT /first HTTP/1.1\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try first.readHead().status, 100, "setup: expected 100 Continue for the first body")
        for (framing, body) in [("Content-Length: 1000", String(repeating: "b", count: 1000)),
                                ("Transfer-Encoding: chunked", "258\r\n" + String(repeating: "c", count: 600) + "\r\n0\r\n\r\n")] {
            let second = try connect(to: server)
            second.send("PUT /second HTTP/1.1\r\n\(framing)\r\n\r\n\(body)")
            let refused = try second.readResponse()
            XCTAssertEqual(refused.status, 503, "Expected 503 for a body (\(framing)) past the shared budget; got \(refused.status): \(refused.bodyText)")
            XCTAssertTrue(refused.bodyText.contains("other request bodies"), "Expected the 503 to say why; got \(refused.bodyText)")
        }
        first.send(String(repeating: "a", count: 1000))
        XCTAssertEqual(try first.readResponse().status, 200, "Expected the body within the budget to be served")
        let third = try connect(to: server)
        third.send("PUT", "/third", body: Data(repeating: UInt8(ascii: "d"), count: 1000))
        XCTAssertEqual(try third.readResponse().status, 200, "Expected the budget to be given back once the first body was served")
    }

    func test_aTargetThatIsNotAPath_is400() throws {
        try assertRefused("GET nonsense HTTP/1.1\r\n\r\n", with: 400, "a target that is neither a path nor a URL")
    }

    func test_aClientSendingAByteAtATime_gets408() throws {
        let (_, server) = try startEchoServer(limits: limits)
        let slow = try connect(to: server)
        let started = Date()
        var answered = false
        for byte in "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8 {
            guard slow.send(Data([byte])) else { break }  // the server may already have given up
            Thread.sleep(forTimeInterval: 0.05)
            if Date().timeIntervalSince(started) > 1 { break }
        }
        if let response = try? slow.readResponse(timeout: 1) {
            answered = true
            XCTAssertEqual(response.status, 408, "Expected 408 for a request still incomplete after the time-out")
        }
        XCTAssertTrue(answered, "Expected the slow client to get an answer (408) rather than wait forever")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "Expected the time-out (0.3 s) to cut the slow client off quickly")
        try assertStillServing(server)
    }

    func test_aTruncatedRequest_thenClose_leavesTheServerServing() throws {
        let (_, server) = try startEchoServer(limits: limits)
        let truncated = try connect(to: server)
        truncated.send("PUT /t HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly part")
        truncated.close()
        try assertStillServing(server)
    }

    func test_anIdleKeptAliveConnection_isClosedSilently() throws {
        let (_, server) = try startEchoServer(limits: limits)
        let idle = try connect(to: server)
        idle.send("GET", "/once")
        XCTAssertEqual(try idle.readResponse().status, 200, "setup: expected the first answer")
        let rest = try? idle.readUntilClose(timeout: 2)
        XCTAssertEqual(rest, Data(), "Expected an idle kept-alive connection to be closed after the idle time-out without a 408")
    }

    func test_connectionsBeyondTheLimit_get503_andTheOthersAreServed() throws {
        let (_, server) = try startEchoServer(limits: limits)
        var held: [LoopbackConnection] = []
        for _ in 0..<limits.maximumConnections {
            let connection = try connect(to: server)
            connection.send("GET", "/hold")
            XCTAssertEqual(try connection.readResponse().status, 200, "setup: expected each held connection to be served")
            held.append(connection)
        }
        let extra = try connect(to: server)
        XCTAssertEqual(try extra.readResponse().status, 503, "Expected a connection beyond the limit of \(limits.maximumConnections) to get 503")
        held[0].send("GET", "/still")
        XCTAssertEqual(try held[0].readResponse().status, 200, "Expected the admitted connections to go on being served")
        held.forEach { $0.close() }
    }

    func test_aClientThatVanishesMidStream_isForgotten_andOthersAreServed() throws {
        let (emulator, server) = try startEchoServer(limits: limits)
        let listener = try connect(to: server)
        listener.send("GET", "/stream")
        XCTAssertEqual(try listener.readHead().status, 200, "setup: expected the stream to start")
        listener.close()
        let deadline = Date(timeIntervalSinceNow: 2)
        while Date() < deadline, emulator.withService({ $0.streams.contains { !$0.isCancelled } }) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertFalse(emulator.withService { $0.streams.contains { !$0.isCancelled } },
                       "Expected the server to notice the vanished client within 2 s and cancel its stream")
        try assertStillServing(server)
    }
}
