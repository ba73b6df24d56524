import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// The situations every version of a call is tested in, written once: a test names its exercise and how to call
/// it (`{ try fetch(id: $0) }` or `{ try fetchAsync(id: $0) }`), and the scenario sets up the emulator, makes the
/// call, checks the request it needs ("setup: …") and then the outcome.
extension Lesson6TestCase {
    typealias FetchCall = (Int) throws -> Result<Todo, Error>
    typealias SaveCall = () throws -> Result<Todo, Error>

    // MARK: Fetching

    /// The call for `id` gives exactly `expected`.
    func checkFetches(_ expected: Todo, id: Int, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: FetchCall) throws {
        let outcome = try call(id)
        try requireFetchRequest(exercise, id: id, for: "checking the todo", file: file, line: line)
        try checkTodo(outcome, is: expected, from: exercise, file: file, line: line)
    }

    /// A todo that does not exist: the server answers 404 `{}`, the call must fail with `.status(404)`.
    func checkMissingTodo(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: FetchCall) throws {
        let outcome = try call(Self.missingID)
        try requireFetchRequest(exercise, id: Self.missingID, for: "checking a missing todo", file: file, line: line)
        try checkFailure(outcome, is: .status(404), after: "answered 404 with `{}` (there is no todo \(Self.missingID))",
                         of: exercise, file: file, line: line)
    }

    /// Success is every 2xx, not only the 200 this server sends a GET: here it answers 203 with the todo, then 299,
    /// the last 2xx, so that a range with the wrong end (`200..<299`) shows.
    func checkFetchAnswered203IsASuccess(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: FetchCall) throws {
        for status in [203, 299] {
            emulator.clearRequests()
            emulator.inject(.answer(status: status, body: Self.todo4JSON))
            let outcome = try call(4)
            try requireFetchRequest(exercise, id: 4, for: "checking a \(status) answer", file: file, line: line)
            try checkTodo(outcome, is: Self.todo4, from: exercise, file: file, line: line)
        }
    }

    /// A failure whose body happens to decode as a todo (a gateway's cached copy, say) is still a failure: the status
    /// is found out before decoding, not only when decoding fails. Then a 300 with the todo: success is 200...299 only,
    /// so that `statusCode < 400`, a range that ends at 300, or a `switch` whose `default` is not `.status` shows.
    func checkErrorStatusWithATodoBody(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: FetchCall) throws {
        for status in [503, 300] {
            emulator.clearRequests()
            emulator.inject(.answer(status: status, body: Self.todo4JSON))
            let outcome = try call(4)
            try requireFetchRequest(exercise, id: 4, for: "checking a \(status) whose body is a todo", file: file, line: line)
            try checkFailure(outcome, is: .status(status), after: "answered \(status) with a body that decodes as a todo", of: exercise,
                             file: file, line: line)
        }
    }

    /// Todo 4 as the server writes it (`todo4`).
    static let todo4JSON = #"{"userId": 1, "id": 4, "title": "et porro tempora", "completed": true}"#

    // MARK: Saving

    /// The saved todo is the server's, with the id it assigned.
    func checkSavedTodoHasItsNewID(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws {
        let newID = emulator.nextID
        let outcome = try call()
        try requireSaveRequest(exercise, for: "checking the saved todo", file: file, line: line)
        if case .success(let saved) = outcome, saved == Self.newTodo {
            throw fail("""
                \(exercise.function) gave back a todo without an id: the one it sent, not the server's answer. The server \
                answered 201 with the stored todo and its new id, \(newID); decode the answer's body and hand that on. \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        try checkTodo(outcome, is: Self.saved(id: newID), from: exercise, file: file, line: line)
    }

    /// Success is every 2xx, not only the 201 this server sends a POST: here it answers 200 with the stored todo, then
    /// 203 (a proxy's copy), so that a check for the statuses seen so far (`[200, 201].contains`) shows too.
    func checkSaveAnswered200IsASuccess(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws {
        let newID = emulator.nextID
        let answer: JSONValue = ["userId": .number(Double(Self.newUserID)), "id": .number(Double(newID)),
                                 "title": .string(Self.newTitle), "completed": .bool(Self.newCompleted)]
        for status in [200, 203] {
            emulator.clearRequests()
            emulator.inject(.answer(status: status, body: answer.description))
            let outcome = try call()
            try requireSaveRequest(exercise, for: "checking a \(status) answer", file: file, line: line)
            try checkTodo(outcome, is: Self.saved(id: newID), from: exercise, file: file, line: line)
        }
    }

    /// The same new todo saved twice, the second save made after the first answered (a second tap once the first went
    /// through, a caller that saves again): two POSTs and two todos, each call with its own new id — never the first
    /// answer remembered and handed out again.
    func checkSameTodoSavedTwiceInARow(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws {
        let newIDs = [emulator.nextID, emulator.nextID + 1]
        var saved: [Todo] = []
        for (index, newID) in newIDs.enumerated() {
            emulator.clearRequests()
            if index == 1 {  // a second save that sends nothing is judged here, with its own message
                emulator.latency = 0
                callWithoutRequestJudgedByTheTest = true
            }
            let outcome = try call()
            callWithoutRequestJudgedByTheTest = false
            if index == 1, emulator.requests.isEmpty {
                throw fail("""
                    \(exercise.function) saved the same new todo twice, one after the other (the second save made after \
                    the first had answered with id \(newIDs[0])), and the second save sent no request: it gave \
                    \(Self.describe(outcome)) without asking the server. Two saves are two todos, even of the same todo: \
                    each save POSTs its own request and gives the server's answer to it, with a new id. Don't remember \
                    saved todos to hand them out again — a save is not a GET whose answer can be kept. See \(exercise.reference).
                    """, file: file, line: line)
            }
            try requireSaveRequest(exercise, for: "saving the same todo a \(index == 0 ? "first" : "second") time", file: file, line: line)
            guard case .success(let todo) = outcome else {
                try checkTodo(outcome, is: Self.saved(id: newID), from: exercise, file: file, line: line)
                return
            }
            saved.append(todo)
        }
        XCTAssertEqual(saved, newIDs.map(Self.saved(id:)), """
            \(exercise.function) saved the same new todo twice, one after the other, and gave \
            \(saved.map { "\($0)" }.joined(separator: " and ")); the server stored two todos, with ids \(newIDs[0]) and \
            \(newIDs[1]), one for each save: each call gives the server's answer to its own POST. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// A 2xx with nothing in it (204 No Content, as some APIs answer a create) holds no saved todo and no new id: it is
    /// a body that does not decode, not a success with the todo that was sent.
    func checkEmptySaveAnswer(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws {
        emulator.inject(.answer(status: 204, body: ""))
        let outcome = try call()
        try requireSaveRequest(exercise, for: "checking an empty answer", file: file, line: line)
        if case .success(let todo) = outcome {
            let sent = todo == Self.newTodo ? ", the todo it sent, still without an id" : ""
            throw fail("""
                The server answered 204 No Content, an empty body, and \(exercise.function) reported success with \(todo)\(sent). \
                An empty answer holds no saved todo and no new id: like any 2xx whose body is not a todo, it is \
                .decoding(error), the decoder's error (an empty body is still an answer). Don't fall back to the todo you \
                sent: the caller would keep a todo without an id as if the server had stored it. See \(exercise.reference).
                """, file: file, line: line)
        }
        try checkFailure(outcome, is: .decoding, after: "answered 204 No Content with an empty body", of: exercise, file: file, line: line)
    }

    /// The caller lets go of its TodoAPI as soon as the call is made (`TodoAPI(session: s).todo(id: 4) { … }`, a
    /// screen closed while it waits): the answer still belongs to the caller, and its completion is still called, once.
    func checkCompletesWhenTheAPIIsLetGo(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                                         _ start: (TodoAPI, @escaping (Result<Todo, TodoAPIError>) -> Void) -> Void) throws {
        let calls = Calls()
        let called = XCTestExpectation(description: "\(exercise.function) calls its completion")
        called.assertForOverFulfill = false
        weak var letGo: TodoAPI?
        do {
            let oneOff = TodoAPI(baseURL: emulator.baseURL, session: emulator.session)
            letGo = oneOff
            start(oneOff) { result in
                calls.append(result)
                called.fulfill()
            }
        }
        try stopIfAStubRan(file: file, line: line)
        _ = XCTWaiter().wait(for: [called], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        let report = TrafficReport(emulator)
        guard let first = calls.all.first else {
            let gone = letGo == nil ? " (and nothing kept it: it was gone before the answer came)" : ""
            throw fail("""
                \(exercise.function) was called on a TodoAPI that its caller let go of right after the call\(gone); the \
                server answered (\(report.summary)), and the completion was never called within \
                \(Int(CompletionTimeouts.normal)) s. The answer belongs to the caller, not to the TodoAPI: a handler that \
                captures `[weak self]` and returns when self is gone (`guard let self else { return }`) drops it, and the \
                caller — a spinner, an async wrapper's continuation — waits for ever. The handler needs nothing of self \
                here: call completion on every path. See \(exercise.reference).
                """, file: file, line: line)
        }
        if calls.all.count > 1 {
            throw fail("""
                \(exercise.function) called its completion \(calls.all.count) times for one call \
                (\(calls.all.map { Self.describe($0.mapError { $0 }) }.joined(separator: ", "))): once on every path. \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        if case .failure(let error) = first {
            if case .transport(let urlError)? = error as? TodoAPIError, urlError.code == .cancelled {
                throw fail("""
                    \(exercise.function) was called on a TodoAPI that its caller let go of right after the call, and the \
                    completion got .transport(URLError(-999)): the request was cancelled (\(report.summary)) — by the \
                    TodoAPI itself as it went away (a deinit that cancels the tasks it started?). The answer belongs to \
                    the caller, not to the TodoAPI: a request outlives the object that started it, and only the caller \
                    decides to cancel it. See \(exercise.reference).
                    """, file: file, line: line)
            }
            throw fail(Self.failedWhereSuccess(error, exercise: exercise, traffic: report), file: file, line: line)
        }
    }

    /// The caller's Swift task is cancelled while the call waits for its answer (a screen closed, a `.task` whose view
    /// went away). Whether the call stops at once (URLError(.cancelled), CancellationError) or returns the answer when
    /// it comes, it must end, once: a continuation resumed from `withTaskCancellationHandler`'s `onCancel` as well as
    /// from the cancelled data task's handler stops the program, and a handler that drops the answer of a cancelled
    /// call never ends it.
    /// `answer`: the todo the server answers with; a call that returns must return that one.
    func checkEndsWhenItsTaskIsCancelled(_ exercise: Exercise, answer: Todo, file: StaticString = #filePath, line: UInt = #line,
                                         _ body: @escaping () async throws -> Todo) throws {
        emulator.latency = 0.3  // the answer comes well after the cancellation
        // A task's body ends once, so one outcome (a continuation resumed twice stops the program instead).
        let outcome = Box<Result<Todo, Error>>()
        let ended = XCTestExpectation(description: "\(exercise.function) returns or throws")
        let task = Task.detached {
            do {
                outcome.set(.success(try await body()))
            } catch {
                outcome.set(.failure(error))
            }
            ended.fulfill()
        }
        // Cancel once the request has reached the server (or at once when the call has already ended).
        let deadline = Date().addingTimeInterval(CompletionTimeouts.normal)
        while Date() < deadline, emulator.requests.isEmpty, outcome.get() == nil {
            RunLoop.current.run(until: Date().addingTimeInterval(0.005))
        }
        try stopIfAStubRan(file: file, line: line)
        guard !emulator.requests.isEmpty else {
            task.cancel()
            throw fail("""
                setup: cancelling \(exercise.function)'s task while it waits needs its request sent, and none reached the \
                server within \(Int(CompletionTimeouts.normal)) s (it \(outcome.get().map { "ended with \(Self.describe($0))" } ?? "was still running")). \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        task.cancel()
        _ = XCTWaiter().wait(for: [ended], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        if outcome.get() == nil {
            throw fail("""
                \(exercise.function)'s Swift task was cancelled while the call waited for its answer \
                (\(TrafficReport(emulator).summary)), and the call neither returned nor threw within \
                \(Int(CompletionTimeouts.normal)) s. A cancelled call still ends, once: with the answer when it comes, or \
                at once with the cancellation (URLError(.cancelled) or CancellationError). A handler that returns without \
                resuming its continuation when it sees the call was cancelled (a flag set in \
                `withTaskCancellationHandler`'s onCancel) leaves the caller waiting for ever: cancel the data task there \
                instead, and its handler resumes the continuation with URLError(.cancelled). See \(exercise.reference).
                """, file: file, line: line)
        }
        if case .success(let todo)? = outcome.get(), todo != answer {
            throw fail("""
                \(exercise.function)'s Swift task was cancelled while the call waited for its answer \
                (\(TrafficReport(emulator).summary)), and the call returned \(todo), which is not the server's answer \
                (\(answer)). A cancelled call ends either way, but honestly: it throws the cancellation \
                (URLError(.cancelled) or CancellationError), or it returns the todo the server answered — never a todo of \
                its own (the one it was given, still without an id, as if it had been saved). See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// The one request of a save, for the tests of its method, URL, header and body.
    func requestOfSave(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws -> RecordedRequest {
        _ = try call()
        return try theRequest(of: exercise, file: file, line: line)
    }

    // MARK: Failures every call must report as its own case
    // `fetching`: the id a fetch asks for, so its request can be checked first; nil for a save.

    func checkServerError(_ exercise: Exercise, fetching id: Int? = nil, file: StaticString = #filePath, line: UInt = #line,
                          _ call: SaveCall) throws {
        try checkFailure(fault: .httpError(status: 500, message: "Internal Server Error"), is: .status(500), exercise,
                         fetching: id, file: file, line: line, call)
    }

    /// Each code in turn, so that the URLError handed on must be the one that came, whichever it is.
    func checkTransportError(_ codes: URLError.Code..., exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                             _ call: SaveCall) throws {
        // No request check: with no answer, the request's shape is the subject of other tests.
        for code in codes {
            try checkFailure(fault: .transportError(code), is: .transport(code), exercise, fetching: nil, file: file, line: line, call)
        }
    }

    @discardableResult
    func checkBrokenBody(_ exercise: Exercise, body: String = Lesson6TestCase.cutOff, fetching id: Int? = nil,
                         file: StaticString = #filePath, line: UInt = #line, _ call: SaveCall) throws -> Result<Todo, Error> {
        try checkFailure(fault: .malformedBody(body), is: .decoding, exercise, fetching: id, file: file, line: line, call)
    }

    /// JSON that is not a todo, then no body at all, then `null` (Firebase's "nothing here", §1): none decodes, none is
    /// a missing answer (`.transport`), and a 200 `null` is not a 404. For the first, the error must be the decoder's
    /// own: it names the key that is missing (`keyNotFound`), where a DecodingError made up after a `try?` (or left by
    /// a second decode, of an array say) does not.
    func checkBodiesThatAreNotTodos(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line, _ call: FetchCall) throws {
        for body in [#"{"id": 4}"#, "", "null"] {
            emulator.clearRequests()
            let outcome = try checkBrokenBody(exercise, body: body, fetching: 4, file: file, line: line) { try call(4) }
            guard body.hasPrefix("{"), case .failure(let failure) = outcome,
                  case .decoding(let error)? = failure as? TodoAPIError else { continue }
            if case .keyNotFound = error { continue }
            throw fail("""
                The server answered 200 with \(body), JSON without the todo's other fields, and \(exercise.function) \
                reported \(Self.describe(outcome)): a DecodingError, but not the decoder's own error for this body, which \
                names the key that is missing (keyNotFound, "userId"…). Pass the decoder's own error on, as it was thrown \
                (`do { try decoder.decode(Todo.self, from: data) } catch let error as DecodingError { .decoding(error) }`): \
                a `try?` followed by a DecodingError of your own throws away where the answer broke, and so does a second \
                decode (of an array, say) whose error replaces the first. See \(exercise.reference) and §6.3.
                """, file: file, line: line)
        }
    }

    /// A refusal other than 404 and 500 — 401 Unauthorized, then 429 Too Many Requests — is `.status(code)` as the
    /// server sent it, found out once: not a transport failure (the server answered), not a status of your own
    /// (400 for every 4xx), not a retry (the caller decides whether to ask again).
    func checkRefusals(_ exercise: Exercise, fetching id: Int? = nil, file: StaticString = #filePath, line: UInt = #line,
                       _ call: SaveCall) throws {
        for (status, message) in [(401, "Unauthorized"), (429, "Too Many Requests")] {
            emulator.clearRequests()
            try checkFailure(fault: .httpError(status: status, message: message), is: .status(status), exercise,
                             fetching: id, file: file, line: line, call)
        }
    }

    @discardableResult
    private func checkFailure(fault: Fault, is wanted: WantedFailure, _ exercise: Exercise, fetching id: Int?,
                              file: StaticString, line: UInt, _ call: SaveCall) throws -> Result<Todo, Error> {
        emulator.inject(fault)
        let before = emulator.requests.count
        let outcome = try call()
        let sent = emulator.requests.count - before
        if sent > 1 {
            throw fail("""
                The server \(Self.situation(fault)), and \(exercise.function) sent the request again: \(sent) requests \
                for one call (a retry). Send one request and report what happened to it — here \(wanted.caseText) — \
                so that the caller sees the failure and decides whether to try again. See \(exercise.reference) and §6.3.
                """, file: file, line: line)
        }
        if let id = id {
            try requireFetchRequest(exercise, id: id, for: "checking what happens when the server \(Self.situation(fault))", file: file, line: line)
        }
        try checkFailure(outcome, is: wanted, after: Self.situation(fault), of: exercise, file: file, line: line)
        return outcome
    }

    /// What the server did, in words, for a message.
    static func situation(_ fault: Fault) -> String {
        switch fault {
        case .httpError(let status, let message): return #"answered \#(status) with {"error":"\#(message)"}"#
        case .transportError(let code): return "never answered (the request failed with URLError(\(code.rawValue)))"
        case .malformedBody(let text) where text == cutOff: return "answered 200 with a body cut off in the middle (\(text))"
        case .malformedBody(let text) where text.isEmpty: return "answered 200 with an empty body (not one byte)"
        case .malformedBody("null"): return "answered 200 with `null`, which is not a todo"
        case .malformedBody(let text): return "answered 200 with \(text), JSON that is not a todo"
        case .answer(let status, let text): return "answered \(status) with \(text)"
        case .page(let status, let contentType, let text): return "answered \(status) with a \(contentType) page: \(text)"
        }
    }
}
