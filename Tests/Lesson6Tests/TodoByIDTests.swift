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

    func test_todoByID_refusedWith401Or429_givesThatStatus() throws {
        try checkRefusals(exercise, fetching: 4) { try fetch(id: 4) }
    }

    // MARK: When the connection fails

    func test_todoByID_transportError_givesTransportWithTheURLError() throws {
        try checkTransportError(.notConnectedToInternet, .networkConnectionLost, exercise: exercise) { try fetch(id: 4) }
    }

    /// A request cancelled from outside (the session invalidated) is still an outcome the caller waits for.
    func test_todoByID_cancelledRequest_givesTransportCancelled() throws {
        try checkCancelledRequestIsReported(exercise) { done in api.todo(id: 4, completion: done) }
    }

    // MARK: When the answer is broken

    func test_todoByID_bodyNotJSON_givesDecodingError() throws {
        try checkBrokenBody(exercise, fetching: 4) { try fetch(id: 4) }
    }

    /// JSON that is not a todo (with the decoder's own error), then no body at all, then `null`.
    func test_todoByID_bodyWithoutTheTodosFields_givesDecodingError() throws {
        try checkBodiesThatAreNotTodos(exercise) { try fetch(id: $0) }
    }

    // MARK: A call that nobody keeps

    func test_todoByID_apiLetGoRightAfterTheCall_stillCallsCompletion() throws {
        try checkCompletesWhenTheAPIIsLetGo(exercise) { api, done in api.todo(id: 4, completion: done) }
    }

    // MARK: Two calls at once

    /// A list shows several todos: two fetches started before either answered are two requests and two
    /// completions, each with its own todo — no call cancels, or takes the completion of, another.
    func test_todoByID_twoFetchesAtOnce_eachGetsItsOwnTodo() throws {
        emulator.latency = 0.3  // both calls are made long before the first answer
        let ids = [4, 157]
        let calls = [4: Calls(), 157: Calls()]
        let bothCalled = XCTestExpectation(description: "both completions are called")
        bothCalled.expectedFulfillmentCount = 2
        bothCalled.assertForOverFulfill = false
        for id in ids {
            api.todo(id: id) { result in
                calls[id]?.append(result)
                bothCalled.fulfill()
            }
            try stopIfAStubRan()
        }
        _ = XCTWaiter().wait(for: [bothCalled], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        let expected = [4: Self.todo4, 157: Self.todo157]
        let traffic = TrafficReport(emulator).summary
        let start = "\(exercise.function) was called twice at once, for todo 4 and then todo 157, before either answered (\(traffic))"
        for (id, other) in [(4, 157), (157, 4)] {
            if let crossed = calls[id]?.all.first(where: { (try? $0.get()) == expected[other] }) {
                throw fail("""
                    \(start), and the call for todo \(id) was handed \(Self.describe(crossed.mapError { $0 })), the other call's \
                    todo. Each call's completion belongs to that call: capture it in the data task's handler, not in a \
                    property (a static, or one on TodoAPI) that the next call replaces — then the first answer goes to the \
                    second caller, and the first caller never hears back. See \(exercise.reference).
                    """)
            }
        }
        for id in ids {
            let got = calls[id]?.all ?? []
            guard let first = got.first else {
                throw fail("""
                    \(start), and the completion of the call for todo \(id) was never called within \
                    \(Int(CompletionTimeouts.normal)) s. Each call is its own request with its own completion, called once: \
                    keep nothing of one call where the next can replace it. See \(exercise.reference).
                    """)
            }
            if case .failure(.transport(let urlError)) = first, urlError.code == .cancelled {
                throw fail("""
                    \(start), and the call for todo \(id) failed with .transport(URLError(-999)): its request was cancelled — by \
                    the other call, which cancels "the previous request" whatever it asked for. A list's rows fetch \
                    their todos side by side: cancel a request only when its own caller no longer wants it (a new fetch \
                    of the same todo, say), never another call's. See \(exercise.reference).
                    """)
            }
            if got.count > 1 {
                throw fail("""
                    \(start), and the completion of the call for todo \(id) was called \(got.count) times \
                    (\(got.map { Self.describe($0.mapError { $0 }) }.joined(separator: ", "))): once per call. \
                    See \(exercise.reference).
                    """)
            }
            XCTAssertEqual(try? first.get(), expected[id], """
                \(start), and the call for todo \(id) gave \(Self.describe(first.mapError { $0 })); each call gives its own \
                todo, as it does alone. See \(exercise.reference).
                """)
        }
    }
}
