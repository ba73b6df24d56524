import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Exercise 6.7: `save(_:) async throws` — the same POST as 6.5; it returns the server's todo with its new id, or
/// throws only `TodoAPIError`s.
final class SaveTodoAsyncTests: Lesson6TestCase {
    let exercise = Lesson6TestCase.saveAsync

    // MARK: The request

    func test_saveAsync_sendsOnePOSTToTheCollection() throws {
        _ = try saveAsync()
        let request = try theRequest(of: exercise)
        if let wrong = Self.wrongSave(request, exercise) { XCTFail(wrong) }
    }

    func test_saveAsync_sendsContentTypeApplicationJSON() throws {
        _ = try saveAsync()
        let request = try theRequest(of: exercise)
        if let wrong = Self.wrongContentType(request, exercise) { XCTFail(wrong) }
    }

    func test_saveAsync_bodyIsTheTodoWithoutAnID() throws {
        _ = try saveAsync()
        let request = try theRequest(of: exercise)
        _ = try requireBody(of: request, from: exercise)
        if let wrong = Self.wrongBody(request, exercise) { XCTFail(wrong) }
    }

    // MARK: The server's todo

    func test_saveAsync_returnsTheServersTodoWithItsNewID() throws {
        let newID = emulator.nextID
        let outcome = try saveAsync()
        try requireSaveRequest(exercise, for: "checking the saved todo")
        var expected = Self.newTodo
        expected.id = newID
        try checkTodo(outcome, is: expected, from: exercise)
    }

    // MARK: What it throws

    func test_saveAsync_serverError_throwsStatus500() throws {
        emulator.inject(.httpError(status: 500, message: "Internal Server Error"))
        let outcome = try saveAsync()
        try checkFailure(outcome, is: .status(500), after: #"answered 500 with {"error":"Internal Server Error"}"#, of: exercise)
    }

    func test_saveAsync_transportError_throwsTransportWithTheURLError() throws {
        emulator.inject(.transportError(.timedOut))
        let outcome = try saveAsync()
        try checkFailure(outcome, is: .transport(.timedOut), after: "never answered (the request failed with URLError.timedOut)", of: exercise)
    }

    func test_saveAsync_bodyNotJSON_throwsDecoding() throws {
        emulator.inject(.malformedBody(Self.cutOff))
        let outcome = try saveAsync()
        try checkFailure(outcome, is: .decoding, after: "answered 200 with a body cut off in the middle (\(Self.cutOff))", of: exercise)
    }
}
