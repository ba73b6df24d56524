import Foundation
import XCTest
import LabSupport
import FirebaseEmulator

/// Counts the calls of one completion handler, from whatever queue they come.
final class CompletionCounter<Value> {
    private let lock = NSLock()
    private var values: [Value] = []
    let called: XCTestExpectation

    init(_ exercise: Exercise) {
        called = XCTestExpectation(description: "completion of \(exercise.function)")
    }

    func record(_ value: Value) {
        lock.lock()
        values.append(value)
        let first = values.count == 1
        lock.unlock()
        if first { called.fulfill() }
    }

    var calls: [Value] {
        lock.lock(); defer { lock.unlock() }
        return values
    }
}

extension LabTestCase {
    /// Calls the learner's function through `start`, handing it a completion handler, and waits for that handler:
    /// it must be called exactly once, within `timeout` seconds. Returns the value it was called with.
    ///
    /// Stops the test (throws) with a message naming the likely cause when a stub ran, when the handler was not
    /// called in time, or when it was called twice. A second call that comes later is caught when the test ends.
    public func awaitCompletion<Value>(
        of exercise: Exercise,
        on emulator: FirebaseEmulator,
        timeout: TimeInterval = 2,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ start: (@escaping (Value) -> Void) -> Void
    ) throws -> Value {
        let counter = CompletionCounter<Value>(exercise)
        start { counter.record($0) }
        let waited = CompletionTimeouts.timeout(for: exercise, normally: timeout)
        let outcome = XCTWaiter().wait(for: [counter.called], timeout: waited)

        if let stub = StubLog.recorded.first {
            throw fail(LabTestCase.notStartedMessage(stub), file: file, line: line)
        }
        guard outcome == .completed, let value = counter.calls.first else {
            CompletionTimeouts.noteTimeout(of: exercise)
            throw fail(TrafficReport(emulator).missingCompletion(exercise, timeout: waited), file: file, line: line)
        }
        // A second call usually follows at once, from the same handler: give it a moment to show.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.02))
        if counter.calls.count > 1 {
            throw fail(Self.calledTwice(exercise, times: counter.calls.count), file: file, line: line)
        }
        checksAtEnd.append {
            if counter.calls.count > 1 {
                XCTFail(Self.calledTwice(exercise, times: counter.calls.count), file: file, line: line)
            }
        }
        return value
    }

    static func calledTwice(_ exercise: Exercise, times: Int) -> String {
        """
        \(exercise.function) called its completion \(times) times; it must be called exactly once. \
        The usual cause: `completion(error)` without a `return` after it, so the code goes on and calls completion again. \
        See \(exercise.reference).
        """
    }
}

/// Once a function has missed its completion, its later tests wait less: a forgotten `resume()` should cost a
/// learner a few seconds per run, not two seconds for every test of the lesson. Correct code never times out.
enum CompletionTimeouts {
    private static let lock = NSLock()
    private static var missed: Set<String> = []
    static let afterAMiss: TimeInterval = 0.5

    static func timeout(for exercise: Exercise, normally timeout: TimeInterval) -> TimeInterval {
        lock.lock(); defer { lock.unlock() }
        return missed.contains(exercise.function) ? min(timeout, afterAMiss) : timeout
    }

    static func noteTimeout(of exercise: Exercise) {
        lock.lock(); defer { lock.unlock() }
        missed.insert(exercise.function)
    }
}
