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
    }

    // MARK: The todo

    func test_todoByID_existingTodo_givesItWithEveryField() throws {
        let outcome = try fetch(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking the todo")
        try checkTodo(outcome, is: Self.todo4, from: exercise)
    }

    func test_todoByID_anotherTodo_givesThatOne() throws {
        let outcome = try fetch(id: 157)
        try requireFetchRequest(exercise, id: 157, for: "checking the todo")
        try checkTodo(outcome, is: Self.todo157, from: exercise)
    }

    // MARK: When the server refuses

    func test_todoByID_missingTodo_givesStatus404() throws {
        let outcome = try fetch(id: Self.missingID)
        try requireFetchRequest(exercise, id: Self.missingID, for: "checking a missing todo")
        try checkFailure(outcome, is: .status(404), after: "answered 404 with `{}` (there is no todo \(Self.missingID))", of: exercise)
    }

    func test_todoByID_serverError_givesStatus500() throws {
        emulator.inject(.httpError(status: 500, message: "Internal Server Error"))
        let outcome = try fetch(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking a server error")
        try checkFailure(outcome, is: .status(500), after: #"answered 500 with {"error":"Internal Server Error"}"#, of: exercise)
    }

    // MARK: When the connection fails

    func test_todoByID_transportError_givesTransportWithTheURLError() throws {
        emulator.inject(.transportError(.notConnectedToInternet))
        let outcome = try fetch(id: 4)
        try checkFailure(outcome, is: .transport(.notConnectedToInternet), after: "never answered (the request failed with URLError.notConnectedToInternet)", of: exercise)
    }

    // MARK: When the answer is broken

    func test_todoByID_bodyNotJSON_givesDecodingError() throws {
        emulator.inject(.malformedBody(Self.cutOff))
        let outcome = try fetch(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking a broken answer")
        try checkFailure(outcome, is: .decoding, after: "answered 200 with a body cut off in the middle (\(Self.cutOff))", of: exercise)
    }

    func test_todoByID_bodyWithoutTheTodosFields_givesDecodingError() throws {
        emulator.inject(.malformedBody(#"{"id": 4}"#))
        let outcome = try fetch(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking an answer that is not a todo")
        try checkFailure(outcome, is: .decoding, after: #"answered 200 with {"id": 4}, JSON without a title, userId or completed"#, of: exercise)
    }
}
