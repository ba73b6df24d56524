import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LabTestCase {
    /// Waits (briefly) until `session`'s queue has run everything queued so far, then runs the main queue: work a
    /// handler does after calling its completion (or sends to the main queue) is done before the test looks.
    public func settle(_ session: URLSession) {
        let drained = XCTestExpectation(description: "the session's queue is idle")
        session.delegateQueue.addOperation { drained.fulfill() }
        _ = XCTWaiter().wait(for: [drained], timeout: 1)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
    }
}
