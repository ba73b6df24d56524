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
        let request = try requestOfSave(exercise) { try saveAsync() }
        if let wrong = Self.wrongSave(request, exercise) { XCTFail(wrong) }
    }

    func test_saveAsync_sendsContentTypeApplicationJSON() throws {
        let request = try requestOfSave(exercise) { try saveAsync() }
        if let wrong = Self.wrongContentType(request, exercise) { XCTFail(wrong) }
    }

    func test_saveAsync_bodyIsTheTodoWithoutAnID() throws {
        let request = try requestOfSave(exercise) { try saveAsync() }
        _ = try requireBody(of: request, from: exercise)
        if let wrong = Self.wrongBody(request, exercise) { XCTFail(wrong) }
    }

    // MARK: The server's todo

    func test_saveAsync_returnsTheServersTodoWithItsNewID() throws {
        try checkSavedTodoHasItsNewID(exercise) { try saveAsync() }
    }

    /// The same todo saved again once the first save returned: a second POST and a second todo.
    func test_saveAsync_theSameTodoTwiceInARow_createsTwoTodos() throws {
        try checkSameTodoSavedTwiceInARow(exercise) { try saveAsync() }
    }

    func test_saveAsync_a200WithTheTodo_returnsItToo() throws {
        try checkSaveAnswered200IsASuccess(exercise) { try saveAsync() }
    }

    // MARK: What it throws

    func test_saveAsync_serverError_throwsStatus500() throws {
        try checkServerError(exercise) { try saveAsync() }
    }

    func test_saveAsync_refusedWith401Or429_throwsThatStatus() throws {
        try checkRefusals(exercise) { try saveAsync() }
    }

    func test_saveAsync_transportError_throwsTransportWithTheURLError() throws {
        try checkTransportError(.timedOut, .cannotConnectToHost, exercise: exercise) { try saveAsync() }
    }

    func test_saveAsync_cancelledRequest_throwsIt() throws {
        emulator.inject(.transportError(.cancelled))
        let outcome = try saveAsync(ifItHangs: """
            Its request failed with URLError(.cancelled), -999. \(Self.cancelledStillAwaited) Resume the continuation with it, \
            as with every failure.
            """)
        if case .failure(let error) = outcome, error is CancellationError { return }
        try checkFailure(outcome, is: .transport(.cancelled), after: "never answered: the request was cancelled (URLError(-999))",
                         of: exercise)
    }

    func test_saveAsync_bodyNotJSON_throwsDecoding() throws {
        try checkBrokenBody(exercise) { try saveAsync() }
    }

    func test_saveAsync_emptyAnswer_throwsDecoding() throws {
        try checkEmptySaveAnswer(exercise) { try saveAsync() }
    }

    // MARK: Calls that overlap

    /// Two new todos saved at once, before either answered: two POSTs, and each call returns its own saved todo.
    func test_saveAsync_twoSavesAtOnce_eachReturnsItsOwnTodo() throws {
        try checkTwoSavesAtOnce(exercise)
    }

    /// A double tap: the same new todo saved twice before either answered is two POSTs and two new todos.
    func test_saveAsync_theSameTodoTwiceAtOnce_createsTwoTodos() throws {
        try checkSameTodoSavedTwiceAtOnce(exercise)
    }

    // MARK: A cancelled caller

    /// The caller's task is cancelled while the save waits: it ends, once — stopped at once or with the answer.
    func test_saveAsync_itsTaskCancelledWhileWaiting_endsOnce() throws {
        let api = self.api!
        try checkEndsWhenItsTaskIsCancelled(exercise, answer: Self.saved(id: emulator.nextID)) { try await api.save(Self.newTodo) }
    }
}
