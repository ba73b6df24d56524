import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Exercise 6.5: `save(_:completion:)` POSTs a new todo (no id) to /todos with its Content-Type, and hands the
/// completion the server's todo, with the id the server assigned (201 Created).
///
/// In the order a learner should fix them: the request (method, URL, Content-Type, body, no id), the completion, the
/// server's todo and its id, what the server stored, a 200 that is a success too, then each failure.
final class SaveTodoTests: Lesson6TestCase {
    let exercise = Lesson6TestCase.save

    // MARK: The request

    func test_save_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try requestOfSave(exercise) { try save() }
    }

    func test_save_postsToTheCollection() throws {
        let request = try requestOfSave(exercise) { try save() }
        if let wrong = Self.wrongSave(request, exercise) { XCTFail(wrong) }
    }

    func test_save_sendsContentTypeApplicationJSON() throws {
        let request = try requestOfSave(exercise) { try save() }
        if let wrong = Self.wrongContentType(request, exercise) { XCTFail(wrong) }
    }

    func test_save_bodyHasNoID() throws {
        let request = try requestOfSave(exercise) { try save() }
        _ = try requireBody(of: request, from: exercise)
        if let id = request.bodyJSON?["id"], id != .null {
            XCTFail(Self.idInBody(id, request, exercise))
        }
    }

    func test_save_bodyIsTheTodoAsJSON() throws {
        let request = try requestOfSave(exercise) { try save() }
        _ = try requireBody(of: request, from: exercise)
        if request.bodyJSON?["id"] ?? .null == .null, let wrong = Self.wrongBody(request, exercise) { XCTFail(wrong) }
    }

    // MARK: The completion

    func test_save_callsCompletionOnceAfterTheServerAnswered() throws {
        emulator.latency = 0.3
        _ = try save()
        try checkReturnedAtOnce(exercise)
    }

    // MARK: The server's todo

    func test_save_givesTheServersTodoWithItsNewID() throws {
        try checkSavedTodoHasItsNewID(exercise) { try save() }
    }

    func test_save_theServerStoresTheTodo() throws {
        let newID = emulator.nextID
        _ = try save()
        try requireSaveRequest(exercise, for: "checking what the server stored")
        let stored = emulator.todo(id: newID)
        XCTAssertEqual(stored?["title"], .string(Self.newTitle), """
            After \(exercise.function) the server holds \(stored.map { "\($0)" } ?? "no todo") under the new id \(newID); \
            expected the todo that was sent. See LESSONS.md §6.5.
            """)
    }

    func test_save_a200WithTheTodo_isASuccessToo() throws {
        try checkSaveAnswered200IsASuccess(exercise) { try save() }
    }

    // MARK: When the server refuses

    func test_save_serverError_givesStatus500() throws {
        try checkServerError(exercise) { try save() }
    }

    // MARK: When the connection fails

    func test_save_transportError_givesTransportWithTheURLError() throws {
        try checkTransportError(.timedOut, .cannotConnectToHost, exercise: exercise) { try save() }
    }

    func test_save_cancelledRequest_givesTransportCancelled() throws {
        try checkCancelledRequestIsReported(exercise) { done in api.save(Self.newTodo, completion: done) }
    }

    // MARK: When the answer is broken

    func test_save_bodyNotJSON_givesDecodingError() throws {
        try checkBrokenBody(exercise) { try save() }
    }
}
