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
    /// `rivalLikes` writes; with `refusesWrites`, every write is answered with that status. The rival may also like once
    /// just before a second read, just before a read that follows a 412, or just after the first write that succeeded
    /// (RivalFirebase).
    func makeEmulator(likes: JSONValue, rivalLikes: Int, likesPerTurn: Int = 1, refusesWrites: Int? = nil, maxAttempts: Int = 5,
                      rivalDeletes: Bool = false, rivalLikesBeforeSecondRead: Bool = false, rivalLikesAfterSuccess: Bool = false,
                      rivalLikesBeforeReadAfterConflict: Bool = false) throws {
        emulator?.invalidate()
        let database: JSONValue = likes == .null ? ["t1": ["title": "Pages and races"]] : ["likes": ["m1": likes]]
        var rival = RivalFirebase(database: database, counterPath: Self.counterPath, rivalLikes: rivalLikes,
                                  likesPerTurn: likesPerTurn, refusesWrites: refusesWrites)
        rival.deletes = rivalDeletes
        rival.likesBeforeSecondRead = rivalLikesBeforeSecondRead
        rival.likesAfterSuccess = rivalLikesAfterSuccess
        rival.likesBeforeReadAfterConflict = rivalLikesBeforeReadAfterConflict
        emulator = Emulator(rival)
        emulator.latency = 0.02
        counter = LikeCounter(baseURL: emulator.baseURL, session: emulator.session, maxAttempts: maxAttempts)
    }

    /// The count stored now.
    var storedLikes: Int? { emulator.withService { $0.count() } }
    var rivalLiked: Int { emulator.withService { $0.rivalLiked } }

    func call(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
              _ body: @escaping (LikeCounter) async throws -> Int) throws -> Result<Int, Error> {
        let counter = self.counter!
        let returned = Box<Date>()
        let result = try awaitReturn(of: exercise, timeout: Self.retryingTimeout, session: emulator.session,
                                     traffic: { TrafficReport(emulator).summary }, requests: { emulator.requests },
                                     file: file, line: line) { () async throws -> Int in
            let count = try await body(counter)
            returned.set(Date())
            return count
        }
        if case .success = result, let returnedAt = returned.get() {
            try requireEveryRequestAwaited(returnedAt: returnedAt, exercise, file: file, line: line)
        }
        try requireNoWriteAfterASuccess(exercise, file: file, line: line)
        return result
    }

    /// Stops the test when the call wrote again after a write of it succeeded (2xx): each success is a like stored, so
    /// one call stored several — a loop that did not end at the success (`break` in a `switch` leaves the switch only).
    func requireNoWriteAfterASuccess(_ exercise: Exercise, file: StaticString, line: UInt) throws {
        let writes = self.writes
        guard let done = writes.firstIndex(where: { (200...299).contains($0.response.statusCode) }), done + 1 < writes.count else { return }
        throw fail("""
            \(exercise.function) wrote again after a write succeeded (\(writes[done].summary) was answered \
            \(writes[done].response.statusCode)): \(writes.count) writes in one call, and each success stores one like more. \
            A write answered 2xx is done: return its count. In Swift, `break` in a `case` of a `switch` leaves the switch, \
            not the loop around it — return from that case (or break a labelled loop). See \(exercise.reference).
            \(TrafficReport(emulator).summary)
            """, file: file, line: line)
    }

    /// Stops the test when the call returned before the answers to its requests came: a write started in a `Task`
    /// or an `async let` that the function never awaits (an "optimistic" like). Each answer comes `latency` after the
    /// request, so a request received less than `latency` before the return was not awaited — whatever the timing.
    /// Waits a little first, for a request that a task the call left behind sends after the return.
    func requireEveryRequestAwaited(returnedAt: Date, _ exercise: Exercise, file: StaticString, line: UInt) throws {
        let seen = emulator.requests.count
        RunLoop.current.run(until: max(Date(), returnedAt.addingTimeInterval(0.05)))
        settle(emulator.session)
        let latency = emulator.latency
        let late = emulator.requests.enumerated().filter { index, request in
            index >= seen || request.wasCancelled || request.receivedAt.addingTimeInterval(latency) > returnedAt
        }.map(\.element)
        guard let first = late.first else { return }
        throw fail("""
            \(exercise.function) returned before the answer to its \(first.method) came: \(first.wasCancelled ? "the request was cancelled" : "the request was still on its way") \
            when the function returned. A request started in a `Task { }`, or in an `async let` the function does not await \
            (Swift cancels it when the function returns), is work left running: like must await each answer — a 412 \
            says to write again — and return the count of the write that succeeded. See \(exercise.reference).
            \(TrafficReport(emulator).summary)
            """, file: file, line: line)
    }

    /// The count the call returned, or a stop naming what it threw.
    func requireCount(_ result: Result<Int, Error>, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        switch result {
        case .success(let count): return count
        case .failure(let error):
            // A success thrown as a failure: code that takes only 201 Created (other APIs' answer to a write) for success.
            if case .status(let status)? = error as? ThreadAPIError, (200...299).contains(status) {
                throw fail("""
                    \(exercise.function) threw \(Self.describe(error)): \(status) is a success. Firebase answers a write 200 OK \
                    with the value stored (not 201 Created, as some APIs answer a write that creates): take every status in \
                    200...299 for success. See LESSONS.md §10.3.
                    The server received: \(TrafficReport(emulator).summary)
                    """, file: file, line: line)
            }
            // Gave up before the counter's maxAttempts: a limit of its own written into like ("retry once").
            if case .tooManyConflicts(let attempts)? = error as? ThreadAPIError, writes.count < counter.maxAttempts {
                throw fail("""
                    \(exercise.function) threw \(Self.describe(error)) after \(writes.count) write(s); this counter's \
                    maxAttempts is \(counter.maxAttempts). Give up only after maxAttempts writes (self.maxAttempts, \
                    whatever the counter was made with), not after a number written into like. See LESSONS.md §10.6.\
                    \(attempts == writes.count ? "" : " (It reported attempts: \(attempts).)")
                    The server received: \(TrafficReport(emulator).summary)
                    """, file: file, line: line)
            }
            throw fail("""
                \(exercise.function) threw \(Self.describe(error)). The server received: \(TrafficReport(emulator).summary). \
                See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// Calls `body` when no answer comes (URLError.timedOut): it must throw `.transport` with that URLError.
    /// True when it passed.
    @discardableResult
    func checkNoAnswerThrowsTransport(_ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                                      _ body: @escaping (LikeCounter) async throws -> Int) throws -> Bool {
        emulator.inject(.transportError(.timedOut))
        let result = try call(exercise, file: file, line: line, body)
        guard case .failure(let error) = result, case ThreadAPIError.transport(let urlError) = error, urlError.code == .timedOut else {
            XCTFail("""
                \(exercise.function) \(result.outcome) when no answer came (URLError.timedOut); expected \
                ThreadAPIError.transport with that URLError. See LESSONS.md §10.3.\(Self.sentAgainNote(emulator.requests))
                """, file: file, line: line)
            return false
        }
        return true
    }

    /// The requests that wrote the counter (every method but GET).
    var writes: [RecordedRequest] { emulator.requests.filter { $0.method != "GET" } }

    /// A message when a request meant as the write went as a GET — a body or an if-match on a GET: the URLRequest's
    /// httpMethod was never set, and a GET writes nothing (Firebase answers it with the value, 200). Nil otherwise.
    func writeSentAsGET(_ exercise: Exercise) -> String? {
        guard let get = emulator.requests.first(where: { $0.method == "GET" && (($0.body?.isEmpty == false) || $0.header("if-match") != nil) }) else {
            return nil
        }
        return """
            \(exercise.function) sent its write as a GET (\(get.summary)): a URLRequest's httpMethod is GET until you set it, \
            and a GET writes nothing — Firebase answers it with the value stored, 200. Set write.httpMethod = "PUT" on the \
            request you send. See \(exercise.reference).
            \(TrafficReport(emulator).summary)
            """
    }

    /// Runs `calls` calls of `body` at once and waits (at most `retryingTimeout`) for all of them.
    func concurrently(_ calls: Int, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                      _ body: @escaping (LikeCounter) async throws -> Int) throws -> [Result<Int, Error>] {
        let counter = self.counter!
        return try awaitReturn(of: exercise, timeout: Self.retryingTimeout, session: emulator.session,
                               traffic: { TrafficReport(emulator).summary }, requests: { emulator.requests },
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
