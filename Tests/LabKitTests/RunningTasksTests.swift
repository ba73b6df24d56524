import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator
@testable import LabTestSupport

/// Before each graded test's tearDown, a task the learner's code left running gets to reach that test's emulator
/// instead of straying into the next test (RunningTasks).
final class RunningTasksTests: XCTestCase {
    func test_aTaskStillRunning_endsOnItsOwnEmulator() {
        let emulator = FirebaseEmulator()
        emulator.latency = 0.3
        let task = emulator.session.dataTask(with: emulator.baseURL.appendingPathComponent(".json")) { _, _, _ in }
        task.resume()
        RunningTasks.letArrive(within: 3)
        XCTAssertEqual(task.state, .completed, "Expected the wait to last until the running task had its answer")
        XCTAssertEqual(emulator.requests.count, 1, "Expected the request to reach its own emulator")
    }

    func test_theWaitIsBounded() {
        let emulator = FirebaseEmulator()
        emulator.latency = 10
        let task = emulator.session.dataTask(with: emulator.baseURL.appendingPathComponent(".json")) { _, _, _ in }
        task.resume()
        let start = Date()
        RunningTasks.letArrive(within: 0.5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "Expected the wait to stop near its bound (0.5 s)")
        task.cancel()
    }

    func test_emulatorsOfEarlierTests_areNotWaitedFor() {
        let earlier = FirebaseEmulator()
        earlier.latency = 10
        let task = earlier.session.dataTask(with: earlier.baseURL.appendingPathComponent(".json")) { _, _, _ in }
        task.resume()
        RunningTasks.letArrive(within: 0.2)  // the earlier test ends
        let start = Date()
        RunningTasks.letArrive(within: 5)  // this test created no emulator
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "Expected only the emulators created since the last test to be waited for")
        task.cancel()
    }
}
