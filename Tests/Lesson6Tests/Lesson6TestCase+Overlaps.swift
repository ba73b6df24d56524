import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Saves that overlap, for both versions of `save`: each call made before the first answer, each its own POST with
/// its own outcome.
extension Lesson6TestCase {
    /// Saves `todos` side by side through the completion version, or the async one, every call made before the first
    /// answer (0.3 s), and waits (at most 2 s) until each has ended: each call's outcomes, in the order they came.
    func saveAtOnce(_ todos: [Todo], async: Bool) throws -> [[Result<Todo, Error>]] {
        emulator.latency = 0.3  // every call is made long before the first answer
        let api = self.api!
        let outcomes = todos.map { _ in Outcomes() }
        let allEnded = XCTestExpectation(description: "every call ends")
        allEnded.expectedFulfillmentCount = todos.count
        allEnded.assertForOverFulfill = false
        var tasks: [Task<Void, Never>] = []
        for (index, todo) in todos.enumerated() {
            if async {
                tasks.append(Task.detached {
                    do {
                        outcomes[index].append(.success(try await api.save(todo)))
                    } catch {
                        outcomes[index].append(.failure(error))
                    }
                    allEnded.fulfill()
                })
            } else {
                api.save(todo) { result in
                    outcomes[index].append(result.mapError { $0 })
                    allEnded.fulfill()
                }
                try stopIfAStubRan()
            }
        }
        _ = XCTWaiter().wait(for: [allEnded], timeout: CompletionTimeouts.normal)
        letLeftoverTasksFinish()
        try stopIfAStubRan()
        tasks.forEach { $0.cancel() }  // a call that still waits stops waiting with this test
        return outcomes.map { $0.all }
    }

    /// Two new todos saved at once: each call ends once, with the server's copy of its own todo (under either new id).
    func checkTwoSavesAtOnce(_ exercise: Exercise, async: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        let titles = ["First of two", "Second of two"]
        let newIDs = [emulator.nextID, emulator.nextID + 1]
        /// The server's copy of the todo with this title, under either of the two new ids.
        func stored(_ title: String) -> [Todo] {
            newIDs.map { Todo(id: $0, userId: Self.newUserID, title: title, completed: title == titles[1]) }
        }
        let outcomes = try saveAtOnce(titles.map { Todo(userId: Self.newUserID, title: $0, completed: $0 == titles[1]) }, async: async)
        let start = """
            \(exercise.function) was \(async ? "awaited" : "called") twice at once, for two new todos ("First of two", \
            then "Second of two"), before either answered (\(TrafficReport(emulator).summary))
            """
        for (mine, other) in [(0, 1), (1, 0)] {
            if let crossed = outcomes[mine].first(where: { outcome in stored(titles[other]).contains { (try? outcome.get()) == $0 } }) {
                throw fail("""
                    \(start), and the call for "\(titles[mine])" \(async ? "returned" : "was handed") \(Self.describe(crossed)), \
                    the other call's todo. Each call's continuation belongs to that call: resume the one \
                    `withCheckedThrowingContinuation` gave this call, from its own handler — not one kept in a property \
                    (a static) that the next call replaces: then the first answer resumes the second caller, and the first \
                    caller waits for ever. See \(exercise.reference).
                    """, file: file, line: line)
            }
        }
        for (index, title) in titles.enumerated() {
            let first = try onlyOutcome(outcomes[index], of: "the call for \"\(title)\"", start: start, exercise, file: file, line: line)
            XCTAssertTrue(stored(title).contains { (try? first.get()) == $0 }, """
                \(start), and the call for "\(title)" gave \(Self.describe(first)); each save, alone or beside another, \
                POSTs its own todo and gives the server's copy of it, with the id the server assigned (\(newIDs[0]) or \
                \(newIDs[1])). See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// A double tap: the same new todo saved twice at once is two POSTs and two new todos, one under each new id.
    func checkSameTodoSavedTwiceAtOnce(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let async = exercise.function == Self.saveAsync.function
        let newIDs = [emulator.nextID, emulator.nextID + 1]
        let outcomes = try saveAtOnce([Self.newTodo, Self.newTodo], async: async)
        let posts = emulator.requests.filter { $0.method == "POST" }.count
        let start = """
            \(exercise.function) was \(async ? "awaited" : "called") twice at once with the same new todo (a double tap), \
            before either answered (\(TrafficReport(emulator).summary))
            """
        if posts < 2 {
            throw fail("""
                \(start), and the server received \(posts == 1 ? "one POST" : "no POST"): the second save sent nothing \
                and waited for an answer to the first. Two saves are two todos, even of the same todo: each save POSTs \
                its own request, and the server gives each its own id. Sharing one request among callers that ask for the \
                same thing is safe for a GET, which changes nothing, never for a POST. Stopping a double tap is the \
                screen's job (disable its button), not TodoAPI's. See \(exercise.reference).
                """, file: file, line: line)
        }
        let firsts = try outcomes.enumerated().map { index, got in
            try onlyOutcome(got, of: "the \(index == 0 ? "first" : "second") call", start: start, exercise, file: file, line: line)
        }
        for first in firsts {
            if case .failure(let error) = first {
                throw fail(Self.failedWhereSuccess(error, exercise: exercise, traffic: TrafficReport(emulator)), file: file, line: line)
            }
        }
        let got = firsts.compactMap { try? $0.get() }
        let expected = newIDs.map(Self.saved(id:))
        XCTAssertTrue(got == expected || got == expected.reversed(), """
            \(start), and the calls gave \(got.map { "\($0)" }.joined(separator: " and ")); expected the server's two \
            todos, one with id \(newIDs[0]) and one with id \(newIDs[1]), one for each call. Two saves are two todos, even \
            of the same todo: each call gives the server's answer to its own POST. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// The one outcome of one of several overlapping calls; stops the test when it never came or came twice.
    private func onlyOutcome(_ got: [Result<Todo, Error>], of call: String, start: String, _ exercise: Exercise,
                             file: StaticString, line: UInt) throws -> Result<Todo, Error> {
        guard let first = got.first else {
            throw fail("""
                \(start), and \(call) never ended within \(Int(CompletionTimeouts.normal)) s. Each call is its own \
                request and ends once, with its own outcome: keep nothing of one call where the next can replace it (a \
                completion or a continuation kept in a property), and don't refuse or drop a save made while another is \
                under way. See \(exercise.reference).
                """, file: file, line: line)
        }
        if got.count > 1 {
            throw fail("""
                \(start), and \(call) ended \(got.count) times (\(got.map { Self.describe($0) }.joined(separator: ", "))): \
                once per call. See \(exercise.reference).
                """, file: file, line: line)
        }
        return first
    }
}

/// The outcomes one call ended with, in order, from whichever thread or task ended it.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Todo, Error>] = []

    func append(_ result: Result<Todo, Error>) { lock.lock(); results.append(result); lock.unlock() }
    var all: [Result<Todo, Error>] { lock.lock(); defer { lock.unlock() }; return results }
}
