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
        let outcome = try fetchAsync(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking the todo")
        try checkTodo(outcome, is: Self.todo4, from: exercise)
    }

    // MARK: What it throws

    func test_todoByIDAsync_missingTodo_throwsStatus404() throws {
        let outcome = try fetchAsync(id: Self.missingID)
        try requireFetchRequest(exercise, id: Self.missingID, for: "checking a missing todo")
        try checkFailure(outcome, is: .status(404), after: "answered 404 with `{}` (there is no todo \(Self.missingID))", of: exercise)
    }

    func test_todoByIDAsync_serverError_throwsStatus500() throws {
        emulator.inject(.httpError(status: 500, message: "Internal Server Error"))
        let outcome = try fetchAsync(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking a server error")
        try checkFailure(outcome, is: .status(500), after: #"answered 500 with {"error":"Internal Server Error"}"#, of: exercise)
    }

    func test_todoByIDAsync_transportError_throwsTransportWithTheURLError() throws {
        emulator.inject(.transportError(.notConnectedToInternet))
        let outcome = try fetchAsync(id: 4)
        try checkFailure(outcome, is: .transport(.notConnectedToInternet), after: "never answered (the request failed with URLError.notConnectedToInternet)", of: exercise)
    }

    func test_todoByIDAsync_bodyNotJSON_throwsDecoding() throws {
        emulator.inject(.malformedBody(Self.cutOff))
        let outcome = try fetchAsync(id: 4)
        try requireFetchRequest(exercise, id: 4, for: "checking a broken answer")
        try checkFailure(outcome, is: .decoding, after: "answered 200 with a body cut off in the middle (\(Self.cutOff))", of: exercise)
    }
}
