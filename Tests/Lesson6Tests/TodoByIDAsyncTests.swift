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
}
