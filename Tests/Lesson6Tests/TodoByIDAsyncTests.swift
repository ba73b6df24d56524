import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Exercise 6.6: `todo(id:) async throws` — the same GET as 6.4; it returns the todo or throws, and throws only
/// `TodoAPIError`s.
final class TodoByIDAsyncTests: Lesson6TestCase {
    let exercise = Lesson6TestCase.fetchAsync

    // MARK: The request

    func test_todoByIDAsync_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try fetchAsync(id: 4)
        _ = try theRequest(of: exercise)
    }

    func test_todoByIDAsync_getsTodosSlashTheID() throws {
        _ = try fetchAsync(id: 157)
        let request = try theRequest(of: exercise)
        if let wrong = Self.wrongFetch(request, id: 157, exercise) { XCTFail(wrong) }
    }

    // MARK: The todo

    func test_todoByIDAsync_existingTodo_returnsIt() throws {
        try checkFetches(Self.todo4, id: 4, exercise) { try fetchAsync(id: $0) }
    }

    func test_todoByIDAsync_answered203_returnsTheTodo() throws {
        try checkFetchAnswered203IsASuccess(exercise) { try fetchAsync(id: $0) }
    }

    // MARK: What it throws

    func test_todoByIDAsync_missingTodo_throwsStatus404() throws {
        try checkMissingTodo(exercise) { try fetchAsync(id: $0) }
    }

    func test_todoByIDAsync_serverError_throwsStatus500() throws {
        try checkServerError(exercise, fetching: 4) { try fetchAsync(id: 4) }
    }

    func test_todoByIDAsync_errorStatusWhoseBodyIsATodo_throwsTheStatus() throws {
        try checkErrorStatusWithATodoBody(exercise) { try fetchAsync(id: $0) }
    }

    func test_todoByIDAsync_refusedWith401Or429_throwsThatStatus() throws {
        try checkRefusals(exercise, fetching: 4) { try fetchAsync(id: 4) }
    }

    func test_todoByIDAsync_transportError_throwsTransportWithTheURLError() throws {
        try checkTransportError(.notConnectedToInternet, .networkConnectionLost, exercise: exercise) { try fetchAsync(id: 4) }
    }

    /// A request cancelled from outside ends the call too: thrown as `.transport(URLError(.cancelled))`, or as
    /// CancellationError, Swift concurrency's own word for it — but never a call that waits for ever.
    func test_todoByIDAsync_cancelledRequest_throwsIt() throws {
        emulator.inject(.transportError(.cancelled))
        let outcome = try fetchAsync(id: 4, ifItHangs: """
            Its request failed with URLError(.cancelled), -999. \(Self.cancelledStillAwaited) Resume the continuation with it, \
            as with every failure.
            """)
        if case .failure(let error) = outcome, error is CancellationError { return }
        try checkFailure(outcome, is: .transport(.cancelled), after: "never answered: the request was cancelled (URLError(-999))",
                         of: exercise)
    }

    func test_todoByIDAsync_bodyNotJSON_throwsDecoding() throws {
        try checkBrokenBody(exercise, fetching: 4) { try fetchAsync(id: 4) }
    }

    /// JSON that is not a todo (with the decoder's own error), then no body at all, then `null`: as in 6.4.
    func test_todoByIDAsync_bodyWithoutTheTodosFields_throwsDecoding() throws {
        try checkBodiesThatAreNotTodos(exercise) { try fetchAsync(id: $0) }
    }

    // MARK: Two calls at once

    /// A list's rows await their todos side by side (`async let`, a task group): two calls made before either
    /// answered are two requests, and each returns its own todo.
    func test_todoByIDAsync_twoFetchesAtOnce_eachReturnsItsOwnTodo() throws {
        emulator.latency = 0.3  // both calls are made long before the first answer
        let api = self.api!
        let ids = [4, 157]
        let outcomes = [4: Box<Result<Todo, Error>>(), 157: Box<Result<Todo, Error>>()]
        let bothEnded = XCTestExpectation(description: "both calls return or throw")
        bothEnded.expectedFulfillmentCount = 2
        bothEnded.assertForOverFulfill = false
        let tasks = ids.map { id in
            Task.detached {
                do {
                    outcomes[id]?.set(.success(try await api.todo(id: id)))
                } catch {
                    outcomes[id]?.set(.failure(error))
                }
                bothEnded.fulfill()
            }
        }
        _ = XCTWaiter().wait(for: [bothEnded], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        try stopIfAStubRan()
        let expected = [4: Self.todo4, 157: Self.todo157]
        let traffic = TrafficReport(emulator).summary
        let start = "\(exercise.function) was awaited twice at once, for todo 4 and todo 157, before either answered (\(traffic))"
        for (id, other) in [(4, 157), (157, 4)] {
            if case .success(let crossed)? = outcomes[id]?.get(), crossed == expected[other] {
                tasks.forEach { $0.cancel() }
                throw fail("""
                    \(start), and the call for todo \(id) returned \(crossed), the other call's todo. Each call's \
                    continuation belongs to that call: resume the one `withCheckedThrowingContinuation` gave this call, \
                    from its own handler — not one kept in a property (a static) that the next call replaces: then the \
                    first answer resumes the second caller, and the first caller waits for ever. See \(exercise.reference).
                    """)
            }
        }
        for id in ids {
            guard let outcome = outcomes[id]?.get() else {
                tasks.forEach { $0.cancel() }
                throw fail("""
                    \(start), and the call for todo \(id) neither returned nor threw within \(Int(CompletionTimeouts.normal)) s. \
                    Each call is its own request and resumes its own continuation, once: keep nothing of one call where \
                    the next can replace it (a continuation or a task stored in a property). See \(exercise.reference).
                    """)
            }
            try checkTodo(outcome, is: expected[id]!, from: exercise)
        }
    }

    // MARK: A cancelled caller

    /// The caller's task is cancelled while the call waits: it ends, once — stopped at once or with the answer.
    func test_todoByIDAsync_itsTaskCancelledWhileWaiting_endsOnce() throws {
        let api = self.api!
        try checkEndsWhenItsTaskIsCancelled(exercise, answer: Self.todo4) { try await api.todo(id: 4) }
    }
}
