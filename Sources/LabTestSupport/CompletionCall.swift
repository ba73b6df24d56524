import Foundation
import XCTest
import LabSupport
import FirebaseEmulator

/// Counts the calls of one completion handler, from whatever queue they come, and when each came.
public final class CompletionCounter<Value> {
    private let lock = NSLock()
    private var values: [(value: Value, at: Date)] = []

    public init() {}

    public func record(_ value: Value) {
        lock.lock()
        values.append((value, Date()))
        lock.unlock()
    }

    public var calls: [(value: Value, at: Date)] {
        lock.lock(); defer { lock.unlock() }
        return values
    }
}

extension LabTestCase {
    /// Calls the learner's function through `start`, handing it a completion handler, and waits for that handler:
    /// it must be called exactly once, within `timeout` seconds, and — when the emulator has a latency — not before
    /// the server's answer could have arrived. Returns the value it was called with.
    ///
    /// Stops the test (throws) with a message naming the cause it saw when a stub ran, when the handler was not
    /// called in time, called early, or called twice. A second call that comes later is caught when the test ends.
    public func awaitCompletion<Value, Service>(
        of exercise: Exercise,
        on emulator: Emulator<Service>,
        timeout: TimeInterval = CompletionTimeouts.normal,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ start: (@escaping (Value) -> Void) -> Void
    ) throws -> Value {
        let counter = CompletionCounter<Value>()
        let requestsBefore = emulator.requests.count
        let latency = emulator.latency
        start { counter.record($0) }
        // A stub that returns without calling its completion (it has no error to pass) is seen at once, not after the wait.
        if counter.calls.isEmpty, let stub = StubLog.recorded.first {
            throw fail(LabTestCase.notStartedMessage(stub), file: file, line: line)
        }
        let waited = CompletionTimeouts.timeout(for: exercise, normally: timeout)
        let quiet = CompletionTimeouts.quietTimeout(for: exercise, normally: waited)
        let outcome = Self.wait(until: { !counter.calls.isEmpty }, timeout: waited, orNoTrafficAfter: quiet) {
            emulator.requests.count == requestsBefore && SessionTripwire.requests.isEmpty && FirebaseEmulator.strayRequests.isEmpty
        }

        if let stub = StubLog.recorded.first {
            throw fail(LabTestCase.notStartedMessage(stub), file: file, line: line)
        }
        guard outcome == .completed, let first = counter.calls.first else {
            let earlier = CompletionTimeouts.noteTimeout(of: exercise, test: name)
            let report = TrafficReport(emulator)
            let message = outcome == .quiet
                ? report.missingCompletionWithoutRequest(exercise, waited: quiet)
                : report.missingCompletion(exercise, waited: waited, earlierMiss: earlier, normal: timeout)
            throw fail(message, file: file, line: line)
        }
        // A second call usually follows at once, from the same handler: give it a moment to show.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.02))
        let sent = Array(emulator.requests.dropFirst(requestsBefore))
        // A request sent elsewhere fails at once: say where it went, not that the answer came early.
        if let wrongPlace = TrafficReport(emulator).wrongPlace(exercise, baseURL: emulator.baseURL) {
            throw fail(wrongPlace, file: file, line: line)
        }
        if latency > 0 {
            var sent = sent
            if sent.isEmpty {  // sent late, or never? Never means a path that answers without asking the server.
                RunLoop.current.run(until: Date(timeIntervalSinceNow: min(latency, 0.2) + 0.1))
                sent = Array(emulator.requests.dropFirst(requestsBefore))
                if sent.isEmpty, SessionTripwire.requests.isEmpty {
                    throw fail(Self.calledWithoutRequest(exercise, value: first.value), file: file, line: line)
                }
            }
            if let early = Self.calledBeforeAnswer(first.at, requests: sent, latency: latency) {
                let cancelled = Self.holdsError(first.value, where: { ($0 as? URLError)?.code == .cancelled }) != nil
                throw fail("\(exercise.function) \(early)\(cancelled ? Self.cancelledEarly : "") See \(exercise.reference).",
                           file: file, line: line)
            }
        }
        if counter.calls.count > 1 {
            throw fail(Self.calledTwice(exercise, calls: counter.calls.map { ($0.value, $0.at) }, requests: sent),
                       file: file, line: line)
        }
        checksAtEnd.append {
            let calls = counter.calls
            if calls.count > 1 {
                XCTFail(Self.calledTwice(exercise, calls: calls.map { ($0.value, $0.at) }, requests: sent), file: file, line: line)
            }
        }
        return first.value
    }

    /// The message for a completion called while no request was ever sent: the cause is the path that called it
    /// (a guard that gives up, an early return), not the moment it was called.
    public static func calledWithoutRequest<Value>(_ exercise: Exercise, value: Value) -> String {
        if triedTheRealNetwork(value) {
            return sentOutsideTheSession(exercise, outcome: "called its completion (with \(describe(value)))")
        }
        if let error = holdsError(value, where: isJSONSerializationRefusal) {
            return """
                \(exercise.function) called its completion without sending any request: JSONSerialization refused the \
                body (\(oneLine(error))). It writes only strings, numbers, booleans, arrays, dictionaries and NSNull — \
                not a Date, a URL or a struct of yours (on macOS it crashes instead of throwing). Encode the body with \
                JSONEncoder, or put the timestamp in the dictionary as the number the server holds. \
                See \(exercise.reference).
                """
        }
        if let unsendable = holdsError(value, where: UnsendableURL.matches), let why = UnsendableURL.explanation(of: unsendable) {
            return "\(exercise.function) called its completion (with \(describe(value))) without sending any request: \(why) See \(exercise.reference)."
        }
        return """
            \(exercise.function) called its completion (with \(describe(value))) without sending any request: nothing \
            reached the server, then or later. Which path calls `completion` before `resume()` — a `guard` that gives up \
            (on the thread, the URL, the encoding?), or an early `return`? This test needs the request sent. \
            See \(exercise.reference).
            """
    }

    /// Whether `value` — an error, or a Result or enum that holds one, however deep — says a request went to the real
    /// network: a host that could not be resolved. The emulators' hosts end in `.invalid`, which never resolves, so it
    /// was sent through a session other than the injected one that the tripwire on `URLSession.shared` cannot see (a
    /// `URLSession(configuration:)` of the learner's own: on Linux registered protocols never reach it; `Data(contentsOf:)`).
    public static func triedTheRealNetwork(_ value: Any) -> Bool {
        holdsError(value) { error in
            let nsError = error as NSError
            return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCannotFindHost
        } != nil
    }

    /// The first error in `value` — itself, or held by a Result or an enum case (an API's own error type wrapping
    /// it), or an NSError's underlying error, however deep — for which `matches` is true.
    public static func holdsError(_ value: Any, where matches: (Error) -> Bool) -> Error? {
        var looked = 0
        func look(_ any: Any) -> Error? {
            looked += 1
            guard looked < 100 else { return nil }
            if let error = any as? Error {
                if matches(error) { return error }
                if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey], let found = look(underlying) { return found }
            }
            for child in Mirror(reflecting: any).children {
                if let found = look(child.value) { return found }
            }
            return nil
        }
        return look(value)
    }

    /// The message for a call whose request went to the real network instead of the injected session.
    /// `outcome`: what the call did, in words ("called its completion (with …)", "threw …").
    public static func sentOutsideTheSession(_ exercise: Exercise, outcome: String) -> String {
        """
        \(exercise.function) \(outcome), and no request reached the emulator: the request went to the real network \
        instead ("could not resolve host" — the emulator's host exists only inside the injected session), so it was not \
        sent through the injected `session`. A session of your own (`URLSession(configuration:)`, even one made only to \
        set a time-out), `URLSession.shared` or `Data(contentsOf:)` bypasses it: send every request with \
        `session.dataTask(…)` or `session.data(for:)`, and put a time-out on the URLRequest (`request.timeoutInterval`). \
        See \(exercise.reference).
        """
    }

    /// Whether `error` is JSONSerialization's "Invalid object cannot be serialized" (a value it cannot write).
    public static func isJSONSerializationRefusal(_ error: Error) -> Bool {
        let error = error as NSError
        let detail = (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        return error.domain == NSCocoaErrorDomain && error.code == 3840 && detail.contains("Invalid object")
    }

    /// Why a completion called at `time` came too early, or nil when the server had answered by then.
    static func calledBeforeAnswer(_ time: Date, requests: [RecordedRequest], latency: TimeInterval) -> String? {
        guard let request = requests.first else {
            return """
                called its completion before the server answered: no request had even reached the server when it \
                was called. Call `completion` inside the data task's handler — the code after `resume()` runs at once, \
                long before the answer arrives.
                """
        }
        let answeredAt = request.receivedAt.addingTimeInterval(latency)
        guard time < answeredAt else { return nil }
        let early = Int((answeredAt.timeIntervalSince(time) * 1000).rounded())
        return """
            called its completion before the server answered: the server took \(Int(latency * 1000)) ms to answer \
            \(request.method) \(request.path)\(request.hasJSONSuffix ? ".json" : ""), and the completion came \(early) ms before that answer. Call \
            `completion` inside the data task's handler, after you have looked at the response — the code after \
            `resume()` runs at once, long before the answer arrives.
            """
    }

    /// Added when that early completion held URLError -999: the request's task was cancelled before its answer.
    static let cancelledEarly = " It came with URLError -999 (cancelled): the task was cancelled before its answer — by "
        + "`task.cancel()`, or by the session's `invalidateAndCancel()`, which cancels every task the session has (the "
        + "injected session is not yours to end: leave it as it is)."

    /// The message for a completion handler called more than once, naming only the cause the calls show.
    static func calledTwice<Value>(_ exercise: Exercise, calls: [(Value, Date)], requests: [RecordedRequest]) -> String {
        let described = calls.prefix(3).map { describe($0.0) }.joined(separator: ", then ")
        var message = "\(exercise.function) called its completion \(calls.count) times (with \(described)); it must be called exactly once."
        let firstIsError = calls.first.map { isError($0.0) } ?? false
        let secondIsNil = calls.count > 1 && (isNil(calls[1].0) || isSuccess(calls[1].0))
        if let request = requests.first, let firstTime = calls.first?.1, firstTime < request.receivedAt {
            message += " The first call came before the request reached the server: a call after `resume()` (outside the handler) runs at once, and the handler calls it again."
        } else if firstIsError && secondIsNil {
            message += " It reported an error and then success: after `completion(error)` (or `completion(HTTPStatusError…)`, `completion(.failure(…))`) a `return` is missing, so the code goes on to the success path — or a `defer { completion(nil) }` calls it again on the way out."
        } else if firstIsError {
            message += " It reported an error and then went on: after `completion(error)` (or `completion(HTTPStatusError…)`, `completion(.failure(…))`) a `return` is missing, so the code carries on to the next step (decoding an error body, say) and reports again. (A `return` inside `DispatchQueue.main.async { … }`, or any closure, ends only that closure, not the handler.)"
        } else if calls.count == 2, !firstIsError, isNil(calls[0].0) || isSuccess(calls[0].0), isError(calls[1].0) {
            message += " It reported success and then an error: a `defer { completion(nil) }` runs when its scope is left — inside a `do` block, that is also when a `try` throws, before the `catch` runs and reports the error. Call `completion(nil)` at the end of the success path instead."
        } else if calls.count > 2, !calls.contains(where: { isError($0.0) }) {
            message += " It reported success once per item: a `completion` inside a loop (`for`, `forEach`) runs on every pass. Build the whole result in the loop, then call `completion` once, after it."
        } else {
            message += " Follow each path through your handler: every path must call `completion` once and then stop."
        }
        return message + " See \(exercise.reference)."
    }

    private static func isError(_ value: Any) -> Bool {
        !isNil(value) && (value is Error || resultCase(of: value) == "failure")
    }

    /// A `Result`'s `.success`: the counterpart of `nil` for a completion that takes a Result.
    private static func isSuccess(_ value: Any) -> Bool {
        resultCase(of: value) == "success"
    }

    /// "success" or "failure" for a `Result` value; nil for anything else.
    private static func resultCase(of value: Any) -> String? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum, "\(mirror.subjectType)".hasPrefix("Result<") else { return nil }
        return mirror.children.first?.label
    }

    private static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    private static func describe(_ value: Any) -> String {
        if isNil(value) { return "nil" }
        if let error = value as? Error { return "an error: \(oneLine(error))" }
        let text = oneLine(value)
        return text == "nil" ? "nil" : text
    }
}

/// How long the helpers wait for a completion. Correct code answers in milliseconds (the emulator is in-process);
/// once a function has missed its completion in this test run, its later waits are short, so a forgotten `resume()`
/// costs a learner a few seconds for the whole lesson, not two seconds per test. Every message says the real wait.
extension LabTestCase {
    public enum WaitOutcome { case completed, timedOut, quiet }

    /// Waits until `isDone` up to `timeout`, running the run loop (a completion may hop to the main queue), but
    /// stops after `quiet` when `noTraffic` still holds then: with no request sent anywhere, no answer can come, so a
    /// completion still to come would be a bug's, not a server's. (XCTWaiter cannot wait on an expectation twice.)
    public static func wait(until isDone: () -> Bool, timeout: TimeInterval, orNoTrafficAfter quiet: TimeInterval,
                            noTraffic: () -> Bool) -> WaitOutcome {
        let start = Date()
        while !isDone() {
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= timeout { return .timedOut }
            if elapsed >= quiet, noTraffic() { return .quiet }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        return .completed
    }
}

public enum CompletionTimeouts {
    public static let normal: TimeInterval = 2
    static let afterAMiss: TimeInterval = 0.25
    /// How long to wait while no request has been sent: a correct solution's request reaches the in-process emulator
    /// within milliseconds, but on a machine loaded twenty times over its cores (a class graded while other builds
    /// run) a thread can wait longer than 1 s for its turn, so 2 s; after the function has already missed its
    /// completion in this run, 0.1 s. A forgotten `resume()` then costs a lesson seconds, not half a minute.
    static let withoutARequest: TimeInterval = 2
    static let withoutARequestAfterAMiss: TimeInterval = 0.1

    public static func quietTimeout(for exercise: Exercise, normally timeout: TimeInterval) -> TimeInterval {
        lock.lock(); defer { lock.unlock() }
        return min(timeout, missed[exercise.function] != nil ? withoutARequestAfterAMiss : withoutARequest)
    }
    private static let lock = NSLock()
    /// The test in which each function first missed its completion, by function.
    private static var missed: [String: String] = [:]

    static func timeout(for exercise: Exercise, normally timeout: TimeInterval) -> TimeInterval {
        lock.lock(); defer { lock.unlock() }
        return missed[exercise.function] != nil ? min(timeout, afterAMiss) : timeout
    }

    /// Remembers the miss; returns the test that missed first, when it was an earlier one.
    static func noteTimeout(of exercise: Exercise, test: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        if let first = missed[exercise.function] { return first == test ? nil : first }
        missed[exercise.function] = test
        return nil
    }
}
