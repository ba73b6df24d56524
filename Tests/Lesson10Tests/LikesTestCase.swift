import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// The like tests' emulator: Firebase holding `/likes/m1` (3 likes), with a rival client (RivalFirebase) that the
/// test lets in before the learner's writes, and answers that come 20 ms late, so that calls made together overlap.
class LikesTestCase: Lesson10TestCase {
    static let messageKey = "m1"
    static let counterPath = "/likes/m1"
    static let startingLikes = 3

    var emulator: Emulator<RivalFirebase>!
    var counter: LikeCounter!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 0)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    /// A fresh emulator whose counter holds `likes` and whose rival adds `likesPerTurn` likes before each of the next
    /// `rivalLikes` writes; with `refusesWrites`, every write is answered with that status.
    func makeEmulator(likes: JSONValue, rivalLikes: Int, likesPerTurn: Int = 1, refusesWrites: Int? = nil, maxAttempts: Int = 5) throws {
        emulator?.invalidate()
        let database: JSONValue = likes == .null ? ["t1": ["title": "Pages and races"]] : ["likes": ["m1": likes]]
        emulator = Emulator(RivalFirebase(database: database, counterPath: Self.counterPath, rivalLikes: rivalLikes,
                                          likesPerTurn: likesPerTurn, refusesWrites: refusesWrites))
        emulator.latency = 0.02
        counter = LikeCounter(baseURL: emulator.baseURL, session: emulator.session, maxAttempts: maxAttempts)
    }

    /// The count stored now.
    var storedLikes: Int? { emulator.withService { $0.count() } }
    var rivalLiked: Int { emulator.withService { $0.rivalLiked } }

    func call(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
              _ body: @escaping (LikeCounter) async throws -> Int) throws -> Result<Int, Error> {
        let counter = self.counter!
        return try awaitReturn(of: exercise, timeout: Self.retryingTimeout, traffic: { TrafficReport(emulator).summary },
                               file: file, line: line) {
            try await body(counter)
        }
    }

    /// The count the call returned, or a stop naming what it threw.
    func requireCount(_ result: Result<Int, Error>, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        switch result {
        case .success(let count): return count
        case .failure(let error):
            throw fail("""
                \(exercise.function) threw \(Self.describe(error)). The server received: \(TrafficReport(emulator).summary). \
                See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// Calls `body` when no answer comes (URLError.timedOut): it must throw `.transport` with that URLError.
    func checkNoAnswerThrowsTransport(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                                      _ body: @escaping (LikeCounter) async throws -> Int) throws {
        emulator.inject(.transportError(.timedOut))
        let result = try call(exercise, file: file, line: line, body)
        guard case .failure(let error) = result, case ThreadAPIError.transport(let urlError) = error, urlError.code == .timedOut else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when no answer came (URLError.timedOut); expected \
                ThreadAPIError.transport with that URLError. See LESSONS.md §10.3.
                """, file: file, line: line)
        }
    }

    /// The requests that wrote the counter (every method but GET).
    var writes: [RecordedRequest] { emulator.requests.filter { $0.method != "GET" } }

    /// Runs `calls` calls of `body` at once and waits (at most `retryingTimeout`) for all of them.
    func concurrently(_ calls: Int, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                      _ body: @escaping (LikeCounter) async throws -> Int) throws -> [Result<Int, Error>] {
        let counter = self.counter!
        return try awaitReturn(of: exercise, timeout: Self.retryingTimeout, traffic: { TrafficReport(emulator).summary },
                               file: file, line: line) {
            await withTaskGroup(of: Result<Int, Error>.self) { group in
                for _ in 0..<calls {
                    group.addTask {
                        do { return .success(try await body(counter)) } catch { return .failure(error) }
                    }
                }
                var results: [Result<Int, Error>] = []
                for await result in group { results.append(result) }
                return results
            }
        }.get()
    }
}
