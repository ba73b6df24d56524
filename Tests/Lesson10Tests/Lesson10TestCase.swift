import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LabSupport
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// Lesson 10's tests share this: the exercises, and waiting for an async call (bounded, so a client that loops or
/// hangs fails the test instead of stopping the run). Pages and likes each have their own base class below it.
class Lesson10TestCase: LabTestCase {
    static let order = Exercise("Message.inOrder(_:)", section: "10.2")
    static let newest = Exercise("ThreadPages.newestPage(count:)", section: "10.3")
    static let older = Exercise("ThreadPages.olderPage(than:count:)", section: "10.4")
    static let like = Exercise("LikeCounter.like(_:)", section: "10.6")
    static let increment = Exercise("LikeCounter.likeWithIncrement(_:)", section: "10.7")

    /// How long a call that retries may take: a client may wait before a retry (a backoff from a second is fine: the
    /// like tests need at most one retry per call, or one retry after each of two refused writes), so the like tests
    /// wait longer than the usual 2 s, and less than the 5 s after which `lab check` stops a test. Once a function
    /// has not ended in time in this run, only briefly, so one endless loop does not cost every later test the wait.
    static let retryingTimeout: TimeInterval = 4.5
    private static let missed = Box<Set<String>>()

    /// Runs an async function in a task of its own and waits (at most `timeout`, 2 s unless told) until it returns
    /// or throws. `traffic` describes what the server saw, for the message when the call never ends.
    func awaitReturn<Value>(of exercise: Exercise, timeout: TimeInterval = CompletionTimeouts.normal, session: URLSession,
                            traffic: () -> String, requests: () -> [RecordedRequest],
                            file: StaticString, line: UInt,
                            _ body: @escaping () async throws -> Value) throws -> Result<Value, Error> {
        let timeout = Self.missed.get()?.contains(exercise.function) == true ? min(timeout, 0.5) : timeout
        let finished = XCTestExpectation(description: "\(exercise.function) returns or throws")
        let box = Box<Result<Value, Error>>()
        let task = Task.detached {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            finished.fulfill()
        }
        let waited = XCTWaiter().wait(for: [finished], timeout: timeout)
        // A handler that resumed a continuation goes on running on the session's queue: let it finish here, so that
        // what it does next (a second resume stops the program) happens in this test, not in a later one.
        settle(session)
        try stopIfAStubRan(file: file, line: line)
        guard waited == .completed, let outcome = box.get() else {
            task.cancel()
            Self.missed.update { $0.insert(exercise.function) }
            throw fail("""
                \(exercise.function) neither returned nor threw within \(String(format: "%g", timeout)) s. The server \
                received: \(traffic()). \(Self.whyNoEnd(requests())) See \(exercise.reference).
                """, file: file, line: line)
        }
        return outcome
    }

    /// The likely cause of a call that never ended, from what the server received.
    static func whyNoEnd(_ requests: [RecordedRequest]) -> String {
        guard let last = requests.last else {
            return """
                No request reached the emulator, so no answer was coming: a data task made inside \
                `withCheckedThrowingContinuation` must be started with `.resume()`, and its handler must resume the \
                continuation once on every path; `session.data(for:)` needs neither.
                """
        }
        if last.response.transportError != nil {
            return """
                Its last request got no answer (a transport error), and the call never ended: if you bridge a data task \
                with `withCheckedThrowingContinuation`, its handler must resume the continuation on the error path too — \
                every path, exactly once (`continuation.resume(throwing: error)`); `session.data(for:)` throws by itself.
                """
        }
        return """
            A loop that retries must stop: after `maxAttempts` writes, or when a page comes back short. And a continuation \
            over a data task must be resumed once on every path.
            """
    }

    /// When a request got no answer and the call sent another after it: a sentence saying so ("" otherwise).
    static func sentAgainNote(_ requests: [RecordedRequest]) -> String {
        guard let lost = requests.firstIndex(where: { $0.response.transportError != nil }), requests.count > lost + 1 else { return "" }
        return """

            It sent the request again after no answer came (\(requests.count) requests): report .transport and let the \
            caller decide (the app shows the error, the user tries again). A write that got no answer may have been \
            stored, and sent again it counts twice. See LESSONS.md §10.3.
            """
    }

    /// For a message about messages of one timestamp that came out in `keys`' order: when that is the Finder's order
    /// (`localizedStandardCompare`) on this machine, and not Firebase's, a sentence naming it; "" otherwise. Foundation's
    /// `KeyPathComparator(\.key)` and `SortDescriptor(\.key)` compare Strings that way on Apple platforms (by code on
    /// Linux), so the same sort passes on one machine and fails on the other: the tests say why where it fails.
    static func finderOrderNote(_ keys: [String]) -> String {
        let finder = keys.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard keys.count > 1, keys == finder, keys != keys.sorted() else { return "" }
        return """

            That is the Finder's order (localizedStandardCompare): what Foundation's KeyPathComparator(\\.key) and \
            SortDescriptor(\\.key) use for Strings on Apple platforms (on Linux they compare by code). Spell the \
            comparison yourself: (a.timestamp, a.key) < (b.timestamp, b.key). See LESSONS.md §10.2.
            """
    }

    /// What a call threw, in words: `ThreadAPIError.status(500)`.
    static func describe(_ error: Error) -> String {
        if let stub = error as? NotImplemented { return "\(stub)" }
        if let decoding = error as? DecodingError { return briefly(decoding) }
        if case .decoding(let decoding)? = error as? ThreadAPIError { return "ThreadAPIError.decoding(\(briefly(decoding)))" }
        if case .unexpected(let inner as ThreadAPIError)? = error as? ThreadAPIError {
            return """
                ThreadAPIError.unexpected(\(describe(inner))) (a ThreadAPIError wrapped again in .unexpected: a `catch` \
                of everything, around code that already throws ThreadAPIErrors, wraps them once more — let them through \
                as they are, `catch let error as ThreadAPIError { throw error }` first, or keep the do/catch around the \
                request alone)
                """
        }
        // URLSession's own "no answer" (not a URLError the code made up for a bad answer, such as .badServerResponse).
        let madeUp: [URLError.Code] = [.badServerResponse, .cannotParseResponse, .badURL, .unknown]
        if case .unexpected(let inner)? = error as? ThreadAPIError, !(inner is ThreadAPIError),
           (inner as NSError).domain == NSURLErrorDomain, !madeUp.map(\.rawValue).contains((inner as NSError).code) {
            return """
                ThreadAPIError.\(oneLine(error)) (URLSession's error, thrown as .unexpected: no answer is \
                .transport(URLError) — catch it with `catch let error as URLError`. On Linux, `catch let error as NSError` \
                or `as? NSError` does not match a URLError: Foundation there has no Objective-C bridging to make one)
                """
        }
        return "\(type(of: error)).\(oneLine(error))"
    }
}

/// A fixture that does not have the shape the tests rely on.
struct Lesson10FixtureProblem: Error, CustomStringConvertible {
    let description: String
}
