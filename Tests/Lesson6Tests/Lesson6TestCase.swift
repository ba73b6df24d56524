import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Lesson 6's tests share this: a /todos emulator holding JSONPlaceholder's 200 todos, a `TodoAPI` pointed at it,
/// the calls (completion and async), and the checks that name a learner's mistake from the requests the emulator
/// saw and the outcome the caller got.
///
/// Lesson-local on purpose: the waiting for an async function, the outcome in words, and the request shapes of this
/// API are Lesson 6's; the completion waiting, request log and "not started" reporting come from LabTestSupport.
class Lesson6TestCase: LabTestCase {
    static let model = Exercise("Todo.init(id:userId:title:completed:)", section: "6.2")
    static let fetch = Exercise("todo(id:completion:)", section: "6.4")
    static let save = Exercise("save(_:completion:)", section: "6.5")
    static let fetchAsync = Exercise("todo(id:) async", section: "6.6")
    static let saveAsync = Exercise("save(_:) async", section: "6.7")

    /// Every answer comes this long after the request arrived, so a completion called next to `resume()` shows.
    static let defaultLatency: TimeInterval = 0.05

    // The todos are built anew in every test (computed, not stored): `Todo` is the learner's (§6.2), its
    // initialiser may still be a stub, and the tests never name its stored properties.

    /// JSONPlaceholder's todo 4 and todo 157 (Fixtures/todos/jsonplaceholder-todos.json).
    static var todo4: Todo { Todo(id: 4, userId: 1, title: "et porro tempora", completed: true) }
    static var todo157: Todo { Todo(id: 157, userId: 8, title: "dolorem veniam quisquam deserunt repellendus", completed: true) }
    /// No todo has this id: the published data stops at 200.
    static let missingID = 201
    /// What the tests save: new, so without an id; a title the data does not have; already done (`completed` true,
    /// not the default), so that a body that writes `false` whatever the todo says shows.
    static let newUserID = 7
    /// With quotes, so that a body pasted together from strings (`"{\"title\": \"\(todo.title)\"…"`) is not JSON.
    static let newTitle = #"Learn "REST" with typed errors ✅"#
    static let newCompleted = true
    static var newTodo: Todo { Todo(userId: newUserID, title: newTitle, completed: newCompleted) }
    /// The new todo as the server stores it, with the id it assigned.
    static func saved(id: Int) -> Todo { Todo(id: id, userId: newUserID, title: newTitle, completed: newCompleted) }
    /// 200 with a body cut off in the middle: not JSON.
    static let cutOff = #"{"userId": 1, "id": 4, "title": "et porro"#

    var emulator: TodoEmulator!
    var api: TodoAPI!
    /// Whether the last completion-handler call had already called its completion when it returned: it waited for
    /// the answer, blocking its caller.
    var completedBeforeReturning = false
    /// Set by a test that judges for itself a call that sent no request (a save answered from memory): the helpers
    /// then return its outcome instead of stopping the test.
    var callWithoutRequestJudgedByTheTest = false

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = TodoEmulator(todos: try Self.publishedTodos())
        emulator.latency = Self.defaultLatency
        api = TodoAPI(baseURL: emulator.baseURL, session: emulator.session)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    /// JSONPlaceholder's published todos: 200, ids 1…200 (Fixtures/todos/README.md).
    static func publishedTodos() throws -> [JSONValue] {
        guard let todos = try Fixtures.json("todos/jsonplaceholder-todos.json").arrayValue, todos.count == 200 else {
            throw TodoFixtureProblem(description: "Fixtures/todos/jsonplaceholder-todos.json must be an array of 200 todos")
        }
        return todos
    }

    // MARK: Calling the learner's functions

    /// `todo(id:completion:)`'s result; the helper checks the completion came once, in time, after the answer.
    func fetch(id: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Todo, Error> {
        let result: Result<Todo, TodoAPIError> = try awaitCompletion(of: Self.fetch, on: emulator, file: file, line: line) { done in
            let completed = Box<Bool>()
            api.todo(id: id) { completed.set(true); done($0) }
            completedBeforeReturning = completed.get() == true
        }
        letLeftoverTasksFinish()
        return result.mapError { $0 }
    }

    func save(_ todo: Todo = Lesson6TestCase.newTodo, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Todo, Error> {
        let result: Result<Todo, TodoAPIError> = try awaitCompletion(of: Self.save, on: emulator, file: file, line: line) { done in
            let completed = Box<Bool>()
            api.save(todo) { completed.set(true); done($0) }
            completedBeforeReturning = completed.get() == true
        }
        letLeftoverTasksFinish()
        return result.mapError { $0 }
    }

    /// `ifItHangs`: what the message adds when the call neither returns nor throws (the test's own situation).
    func fetchAsync(id: Int, ifItHangs: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Todo, Error> {
        let api = self.api!
        return try awaitReturn(of: Self.fetchAsync, ifItHangs: ifItHangs, file: file, line: line) { try await api.todo(id: id) }
    }

    func saveAsync(_ todo: Todo = Lesson6TestCase.newTodo, ifItHangs: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Result<Todo, Error> {
        let api = self.api!
        return try awaitReturn(of: Self.saveAsync, ifItHangs: ifItHangs, file: file, line: line) { try await api.save(todo) }
    }

    /// Runs an async function in a task of its own and waits (at most 2 s) until it returns or throws.
    func awaitReturn(of exercise: Exercise, ifItHangs: String? = nil, file: StaticString, line: UInt,
                     _ body: @escaping () async throws -> Todo) throws -> Result<Todo, Error> {
        let finished = XCTestExpectation(description: "\(exercise.function) returns or throws")
        let box = Box<Result<Todo, Error>>()
        let returnedAt = Box<Date>()
        let requestsBefore = emulator.requests.count
        let task = Task.detached {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            returnedAt.set(Date())
            finished.fulfill()
        }
        let waited = XCTWaiter().wait(for: [finished], timeout: CompletionTimeouts.normal)
        // A handler that resumed a continuation goes on running on the session's queue: let it finish here, so that
        // what it does next (a second resume stops the program) happens in this test, not in a later one.
        letLeftoverTasksFinish()
        try stopIfAStubRan(file: file, line: line)
        if let wrongPlace = TrafficReport(emulator).wrongPlace(exercise, baseURL: emulator.baseURL) {
            throw fail(wrongPlace, file: file, line: line)
        }
        guard waited == .completed, let outcome = box.get() else {
            task.cancel()
            let report = TrafficReport(emulator)
            // No request at all: nothing was ever coming back, whatever the continuation does.
            let cause = report.received.isEmpty
                ? """
                    No request reached the emulator, so no answer was coming: a data task made inside \
                    `withCheckedThrowingContinuation` must be started with `.resume()` (and its handler must resume the \
                    continuation exactly once); `session.data(for:)` needs neither.
                    """
                : """
                    So something it awaits never finished. If you bridge to a completion handler with \
                    `withCheckedThrowingContinuation`, every path of the handler must call `continuation.resume(…)` exactly \
                    once; if you race the request against a time-out in a task group, cancel the other child once the first \
                    result is in (`group.cancelAll()`): a group returns only when every child task has finished. \
                    `session.data(for:)` alone cannot hang.
                    """
            throw fail("""
                \(exercise.function) neither returned nor threw within \(Int(CompletionTimeouts.normal)) s. The emulator \
                received: \(report.summary). \(ifItHangs.map { $0 + " " } ?? "")\(cause) See \(exercise.reference).
                """, file: file, line: line)
        }
        if let returned = returnedAt.get(), let early = returnedBeforeTheAnswer(exercise, returned, outcome, requestsBefore: requestsBefore) {
            throw fail(early, file: file, line: line)
        }
        return outcome
    }

    /// Lets what the call left running on the session finish — at once when nothing runs, at most 0.5 s — so that a
    /// request it sent after reporting (work left running) is counted in this test, whatever the machine's load.
    func letLeftoverTasksFinish() {
        // The handler may still be running on the session's queue (a completion called before its last lines).
        settle(emulator.session)
        let deadline = Date().addingTimeInterval(0.5)
        while Date() < deadline, sessionHasRunningTasks() {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }

    /// A session that has not listed its tasks within 0.5 s counts as running: on a busy machine its queue may just be
    /// late, and `letLeftoverTasksFinish`'s bound still ends the wait.
    private func sessionHasRunningTasks() -> Bool {
        guard let tasks = emulator.session.tasks(within: 0.5) else { return true }
        return tasks.contains { $0.state == .running }
    }

    /// Why an async call that returned at `returned` did so before the server answered its request — work left
    /// running after the call (a `Task { }` nothing awaits) — or nil. With no request yet, waits briefly for a late one.
    private func returnedBeforeTheAnswer(_ exercise: Exercise, _ returned: Date, _ outcome: Result<Todo, Error>,
                                         requestsBefore: Int) -> String? {
        let latency = emulator.latency
        var sent = emulator.requests.dropFirst(requestsBefore)
        if sent.isEmpty {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: latency + 0.1))
            sent = emulator.requests.dropFirst(requestsBefore)
        }
        guard let request = sent.first else {
            if callWithoutRequestJudgedByTheTest { return nil }
            guard case .success(let todo) = outcome else {
                if Self.triedTheRealNetwork(outcome) {
                    return Self.sentOutsideTheSession(exercise, outcome: "threw \(Self.describe(outcome))")
                }
                if let refusal = Self.holdsError(outcome, where: Self.isJSONSerializationRefusal) {
                    return """
                        \(exercise.function) threw \(Self.describe(outcome)) without sending any request: \
                        JSONSerialization refused the body (\(oneLine(refusal))). It writes only dictionaries, arrays, \
                        strings, numbers, booleans and NSNull — not a struct such as Todo (on Apple's platforms it \
                        crashes instead). Encode the todo with JSONEncoder. See \(exercise.reference).
                        """
                }
                return """
                    \(exercise.function) threw \(Self.describe(outcome)) without sending any request: nothing reached the \
                    server, then or later. Which path throws before the request is sent — a `guard` that gives up on the \
                    id, the URL or the encoding? Whether a todo exists, and why a call fails, is the server's answer \
                    (todo \(Self.missingID) exists once one is saved): send the request and throw what it answered. \
                    See \(exercise.reference).
                    """
            }
            return """
                \(exercise.function) returned \(todo) without sending any request: nothing reached the server, then or \
                later. The todo must come from the server's answer to this call — not from a cache or a value of your \
                own (a cache shared by every TodoAPI even hands one server's todo to another). Each call sends its own \
                request. See \(exercise.reference).
                """
        }
        let answeredAt = request.receivedAt.addingTimeInterval(latency)
        guard returned < answeredAt else { return nil }
        let what = (try? outcome.get()).map { "returned \($0)" } ?? "threw \(Self.describe(outcome))"
        return """
            \(exercise.function) \(what) before the server answered: the server took \(Int(latency * 1000)) ms to \
            answer \(request.method) \(request.path), and the call had ended \(Int((answeredAt.timeIntervalSince(returned) * 1000).rounded())) ms \
            before that answer — so what it gave cannot come from the answer, and its request was still running after it \
            returned. An async function awaits its request (`try await session.data(for:)`) and returns what the server \
            answered; a request started in a `Task { }` that nothing awaits is work left running, and its outcome is lost. \
            See \(exercise.reference).
            """
    }

    /// Stops the test when the last completion-handler call returned only after its completion had run: it waited
    /// for the server's answer (a semaphore or a DispatchGroup), blocking the thread that called it. Judged in the
    /// tests that answer after 0.3 s, so that no correct call, however slow the machine, returns that late.
    func checkReturnedAtOnce(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        guard completedBeforeReturning else { return }
        throw fail("""
            \(exercise.function) returned only after the server had answered (\(TrafficReport(emulator).summary)) and \
            its completion had run: it waited for the answer — a semaphore's or a DispatchGroup's `wait()` — so it \
            blocked the thread that called it for the whole round trip. In an app that is the main thread: the screen \
            freezes, and a handler that hops to the main queue never runs (a deadlock). Start the data task and return \
            at once; the handler calls `completion` when the answer comes. See \(exercise.reference).
            """, file: file, line: line)
    }

    // MARK: A request cancelled from outside

    /// What a handler that ignores URLError(.cancelled) leaves behind, for the messages of the tests that cancel.
    static let cancelledStillAwaited = """
        TodoAPI never cancels its own requests, so a cancelled one was cancelled from outside — the session invalidated \
        with `invalidateAndCancel()` (at log-out, say) — and its caller is still waiting for the answer: a spinner that \
        never stops, or an async wrapper whose continuation never resumes. Ignoring -999 is right only in code that \
        cancelled the request itself and no longer waits for it; here it is a transport failure like any other.
        """

    /// The data task fails with URLError(.cancelled): the completion call must still report it, once, as
    /// `.transport(URLError(.cancelled))`. Waits for the completion itself, so that a missing one is named for what it is.
    func checkCancelledRequestIsReported(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                                         _ start: (@escaping (Result<Todo, TodoAPIError>) -> Void) -> Void) throws {
        emulator.inject(.transportError(.cancelled))
        let calls = Calls()
        let called = XCTestExpectation(description: "\(exercise.function) calls its completion")
        called.assertForOverFulfill = false
        start { result in
            calls.append(result)
            called.fulfill()
        }
        try stopIfAStubRan(file: file, line: line)
        let waited = XCTWaiter().wait(for: [called], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        let report = TrafficReport(emulator)
        guard waited == .completed, let first = calls.all.first else {
            throw fail("""
                \(exercise.function)'s request failed with URLError(.cancelled), -999 (\(report.summary)), and its completion \
                was not called within \(Int(CompletionTimeouts.normal)) s. \(Self.cancelledStillAwaited) Pass it on: \
                completion(.failure(.transport(error))). See \(exercise.reference).
                """, file: file, line: line)
        }
        if calls.all.count > 1 {
            throw fail("""
                \(exercise.function) called its completion \(calls.all.count) times for one cancelled request \
                (\(calls.all.map { Self.describe($0.mapError { $0 }) }.joined(separator: ", "))): once on every path, then \
                return. See \(exercise.reference).
                """, file: file, line: line)
        }
        try checkFailure(first.mapError { $0 }, is: .transport(.cancelled),
                         after: "never answered: the request was cancelled (URLError(-999))", of: exercise, file: file, line: line)
    }

    // MARK: The request

    /// The one request the call sent; stops the test when it sent none, several, or sent elsewhere.
    /// `setup`: what the test needed the request for, when the request is not the test's subject.
    func theRequest(of exercise: Exercise, setup: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        do {
            return try onlyRequest(from: exercise, on: emulator, file: file, line: line)
        } catch {
            if let setup = setup { throw fail("setup: \(setup) needs exactly one request, sent through the injected session; the test of that says what is wrong.", file: file, line: line) }
            throw error
        }
    }

    /// Stops the test ("setup: …") unless the call sent `GET /todos/<id>`: a test of the outcome needs the right question.
    func requireFetchRequest(_ exercise: Exercise, id: Int, for purpose: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let request = try theRequest(of: exercise, setup: purpose, file: file, line: line)
        if let wrong = Self.wrongFetch(request, id: id, exercise) {
            throw fail("setup: \(purpose) needs GET /todos/\(id), and the request was wrong: \(wrong)", file: file, line: line)
        }
    }

    /// Stops the test ("setup: …") unless the call sent a POST to /todos with a JSON body and its Content-Type.
    func requireSaveRequest(_ exercise: Exercise, for purpose: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let request = try theRequest(of: exercise, setup: purpose, file: file, line: line)
        if let wrong = Self.wrongSave(request, exercise) ?? Self.wrongContentType(request, exercise) ?? Self.wrongBody(request, exercise) {
            throw fail("setup: \(purpose) needs a POST to /todos with the todo as JSON, and the request was wrong: \(wrong)", file: file, line: line)
        }
    }

    /// What is wrong with a fetch's request, or nil when it is `GET /todos/<id>` without a body.
    static func wrongFetch(_ request: RecordedRequest, id: Int, _ exercise: Exercise) -> String? {
        if request.method != "GET" {
            return "\(exercise.function) sent \(request.summary). Reading a todo is a GET: it asks and changes nothing. See LESSONS.md §6.1."
        }
        if let doubled = doubleSlash(request, exercise, wanted: "/todos/\(id)") { return doubled }
        if request.hasJSONSuffix {
            return """
                \(exercise.function) sent \(request.summary): the URL ends in `.json`, which is Firebase's dialect. This API's \
                URLs are plain: <baseURL>/todos/<id>, so /todos/\(id). See LESSONS.md §6.1.
                """
        }
        if request.path == "/todos" {
            let filter = request.query.isEmpty ? "" : " — a query (?\(request.query.keys.sorted().joined(separator: "&"))…) only filters it, and the answer is still an array"
            return """
                \(exercise.function) sent \(request.summary): that is the whole collection (all 200 todos, as an array)\(filter). \
                One todo lives at its own URL, /todos/\(id). See LESSONS.md §6.1.
                """
        }
        if request.path.contains("Optional(") {
            return """
                \(exercise.function) asked for \(request.path) (\(request.summary)): an optional Int pasted into the URL's \
                text ("\\(id)" with `id: Int?`) writes `Optional(\(id))`, not the number. Unwrap it first (`if let id`, \
                `guard let id`), or pass an Int: /todos/\(id). See LESSONS.md §6.4.
                """
        }
        if request.path != "/todos/\(id)" {
            return "\(exercise.function) asked for \(request.path) (\(request.summary)); the todo with id \(id) is at /todos/\(id): <baseURL>, then `todos`, then the id. See LESSONS.md §6.1."
        }
        if let body = request.body, !body.isEmpty {
            return "\(exercise.function) sent a body with its GET (\(request.summary)). A GET asks, it carries nothing: no `httpBody`. See LESSONS.md §6.1."
        }
        return nil
    }

    /// What is wrong with a save's method and URL, or nil when it is a POST to /todos.
    static func wrongSave(_ request: RecordedRequest, _ exercise: Exercise) -> String? {
        if request.method == "PUT" || request.method == "PATCH" {
            return """
                \(exercise.function) sent \(request.summary). \(request.method) changes a todo that exists, at its own \
                URL; a new todo has no id yet, so it is POSTed to the collection, /todos, and the server chooses its id. \
                See LESSONS.md §6.1.
                """
        }
        if request.method != "POST" {
            let bare = request.method == "GET" && (request.body ?? Data()).isEmpty && request.header("Content-Type") == nil
            let lost = bare ? " Its method, header and body were all lost: was the data task given the URLRequest itself, or only its URL (`request.url`) — or a request whose copy was set up instead (URLRequest is a value: `var post = request` and setting `post`'s method, header and body leave `request` as it was)?" : ""
            return "\(exercise.function) sent \(request.summary). Creating a todo is a POST to the collection, /todos.\(lost) See LESSONS.md §6.1."
        }
        if let doubled = doubleSlash(request, exercise, wanted: "/todos") { return doubled }
        if request.hasJSONSuffix {
            return "\(exercise.function) sent \(request.summary): the URL ends in `.json`, which is Firebase's dialect. New todos are POSTed to <baseURL>/todos. See LESSONS.md §6.1."
        }
        if request.path != "/todos" {
            return """
                \(exercise.function) POSTed to \(request.path) (\(request.summary)). A new todo is POSTed to the \
                collection, /todos: the client does not choose the id, not even in the URL. See LESSONS.md §6.1.
                """
        }
        return nil
    }

    /// What is wrong with a path that begins with two slashes (`//todos/157`), or nil. `path` and `summary` show the
    /// path with its empty segments dropped, so the message quotes the URL as sent.
    static func doubleSlash(_ request: RecordedRequest, _ exercise: Exercise, wanted: String) -> String? {
        let sent = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? request.url.path
        guard sent.hasPrefix("//") else { return nil }
        return """
            \(exercise.function) sent \(request.method) \(request.url.absoluteString): the path begins with two slashes, \
            \(sent). The base URL already ends in `/`, so pasting "/todos…" after its text ("\\(baseURL)/todos…", \
            `baseURL.absoluteString + "/todos…"`) doubles it, and json-server does not route //todos: it answers 404. \
            Build the URL from the base, not its text: `baseURL.appendingPathComponent("todos")`, so \(wanted). \
            See LESSONS.md §6.1.
            """
    }

    /// Nil when the request says its body is JSON.
    static func wrongContentType(_ request: RecordedRequest, _ exercise: Exercise) -> String? {
        let type = request.header("Content-Type")
        let mediaType = type?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if mediaType == "application/json" { return nil }
        if let swapped = request.headers.first(where: { $0.key.lowercased().hasPrefix("application/") }) {
            return """
                \(exercise.function) sent its POST with a header named `\(swapped.key)` whose value is `\(swapped.value)` \
                (\(request.summary)): the value and the header's name are swapped. It is \
                `request.setValue("application/json", forHTTPHeaderField: "Content-Type")` — the value first, then the \
                field. See LESSONS.md §6.5.
                """
        }
        var appended = (type ?? "").contains(",")
            ? " The value holds several, separated by commas: `addValue(_:forHTTPHeaderField:)` appends to a header that is already set — set it once, with `setValue`."
            : ""
        if type == nil, let accept = request.header("Accept"), accept.lowercased().contains("json") {
            appended += """
                 It does carry `Accept: \(accept)`, which asks for JSON back; Content-Type says what the body is. If you \
                set Content-Type too, something replaced it: assigning `allHTTPHeaderFields` replaces every header set \
                before it — set the headers one by one with `setValue`, or put Content-Type in that dictionary.
                """
        }
        return """
            \(exercise.function) sent its POST \(type.map { "with Content-Type: \($0)" } ?? "without a Content-Type header") \
            (\(request.summary)). This server reads a body only when it is labelled \
            `Content-Type: application/json`; otherwise it ignores it and stores a todo with nothing but an id. Set it \
            on the request: `request.setValue("application/json", forHTTPHeaderField: "Content-Type")`.\(appended) See LESSONS.md §6.5.
            """
    }

    /// Nil when the body is the new todo as JSON: its `userId`, `title` and `completed`, and no id.
    static func wrongBody(_ request: RecordedRequest, _ exercise: Exercise) -> String? {
        guard let body = request.bodyJSON, let fields = body.objectValue else {
            if request.uploadBodyHidden {
                return "\(exercise.function) sent its body with an upload task, which the emulator cannot see on this platform; put it in `request.httpBody`. See LESSONS.md §0.5."
            }
            return """
                \(exercise.function)'s POST has no JSON object as its body (\(request.summary)). Encode the todo with \
                JSONEncoder and put the data in `request.httpBody`. See LESSONS.md §6.5.
                """
        }
        if let id = fields["id"], id != .null {
            return idInBody(id, request, exercise)
        }
        let expected: [String: JSONValue] = ["userId": .number(Double(newUserID)), "title": .string(newTitle), "completed": .bool(newCompleted)]
        var withoutID = fields
        withoutID["id"] = nil
        if withoutID != expected {
            let extra = Set(withoutID.keys).subtracting(expected.keys).sorted(), missing = Set(expected.keys).subtracting(withoutID.keys).sorted()
            let keys = extra.isEmpty && missing.isEmpty ? "" : " Keys not in the API: \(extra); missing: \(missing)."
            let strategy = extra.contains(where: { $0.contains("_") }) ? " (A keyEncodingStrategy renames keys: a plain JSONEncoder() writes the API's.)" : ""
            return """
                \(exercise.function) POSTed \(body) for the todo \(expected): the body is the todo as JSONEncoder writes \
                it, every field as given (`userId`, `title`, `completed`) and nothing else.\(keys)\(strategy) See LESSONS.md §6.5.
                """
        }
        return nil
    }

    static func idInBody(_ id: JSONValue, _ request: RecordedRequest, _ exercise: Exercise) -> String {
        """
        \(exercise.function) sent an id in its POST body ("id": \(id)): \(request.summary). The client does not know \
        the id of a new todo — the server chooses it (one more than the largest it has) and answers with it. Send the \
        todo as it is: its `id` is nil, and JSONEncoder leaves a nil optional out. Don't invent one (0, a random \
        number, a count + 1). See LESSONS.md §6.2 and §6.5.
        """
    }
}

/// A fixture that does not have the shape the tests rely on.
struct TodoFixtureProblem: Error, CustomStringConvertible {
    let description: String
}

/// The results a completion was called with, in order, from whichever thread called it.
final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Todo, TodoAPIError>] = []

    func append(_ result: Result<Todo, TodoAPIError>) { lock.lock(); results.append(result); lock.unlock() }
    var all: [Result<Todo, TodoAPIError>] { lock.lock(); defer { lock.unlock() }; return results }
}
