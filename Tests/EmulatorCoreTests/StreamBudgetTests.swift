import XCTest
@testable import EmulatorCore

/// A stream holds what its client has not read yet; `StreamBudget` bounds that per stream and in total, and drops
/// the client that would go past it — never one that keeps up.
final class StreamBudgetTests: XCTestCase {
    private func piece(_ kilobytes: Int) -> Data { Data(count: kilobytes << 10) }

    func test_aStreamNeverRead_isCancelledPastItsLimit_andFreesWhatItHeld() {
        let budget = StreamBudget(perStream: 100 << 10, total: 1 << 20)
        let stream = EventStream(headers: [:], budget: budget)
        for _ in 0..<3 { stream.send(piece(40)) }
        XCTAssertTrue(stream.isCancelled, "Expected the third 40 KB piece to take it past 100 KB unread, and cancel it")
        XCTAssertEqual(budget.heldBytes, 0, "Expected a cancelled stream to hold nothing")
        XCTAssertEqual(stream.next(timeout: 0), .end, "Expected the transport to see the end")
    }

    func test_aReaderThatKeepsUp_isNeverDropped_evenForPiecesOverTheLimit() {
        let budget = StreamBudget(perStream: 10 << 10, total: 20 << 10)
        let stream = EventStream(headers: [:], budget: budget)
        for _ in 0..<5 {
            stream.send(piece(50))
            XCTAssertEqual(stream.next(timeout: 0), .piece(piece(50)), "Expected each piece delivered")
            // The transport asks for the next piece once it has written this one: then nothing is unread.
            XCTAssertEqual(stream.next(timeout: 0), .idle, "Expected nothing more queued")
        }
        XCTAssertFalse(stream.isCancelled, "Expected a stream with nothing unread to accept any one piece")
        XCTAssertEqual(budget.heldBytes, 0, "Expected the delivered pieces released")
    }

    func test_theTotal_dropsTheStreamThatWouldPassIt() {
        let budget = StreamBudget(perStream: 100 << 10, total: 120 << 10)
        let first = EventStream(headers: [:], budget: budget), second = EventStream(headers: [:], budget: budget)
        first.send(piece(60))
        first.send(piece(30))
        second.send(piece(20))
        second.send(piece(20))
        XCTAssertFalse(first.isCancelled, "Expected the first stream within both limits")
        XCTAssertTrue(second.isCancelled, "Expected the second stream dropped: 130 KB unread in all is past 120 KB")
        XCTAssertEqual(budget.heldBytes, 90 << 10, "Expected only the first stream's bytes held")
    }

    func test_overBudget_tellsTheTransportToDropItsClient() {
        let stream = EventStream(headers: [:], budget: StreamBudget(perStream: 1 << 10, total: 1 << 20))
        var dropped = false
        stream.whenCancelled { dropped = true }
        stream.send(piece(1))
        stream.send(piece(1))
        XCTAssertTrue(dropped, "Expected the transport told at once, so a blocked write does not wait for its time-out")
    }
}
