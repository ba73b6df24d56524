import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// Stream clients that never read must not take the server's memory: 50 of them and 20 writes of 1 MB took
/// `lab serve` from 32 to 342 MB. Each is dropped past its budget (`StreamBudget`), not the server, and a client
/// that reads keeps getting every event.
final class SlowStreamReaderTests: XCTestCase {
    func test_clientsThatNeverRead_areDropped_andAReaderKeepsItsEvents() throws {
        let emulator = FirebaseEmulator()
        let server = try serve(emulator)
        var stalled: [LoopbackConnection] = []
        for _ in 0..<50 {
            let connection = try connect(to: server)
            connection.send("GET", "/big.json", headers: ["Accept": "text/event-stream"])
            stalled.append(connection)  // never read
        }
        let reader = try connect(to: server)
        reader.send("GET", "/big.json", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try reader.readHead().status, 200, "setup: expected the reading stream to open")
        let events = EventStreamReader(reader)
        _ = try events.next()
        let deadline = Date(timeIntervalSinceNow: 5)
        while emulator.openStreamCount < 51 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(emulator.openStreamCount, 51, "setup: expected 51 streams open")

        let writer = try connect(to: server)
        let megabyte = String(repeating: "x", count: 1 << 20)
        for round in 0..<20 {
            writer.send("PUT", "/big.json?print=silent", body: JSONValue.string("\(round)" + megabyte).jsonData)
            XCTAssertEqual(try writer.readResponse(timeout: 10).status, 204, "setup: expected write \(round) to succeed")
            let event = try events.next(timeout: 10)
            XCTAssertTrue(event.data.contains("\"data\":\"\(round)x"), "Expected the reading client to get write \(round)")
            XCTAssertLessThanOrEqual(StreamBudget.shared.heldBytes, StreamBudget.shared.total + (51 << 20),
                                     "Expected unread bytes bounded by the budget (plus one piece per stream)")
        }
        try write("PUT", "/big.json", "small", on: writer)  // lets the service forget the dropped streams
        XCTAssertEqual(emulator.openStreamCount, 1, "Expected the 50 clients that never read dropped, the reader kept")
        XCTAssertLessThanOrEqual(StreamBudget.shared.heldBytes, 1 << 20, "Expected the dropped clients' bytes released")
        writer.send("GET", "/big.json")
        XCTAssertEqual(try writer.readResponse().bodyText, "\"small\"", "Expected the server still serving")
        _ = stalled
    }
}
