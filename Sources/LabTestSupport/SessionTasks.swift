import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// The tasks of all `sessions`, as `getAllTasks` lists them; nil when a session has not answered within `timeout`
    /// (a busy machine, or a delegate queue the learner's code holds). Callers decide what "no answer" means: for a
    /// wait that lets running work finish, it must mean "maybe running", never "nothing runs" — that is a race.
    /// The answers come on each session's delegate queue, which may be the main queue, so this waits with XCTWaiter
    /// (which runs the run loop), never by blocking the thread.
    public static func tasks(of sessions: [URLSession], within timeout: TimeInterval) -> [URLSessionTask]? {
        let listed = Box<[URLSessionTask]>()
        let answered = XCTestExpectation(description: "the sessions' tasks are listed")
        answered.expectedFulfillmentCount = max(sessions.count, 1)
        if sessions.isEmpty { answered.fulfill() }
        for session in sessions {
            session.getAllTasks { tasks in
                listed.update(startingFrom: []) { $0 += tasks }
                answered.fulfill()
            }
        }
        guard XCTWaiter().wait(for: [answered], timeout: timeout) == .completed else { return nil }
        return listed.get() ?? []
    }

    /// This session's tasks, or nil when it has not answered within `timeout` (see `tasks(of:within:)`).
    public func tasks(within timeout: TimeInterval) -> [URLSessionTask]? {
        Self.tasks(of: [self], within: timeout)
    }
}
