import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// Stream clients that never read must not take the server's memory: 50 of them and 20 writes of 1 MB took
/// `lab serve` from 32 to 342 MB. Each is dropped past its budget (`StreamBudget`), not the server, and a client
/// that reads keeps getting every event. The same scenario runs here at a small scale, so it takes a fraction of a
/// second rather than 16: the emulator's own budget (128 KB a stream, 512 KB in all; `lab serve` has 4 and 32 MB)
/// and small kernel buffers on both ends (otherwise loopback sockets absorb megabytes before a stream holds any).
final class SlowStreamReaderTests: XCTestCase {
    func test_clientsThatNeverRead_areDropped_andAReaderKeepsItsEvents() throws {
        let budget = StreamBudget(perStream: 128 << 10, total: 512 << 10)
        let emulator = FirebaseEmulator()
        emulator.withService { $0.streamBudget = budget }
        var limits = ServerLimits()
        limits.sendBufferBytes = 16 << 10
        let server = try serve(emulator, limits: limits)
        let stalledCount = 10
        var stalled: [LoopbackConnection] = []
        for _ in 0..<stalledCount {
            let connection = try XCTUnwrap(LoopbackConnection(port: server.port, receiveBuffer: 4096), "setup: could not connect")
            connection.send("GET", "/big.json", headers: ["Accept": "text/event-stream"])
            stalled.append(connection)  // never read
        }
        let reader = try connect(to: server)
        reader.send("GET", "/big.json", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try reader.readHead().status, 200, "setup: expected the reading stream to open")
        let events = EventStreamReader(reader)
        _ = try events.next()
        let deadline = Date(timeIntervalSinceNow: 5)
        while emulator.openStreamCount < stalledCount + 1 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(emulator.openStreamCount, stalledCount + 1, "setup: expected \(stalledCount + 1) streams open")

        // 24 writes of 16 KB: more than a stalled client's kernel buffers and its budget together, twice over.
        let writer = try connect(to: server)
        let piece = String(repeating: "x", count: 16 << 10)
        for round in 0..<24 {
            writer.send("PUT", "/big.json?print=silent", body: JSONValue.string("\(round)" + piece).jsonData)
            XCTAssertEqual(try writer.readResponse(timeout: 10).status, 204, "setup: expected write \(round) to succeed")
            let event = try events.next(timeout: 10)
            XCTAssertTrue(event.data.contains("\"data\":\"\(round)x"), "Expected the reading client to get write \(round)")
            XCTAssertLessThanOrEqual(budget.heldBytes, budget.total + (stalledCount + 1) * (piece.utf8.count + 100),
                                     "Expected unread bytes bounded by the budget (plus one piece per stream)")
        }
        try write("PUT", "/big.json", "small", on: writer)  // lets the service forget the dropped streams
        XCTAssertEqual(emulator.openStreamCount, 1, "Expected the \(stalledCount) clients that never read dropped, the reader kept")
        XCTAssertLessThanOrEqual(budget.heldBytes, piece.utf8.count + 100, "Expected the dropped clients' bytes released")
        writer.send("GET", "/big.json")
        XCTAssertEqual(try writer.readResponse().bodyText, "\"small\"", "Expected the server still serving")
        _ = stalled
    }
}
