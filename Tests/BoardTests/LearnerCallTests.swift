@testable import BoardKit
import Foundation
import LabSupport
import Lesson1
import Lesson4
import XCTest

/// What the board makes of the ways a learner's function can end: once, never, twice, with each kind of error.
final class LearnerCallTests: XCTestCase {
    private func answers(timeout: TimeInterval = 2, _ body: @escaping (@escaping (Result<Int, Error>) -> Void) -> Void)
        -> [Result<Int, BoardFailure>] {
        let lock = NSLock()
        var results: [Result<Int, BoardFailure>] = []
        let first = expectation(description: "answered")
        LearnerCall.run(.post, timeout: timeout, body: body) { result in
            lock.lock(); results.append(result); lock.unlock()
            first.fulfill()
        }
        wait(for: [first], timeout: 5)
        Thread.sleep(forTimeInterval: 0.1)  // room for a second answer, which must not come
        lock.lock(); defer { lock.unlock() }
        return results
    }

    func test_aCompletionCalledTwice_isTakenOnce() {
        let results = answers { finish in finish(.success(1)); finish(.success(2)) }
        XCTAssertEqual(results.map { try? $0.get() }, [1])
    }

    func test_aCompletionNeverCalled_isNoAnswerAfterTheTimeout() {
        let results = answers(timeout: 0.2) { _ in }
        XCTAssertEqual(results.map { $0.failure?.problem }, [.noAnswer(seconds: 0.2)])
    }

    func test_aCompletionOnTheMainQueue_stillArrives() {
        let results = answers { finish in DispatchQueue.main.async { finish(.success(3)) } }
        XCTAssertEqual(results.map { try? $0.get() }, [3])
    }

    func test_errors_areNamed() {
        XCTAssertEqual(LearnerCall.problem(for: NotImplemented("f()", section: "1.4"), .post), .notStarted(section: "1.4"))
        XCTAssertEqual(LearnerCall.problem(for: URLError(.timedOut), .post), .transport(.timedOut))
        let denied = "{\n  \"error\" : \"Permission denied\"\n}\n"
        XCTAssertEqual(LearnerCall.problem(for: Lesson1.HTTPStatusError(statusCode: 401, body: denied), .post),
                       .httpStatus(401, message: "Permission denied"))
        XCTAssertEqual(LearnerCall.problem(for: Lesson4.HTTPStatusError(statusCode: 500, body: "oops"), .threadList),
                       .httpStatus(500, message: "oops"))
        let decoding = DecodingError.keyNotFound(CodingKeysForTest.title, .init(codingPath: [], debugDescription: ""))
        XCTAssertEqual(LearnerCall.problem(for: decoding, .threadList), .undecodable("no key \"title\""))
    }

    func test_aCrashsFatalErrorLine_isShortenedForTheCrashNote() {
        XCTAssertEqual(OutputCapture.fatalError(in: "/work/kit/Exercises/Lesson1/MessageThreadController.swift:36: Fatal error: "
            + "Unexpectedly found nil while unwrapping an Optional value"),
                       "MessageThreadController.swift:36: Unexpectedly found nil while unwrapping an Optional value")
        XCTAssertNil(OutputCapture.fatalError(in: "debug: fetching"))
    }

    private enum CodingKeysForTest: CodingKey { case title }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
