import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Exercise 6.4: `todo(id:completion:)` GETs /todos/<id> and hands the completion a `Result<Todo, TodoAPIError>`.
///
/// In the order a learner should fix them: the request, the completion, the todo, then each failure with its own
/// case of TodoAPIError. The emulator holds JSONPlaceholder's 200 todos; 201 is missing.
final class TodoByIDTests: Lesson6TestCase {
    let exercise = Lesson6TestCase.fetch

    // MARK: The request

    func test_todoByID_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try fetch(id: 4)
        _ = try theRequest(of: exercise)
    }

    func test_todoByID_usesGET() throws {
        _ = try fetch(id: 4)
        let request = try theRequest(of: exercise)
        XCTAssertEqual(request.method, "GET", "\(exercise.function) sent \(request.summary). Reading a todo is a GET: it asks and changes nothing. See LESSONS.md §6.1.")
    }

    func test_todoByID_urlIsTodosSlashTheID() throws {
        _ = try fetch(id: 157)
        let request = try theRequest(of: exercise)
        if request.method == "GET", let wrong = Self.wrongFetch(request, id: 157, exercise) {
            XCTFail(wrong)
        }
    }

    // MARK: The completion

    func test_todoByID_callsCompletionOnceAfterTheServerAnswered() throws {
        emulator.latency = 0.3
        // awaitCompletion stops the test when the completion comes before the answer, twice, or not at all.
        _ = try fetch(id: 4)
        try checkReturnedAtOnce(exercise)
    }

    // MARK: The todo

    func test_todoByID_existingTodo_givesItWithEveryField() throws {
        try checkFetches(Self.todo4, id: 4, exercise) { try fetch(id: $0) }
    }

    func test_todoByID_anotherTodo_givesThatOne() throws {
        try checkFetches(Self.todo157, id: 157, exercise) { try fetch(id: $0) }
    }

    func test_todoByID_answered203_isASuccess() throws {
        try checkFetchAnswered203IsASuccess(exercise) { try fetch(id: $0) }
    }

    // MARK: When the server refuses

    func test_todoByID_missingTodo_givesStatus404() throws {
        try checkMissingTodo(exercise) { try fetch(id: $0) }
    }

    func test_todoByID_serverError_givesStatus500() throws {
        try checkServerError(exercise, fetching: 4) { try fetch(id: 4) }
    }

    func test_todoByID_errorStatusWhoseBodyIsATodo_givesTheStatus() throws {
        try checkErrorStatusWithATodoBody(exercise) { try fetch(id: $0) }
    }

    // MARK: When the connection fails

    func test_todoByID_transportError_givesTransportWithTheURLError() throws {
        try checkTransportError(.notConnectedToInternet, .networkConnectionLost, exercise: exercise) { try fetch(id: 4) }
    }

    // MARK: When the answer is broken

    func test_todoByID_bodyNotJSON_givesDecodingError() throws {
        try checkBrokenBody(exercise, fetching: 4) { try fetch(id: 4) }
    }

    /// JSON that is not a todo, then no body at all: neither decodes, and neither is a missing answer (`.transport`).
    func test_todoByID_bodyWithoutTheTodosFields_givesDecodingError() throws {
        for body in [#"{"id": 4}"#, ""] {
            emulator.clearRequests()
            try checkBrokenBody(exercise, body: body, fetching: 4) { try fetch(id: 4) }
        }
    }
}
