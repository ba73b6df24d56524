import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator

/// A test that stopped early (a completion missed on a busy machine, an assertion that threw) may leave a task of the
/// learner's still on its way. Once the test's emulator is gone, that task would arrive as a stray request, and the
/// next test would blame it on its own call ("not under baseURL"): a verdict that changes with the machine's load.
/// So before each test's tearDown (which releases its emulators), the emulators created since the last test get up
/// to a second to receive what is still running. At once when nothing runs.
enum RunningTasks {
    /// `FirebaseEmulator.createdCount` when the last test ended: the emulators created since are this test's.
    private static let lastMark = Box<Int>()

    static func letArrive(within seconds: TimeInterval) {
        let mark = lastMark.get() ?? 0
        lastMark.set(FirebaseEmulator.createdCount)
        let sessions = FirebaseEmulator.sessions(createdAfter: mark)
        guard !sessions.isEmpty else { return }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, anyRunning(sessions) {
            RunLoop.current.run(until: Date().addingTimeInterval(0.02))
        }
    }

    /// Whether any of `sessions` has a task still running. Sessions that have not answered within half a second count
    /// as running: on a busy machine their queue may just be late (taking that for "nothing runs" let a task that was
    /// 0.3 s from its answer stray), and `letArrive`'s bound still ends the wait.
    private static func anyRunning(_ sessions: [URLSession]) -> Bool {
        guard let tasks = URLSession.tasks(of: sessions, within: 0.5) else { return true }
        return tasks.contains { $0.state == .running }
    }
}
