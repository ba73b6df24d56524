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

    func test_todoByIDAsync_bodyNotJSON_throwsDecoding() throws {
        try checkBrokenBody(exercise, fetching: 4) { try fetchAsync(id: 4) }
    }
}
