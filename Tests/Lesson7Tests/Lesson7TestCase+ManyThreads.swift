import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LabSupport
import LabTestSupport
import Lesson7

/// Calls from many threads at once, for the service's shared state (§7.6: calls come from any thread, answers on
/// the session's queue). The answers come back while 8 threads are still calling and cancelling: the service's state
/// is read and written from many threads together, hundreds of times a round. Unguarded
/// state loses entries (closures that never come, or come twice) or breaks (the test crashes, and `lab` names the
/// Dictionary or Array that broke). One round caught an unguarded dictionary in 7 runs of 8; every round runs on a new
/// service, up to 6 of them, as many as fit in about a second.
extension Lesson7TestCase {
    /// Runs `rounds` rounds of `threads` × `callsEach` calls; `start(thread, index, log)` makes one call and returns
    /// whether it cancelled it. Stops the test at the first round where a call that was not cancelled never ended,
    /// or any call ended twice, with `what` naming the state that was lost.
    func callFromManyThreads(_ exercise: Exercise, what: String, threads: Int = 8, callsEach: Int = 60, rounds: Int = 6,
                             budget: TimeInterval = 1.2,
                             file: StaticString = #filePath, line: UInt = #line,
                             _ start: @escaping (ChatCaveService, Int, Int, CallLog<Void>) -> Bool) throws {
        // The session's own (serial) queue for the answers: corelibs cannot finish and cancel one task on a
        // queue that runs several handlers at once (it removes the task twice and stops the program).
        let session = URLSession(configuration: emulator.session.configuration)
        defer { session.invalidateAndCancel() }
        // Answers come 0.2 s after their requests: while the callers are still calling (the two sides overlap), and
        // long after any cancel — corelibs stops the program when a cancel meets the answer it cancels.
        let latency = emulator.latency
        emulator.latency = 0.2
        defer { emulator.latency = latency }
        let started = Date()
        // Rounds until `budget` is spent: on a machine grading a class the rounds are slower and fewer, and the
        // test never nears the grader's 5 s.
        for _ in 1...rounds where Date().timeIntervalSince(started) < budget {
            // A new service each round: its state starts empty and grows while the threads run (a growing
            // Dictionary moves its storage: the moment two unguarded writers break it).
            let service = ChatCaveService(baseURL: emulator.baseURL, session: session, credentials: Self.ada)
            let logs = (0..<threads * callsEach).map { _ in CallLog<Void>() }
            let cancelled = (0..<threads * callsEach).map { _ in Flag() }
            // Threads of their own rather than concurrentPerform: a Dictionary broken by two writers can make a lookup
            // loop forever, and the test must still end, and say so.
            let callers = DispatchGroup()
            for thread in 0..<threads {
                DispatchQueue.global().async(group: callers) {
                    for index in 0..<callsEach where start(service, thread, index, logs[thread * callsEach + index]) {
                        cancelled[thread * callsEach + index].set()
                    }
                }
            }
            let returned = callers.wait(timeout: .now() + 2) == .success
            if !StubLog.recorded.isEmpty { throw fail("stub", file: file, line: line) }
            guard returned else {
                throw fail("""
                    \(threads) threads made \(logs.count) calls at once, and after 2 s some calls had still not returned: \
                    the service's shared state (\(what)) was changed from several threads at once, with no lock — a \
                    Dictionary broken that way can even make a lookup loop forever. Guard every read and write of it — \
                    an NSLock around each, or a serial DispatchQueue. See \(exercise.reference).
                    """, file: file, line: line)
            }
            let kept = logs.indices.filter { !cancelled[$0].isSet }.map { logs[$0] }
            _ = eventually(within: 2) { kept.allSatisfy { !$0.calls.isEmpty } }
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
