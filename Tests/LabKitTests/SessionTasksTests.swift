import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator
import LabTestSupport

/// `URLSession.tasks(of:within:)` lists sessions' tasks, and says "no answer" (nil) rather than "no tasks" when a
/// session's queue is busy: the waits built on it must not take a late answer for "nothing runs".
final class SessionTasksTests: XCTestCase {
    func test_aRunningTask_isListed_andAnIdleSession_hasNone() {
        let idle = URLSession(configuration: .ephemeral)
        let emulator = FirebaseEmulator()
        emulator.latency = 10
        let task = emulator.session.dataTask(with: emulator.baseURL.appendingPathComponent(".json")) { _, _, _ in }
        task.resume()
        XCTAssertEqual(idle.tasks(within: 2)?.count, 0, "Expected an idle session to list no tasks")
        let listed = URLSession.tasks(of: [idle, emulator.session], within: 2)
        XCTAssertEqual(listed?.count, 1, "Expected the two sessions' tasks listed together: the one running task")
        XCTAssertTrue(listed?.first === task, "Expected the task listed to be the one made")
        task.cancel()
        idle.invalidateAndCancel()
    }

    func test_aSessionWhoseQueueIsHeld_givesNoAnswer_notAnEmptyList() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: queue)
        let release = DispatchSemaphore(value: 0)
        queue.addOperation { _ = release.wait(timeout: .now() + 5) }
        XCTAssertNil(session.tasks(within: 0.3), "Expected no answer while the session's delegate queue is held")
        release.signal()
        XCTAssertEqual(session.tasks(within: 2)?.count, 0, "Expected the answer once the queue is free")
        session.invalidateAndCancel()
    }
}
