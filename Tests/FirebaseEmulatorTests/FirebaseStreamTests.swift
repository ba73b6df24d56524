import XCTest
import FirebaseEmulator
import EmulatorTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Firebase's REST event streams over the socket server, pinned to the recorded streams in Fixtures/streams.
final class FirebaseStreamTests: XCTestCase {
    /// Opens a stream at `target` and checks its head; the reader yields its events.
    private func listen(_ target: String, on server: EmulatorServer, file: StaticString = #filePath, line: UInt = #line) throws
        -> (LoopbackConnection, EventStreamReader) {
        let connection = try connect(to: server, file: file, line: line)
        connection.send("GET", target, headers: ["Accept": "text/event-stream"])
        let head = try connection.readHead()
        XCTAssertEqual(head.status, 200, "setup: expected the stream at \(target) to open", file: file, line: line)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8", "Expected the event-stream type", file: file, line: line)
        return (connection, EventStreamReader(connection))
    }

    func test_everyRecordedStream() throws {
        let files = try FixturePaths.jsonFiles(in: FixturePaths.streams)
        XCTAssertGreaterThanOrEqual(files.count, 3, "Expected the recorded streams in \(FixturePaths.streams.path)")
        for url in files {
            let recorded = try RecordedStream.load(url)
            let name = "Fixtures/streams/\(recorded.file)"
            let server = try serve(recorded.makeEmulator())
            let (_, events) = try listen(recorded.listen, on: server)
            let writer = try connect(to: server)
            for write in recorded.writes {
                writer.send(write.method, write.path, body: write.body?.jsonData)
                XCTAssertLessThan(try writer.readResponse().status, 300, "\(name): setup: \(write.method) \(write.path) failed")
            }
            for (index, expected) in recorded.events.enumerated() {
                guard let event = try? events.next() else {
                    XCTFail("\(name): expected event \(index + 1), \(expected.name) \(expected.data); none came within 2 s")
                    break
                }
                XCTAssertEqual(event.name, expected.name, "\(name): event \(index + 1)'s name")
                XCTAssertEqual(try? JSONValue(data: Data(event.data.utf8)), expected.data, "\(name): event \(index + 1)'s data")
                XCTAssertEqual(event.raw, "event: \(event.name)\ndata: \(event.data)\n\n", "\(name): event \(index + 1)'s framing")
            }
            XCTAssertThrowsError(try events.next(timeout: 0.2), "\(name): expected no event beyond the recorded ones")
        }
    }

    func test_aWriteThroughTheSession_reachesAListenerOnTheSocket() throws {
        let emulator = FirebaseEmulator()
        let (_, events) = try listen("/.json", on: try serve(emulator))
        _ = try events.next()
        var request = URLRequest(url: emulator.baseURL.appendingPathComponent("from-session.json"))
        request.httpMethod = "PUT"
        request.httpBody = Data("true".utf8)
        XCTAssertEqual(run(request, on: emulator.session)?.response?.statusCode, 200, "setup: expected the PUT through the session")
        XCTAssertEqual(try events.next().data, #"{"path":"/from-session","data":true}"#,
                       "Expected a write from any client, over either transport, to reach the stream")
    }

    func test_urlSession_receivesEventsAsTheyHappen() throws {
        let emulator = FirebaseEmulator()
        let server = try serve(emulator)
        let received = StreamCollector()
        let session = URLSession(configuration: .ephemeral, delegate: received, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent(".json"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        session.dataTask(with: request).resume()
        XCTAssertTrue(received.wait(forText: "event: put\ndata: {\"path\":\"/\",\"data\":null}\n\n"),
                      "Expected URLSession to deliver the snapshot while the stream stays open; got \(received.text.debugDescription)")
        emulator.load(["live": true])  // not a write: no event
        let writer = try connect(to: server)
        try write("PUT", "/live.json", false, on: writer)
        XCTAssertTrue(received.wait(forText: "data: {\"path\":\"/live\",\"data\":false}"),
                      "Expected URLSession to deliver the write's event as it happened; got \(received.text.debugDescription)")
    }

    func test_aQuietStream_getsKeepAliveEvents() throws {
        let emulator = FirebaseEmulator()
        emulator.withService { $0.keepAliveInterval = 0.1 }
        let (_, events) = try listen("/.json", on: try serve(emulator))
        XCTAssertEqual(try events.next().name, "put", "setup: expected the snapshot first")
        let keepAlive = try events.next(timeout: 1)
        XCTAssertEqual(keepAlive.raw, "event: keep-alive\ndata: null\n\n", "Expected Firebase's keep-alive event when idle")
    }

    func test_endStreams_sendsCancelOrAuthRevoked_andCloses() throws {
        for (ending, expected) in [(FirebaseService.StreamEnding.cancel, "event: cancel\ndata: null\n\n"),
                                   (.authRevoked, "event: auth_revoked\ndata: \"credential is no longer valid\"\n\n")] {
            let emulator = FirebaseEmulator()
            let (_, events) = try listen("/.json", on: try serve(emulator))
            _ = try events.next()
            emulator.endStreams(ending)
            XCTAssertEqual(try events.next().raw, expected, "Expected the stream's last event")
            XCTAssertThrowsError(try events.next(timeout: 1), "Expected the stream to end after \(expected)")
        }
    }

    func test_aStreamWithoutJSONSuffix_isRefusedLikeAGet() throws {
        let server = try serve(FirebaseEmulator())
        let connection = try connect(to: server)
        connection.send("GET", "/threads", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try connection.readResponse().status, 403, "Expected the missing .json to be refused before streaming")
    }

    func test_throughTheSession_streamingIsRefused_withAMessageNamingTheSocketServer() throws {
        let emulator = FirebaseEmulator()
        var request = URLRequest(url: emulator.baseURL.appendingPathComponent(".json"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let response = emulator.handle(request)
        XCTAssertEqual(response.statusCode, 406, "Expected streaming through the URLProtocol to be refused")
        XCTAssertTrue(response.bodyJSON?["error"].stringValue?.contains("lab serve") == true,
                      "Expected the refusal to say where streams work, got \(response.bodyText ?? "")")
        XCTAssertEqual(emulator.openStreamCount, 0, "Expected the refused stream to be forgotten")
    }

    func test_concurrentWriters_reachTheListenerInOrder_andItsCacheEndsEqualToTheDatabase() throws {
        let emulator = FirebaseEmulator()
        let server = try serve(emulator)
        let (_, events) = try listen("/counters.json", on: server)
        XCTAssertEqual(try events.next().data, #"{"path":"/","data":null}"#, "setup: expected an empty snapshot")
        let writers = 4, writes = 25
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            guard let connection = LoopbackConnection(port: server.port) else { return }
            for index in 1...writes {
                connection.send("PUT", "/counters/w\(writer).json", body: Data("\(index)".utf8))
                _ = try? connection.readResponse()
            }
        }
        var last: [String: Double] = [:]
        for number in 1...(writers * writes) {
            let event = try events.next()
            let payload = try JSONValue(data: Data(event.data.utf8))
            guard let path = payload["path"].stringValue, let value = payload["data"].numberValue else {
                XCTFail("Expected event \(number) to be a put of one counter, got \(event)")
                return
            }
            XCTAssertGreaterThan(value, last[path] ?? 0, "Expected \(path)'s values in the order they were written")
            last[path] = value
        }
        let expected = Dictionary(uniqueKeysWithValues: (0..<writers).map { ("/w\($0)", Double(writes)) })
        XCTAssertEqual(last, expected, "Expected the listener's last values to be every writer's last write")
        XCTAssertEqual(emulator.value(at: "/counters"), .object(Dictionary(uniqueKeysWithValues: (0..<writers).map { ("w\($0)", JSONValue.number(Double(writes))) })),
                       "Expected the database to hold each writer's last write")
    }
}

/// A data-task delegate that keeps what a stream delivered so far.
final class StreamCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var received = ""

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        condition.lock()
        received += String(decoding: data, as: UTF8.self)
        condition.broadcast()
        condition.unlock()
    }

    /// True once the text received so far contains `expected`, within `timeout` seconds.
    func wait(forText expected: String, timeout: TimeInterval = 2) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !received.contains(expected) {
            if !condition.wait(until: deadline) { return received.contains(expected) }
        }
        return true
    }
}
