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

    /// The same todo saved again once the first save answered: a second POST and a second todo.
    func test_save_theSameTodoTwiceInARow_createsTwoTodos() throws {
        try checkSameTodoSavedTwiceInARow(exercise) { try save() }
    }

    func test_save_a200WithTheTodo_isASuccessToo() throws {
        try checkSaveAnswered200IsASuccess(exercise) { try save() }
    }

    // MARK: When the server refuses

    func test_save_serverError_givesStatus500() throws {
        try checkServerError(exercise) { try save() }
    }

    func test_save_refusedWith401Or429_givesThatStatus() throws {
        try checkRefusals(exercise) { try save() }
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

    func test_save_emptyAnswer_givesDecodingError() throws {
        try checkEmptySaveAnswer(exercise) { try save() }
    }

    // MARK: Calls that overlap, or that nobody keeps

    /// A second save started while the first is under way (two new todos, or a double tap) is a request of its own,
    /// with a completion of its own: no call refuses, cancels, or takes the completion of, another.
    func test_save_twoSavesAtOnce_eachGetsItsOwnTodo() throws {
        emulator.latency = 0.3  // both calls are made long before the first answer
        let titles = ["First of two", "Second of two"]
        let newIDs = [emulator.nextID, emulator.nextID + 1]
        /// The server's copy of the todo with this title, under either of the two new ids.
        func stored(_ title: String) -> [Todo] {
            newIDs.map { Todo(id: $0, userId: Self.newUserID, title: title, completed: title == titles[1]) }
        }
        let calls = [titles[0]: Calls(), titles[1]: Calls()]
        let bothCalled = XCTestExpectation(description: "both completions are called")
        bothCalled.expectedFulfillmentCount = 2
        bothCalled.assertForOverFulfill = false
        for title in titles {
            api.save(Todo(userId: Self.newUserID, title: title, completed: title == titles[1])) { result in
                calls[title]?.append(result)
                bothCalled.fulfill()
            }
            try stopIfAStubRan()
        }
        _ = XCTWaiter().wait(for: [bothCalled], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        let report = TrafficReport(emulator)
        let start = """
            \(exercise.function) was called twice at once, for two new todos ("First of two", then "Second of two"), \
            before either answered (\(report.summary))
            """
        for (mine, other) in [(titles[0], titles[1]), (titles[1], titles[0])] {
            let got = calls[mine]?.all ?? []
            if let crossed = got.first(where: { result in stored(other).contains { (try? result.get()) == $0 } }) {
                throw fail("""
                    \(start), and the call for "\(mine)" was handed \(Self.describe(crossed.mapError { $0 })), the \
                    other call's todo. Each call's completion belongs to that call: capture it in the data task's handler, \
                    not in a property (a static, or one on TodoAPI) that the next call replaces. See \(exercise.reference).
                    """)
            }
        }
        for title in titles {
            let got = calls[title]?.all ?? []
            guard let first = got.first else {
                throw fail("""
                    \(start), and the completion of the call for "\(title)" was never called within \
                    \(Int(CompletionTimeouts.normal)) s. A save started while another is under way is still its own \
                    request with its own completion, called once: don't refuse or drop it (an "is saving" flag), and keep \
                    nothing of one call where the next can replace it (a completion stored in a property). Stopping a \
                    double tap is the screen's job (disable the button), not TodoAPI's. See \(exercise.reference).
                    """)
            }
            if case .failure(let error) = first, case .transport(let urlError) = error, urlError.code == .cancelled {
                throw fail("""
                    \(start), and the call for "\(title)" failed with .transport(URLError(-999)): its POST was \
                    cancelled — by the other call, which cancels "the previous save". Each save creates its own todo: \
                    cancel a request only when its own caller no longer wants it. See \(exercise.reference).
                    """)
            }
            if got.count > 1 {
                throw fail("""
                    \(start), and the completion of the call for "\(title)" was called \(got.count) times \
                    (\(got.map { Self.describe($0.mapError { $0 }) }.joined(separator: ", "))): once per call. \
                    See \(exercise.reference).
                    """)
            }
            XCTAssertTrue(stored(title).contains { (try? first.get()) == $0 }, """
                \(start), and the call for "\(title)" gave \(Self.describe(first.mapError { $0 })); each save, alone or \
                beside another, POSTs its own todo and gives the server's copy of it, with the id the server assigned \
                (\(newIDs[0]) or \(newIDs[1])). See \(exercise.reference).
                """)
        }
    }

    /// A double tap: the same new todo saved twice before either answered is two POSTs and two new todos.
    func test_save_theSameTodoTwiceAtOnce_createsTwoTodos() throws {
        try checkSameTodoSavedTwiceAtOnce(exercise)
    }

    func test_save_apiLetGoRightAfterTheCall_stillCallsCompletion() throws {
        try checkCompletesWhenTheAPIIsLetGo(exercise) { api, done in api.save(Self.newTodo, completion: done) }
    }
}
