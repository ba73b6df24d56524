import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LabSupport
import LabTestSupport
import Lesson7

/// Calls from many threads at once, for the service's shared state (§7.6: calls come from any thread, answers on
/// the session's queue). The answers come on a queue that runs several handlers at once — a session may have one —
/// so the service's state is read and written from many threads together, hundreds of times a round. Unguarded
/// state loses entries (closures that never come, or come twice) or breaks (the test crashes, and `lab` names the
/// Dictionary or Array that broke). One round caught an unguarded dictionary in 7 runs of 8; up to 6 rounds run.
extension Lesson7TestCase {
    /// Runs `rounds` rounds of `threads` × `callsEach` calls; `start(thread, index, log)` makes one call and returns
    /// whether it cancelled it. Stops the test at the first round where a call that was not cancelled never ended,
    /// or any call ended twice, with `what` naming the state that was lost.
    func callFromManyThreads(_ exercise: Exercise, what: String, threads: Int = 8, callsEach: Int = 60, rounds: Int = 6,
                             file: StaticString = #filePath, line: UInt = #line,
                             _ start: @escaping (ChatCaveService, Int, Int, CallLog<Void>) -> Bool) throws {
        let answers = OperationQueue()
        answers.maxConcurrentOperationCount = threads
        let session = URLSession(configuration: emulator.session.configuration, delegate: nil, delegateQueue: answers)
        defer { session.invalidateAndCancel() }
        let service = ChatCaveService(baseURL: emulator.baseURL, session: session, credentials: Self.ada)
        for _ in 1...rounds {
            let logs = (0..<threads * callsEach).map { _ in CallLog<Void>() }
            let cancelled = (0..<threads * callsEach).map { _ in Flag() }
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<callsEach where start(service, thread, index, logs[thread * callsEach + index]) {
                    cancelled[thread * callsEach + index].set()
                }
            }
            if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }
            let kept = logs.indices.filter { !cancelled[$0].isSet }.map { logs[$0] }
            _ = eventually(within: 5) { kept.allSatisfy { !$0.calls.isEmpty } }
            _ = eventually(within: 0.05) { false }
            let unanswered = kept.filter { $0.calls.isEmpty }.count
            let twice = logs.filter { $0.calls.count > 1 }.count
            guard unanswered == 0, twice == 0 else {
                throw fail("""
                    \(threads) threads made \(logs.count) calls at once (cancelling \(logs.count - kept.count)): \(unanswered) \
                    of the \(kept.count) calls not cancelled never called success or failure\(twice > 0 ? ", and \(twice) called them twice" : ""). \
                    The service lost track of \(what): its shared state was changed from several threads at once, \
                    with no lock. Guard every read and write of it — an NSLock around each, or a serial \
                    DispatchQueue. See \(exercise.reference).
                    """, file: file, line: line)
            }
        }
    }
}

/// Set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
