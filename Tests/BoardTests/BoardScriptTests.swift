import BoardKit
import FirebaseEmulator
import Foundation
import LabSupport
import XCTest

/// The scriptable board on the learner's own code (Exercises/, or Solutions/ with LAB_SOLUTIONS=1), against an
/// emulator loaded with the course's sample. Each feature either works or names its exercise; against the
/// solutions it must work.
final class BoardScriptTests: XCTestCase {
    private var emulator: FirebaseEmulator!
    private var service: LessonBoardService!

    override func setUpWithError() throws {
        emulator = try FirebaseEmulator(databaseExport: EmbeddedServer.sampleDatabase)
        service = LessonBoardService(baseURL: emulator.baseURL, session: emulator.session, timeout: 2)
    }

    private func run(_ command: BoardOptions.Command) -> (status: Int32?, out: [String], err: [String]) {
        let done = expectation(description: "the command finished")
        let lock = NSLock()
        var result: (status: Int32?, out: [String], err: [String]) = (nil, [], [])
        let output = BoardScript.Output(line: { line in lock.lock(); result.out.append(line); lock.unlock() },
                                        error: { line in lock.lock(); result.err.append(line); lock.unlock() })
        BoardScript.run(command, sender: "Ann", service: service, output: output) { status in
            lock.lock(); result.status = status; lock.unlock()
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        lock.lock(); defer { lock.unlock() }
        return result
    }

    /// True when the command stopped at `feature`'s stub and said so in the board's words (against the solutions:
    /// a failure).
    private func stoppedAtStub(_ feature: BoardFeature, _ result: (status: Int32?, out: [String], err: [String]),
                               file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let named = "board: \(feature.rawValue): finish \(feature.place) (\(feature.function))"
        guard result.err == [named] else { return false }
        XCTAssertEqual(result.status, 1, file: file, line: line)
        XCTAssertEqual(result.out, [], file: file, line: line)
        #if LAB_SOLUTIONS
        XCTFail("the solutions' \(feature.function) ran as a stub", file: file, line: line)
        #endif
        return true
    }

    func test_list_printsTheSamplesThreads() {
        let result = run(.list)
        if stoppedAtStub(.threadList, result) { return }
        XCTAssertEqual(result.err, [])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.out, ["695398C4-498C-40A8-AA76-CB2B20DFD9FA\t1\tREST APIs"])
    }

    func test_show_printsAThreadsMessages_byTitle() {
        let result = run(.show(thread: "REST APIs"))
        if stoppedAtStub(.threadList, result) { return }
        XCTAssertEqual(result.out, ["2018-08-08T07:24:32Z\tSpencer\tThis is a test to make sure the API works!"])
    }

    func test_newThread_putsItOnTheServer() {
        let result = run(.newThread(title: "Weekend plans"))
        if stoppedAtStub(.newThread, result) { return XCTAssertEqual(emulator.requests.count, 0, "a stub sends nothing") }
        XCTAssertEqual(result.status, 0, "\(result.err)")
        let identifier = String(result.out.first?.split(separator: "\t").first ?? "")
        XCTAssertEqual(emulator.value(at: "\(identifier)/title"), .string("Weekend plans"), "printed: \(result.out)")
    }

    /// Whether the learner's fetch is written: without it, a post names its thread by the identifier it was given.
    private var fetchIsWritten: Bool {
        !(run(.list).err.first?.hasPrefix("board: thread list: finish Lesson 4") ?? false)
    }

    func test_post_postsToTheThreadItNames() {
        let identifier = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
        let name = fetchIsWritten ? "REST APIs" : identifier
        let result = run(.post(thread: identifier, text: "Hi from a script"))
        if stoppedAtStub(.post, result) { return }
        XCTAssertEqual(result.status, 0, "\(result.err)")
        XCTAssertEqual(result.out, ["posted to \"\(name)\" as Ann"])
        guard case .object(let messages) = emulator.value(at: "695398C4-498C-40A8-AA76-CB2B20DFD9FA/messages") else {
            return XCTFail("no messages on the server")
        }
        XCTAssertEqual(messages.values.compactMap { message -> String? in
            guard case .object(let fields) = message, case .string(let text)? = fields["text"] else { return nil }
            return text
        }.sorted(), ["Hi from a script", "This is a test to make sure the API works!"])
    }

    func test_post_toAThreadThatDoesNotExist_saysSo() {
        guard fetchIsWritten else { return }  // without a fetch, the name is taken for an identifier (test above)
        let result = run(.post(thread: "No such thread", text: "Hi"))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.err, ["board: no thread is called or titled \"No such thread\" (board --list shows them)"])
    }

    func test_a401_isNamedWithTheSection() {
        emulator.inject(.permissionDenied)
        let result = run(.list)
        if stoppedAtStub(.threadList, result) { return }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.err, ["board: thread list: the server answered 401 Permission denied — Lesson 4 §4.6"])
    }

    func test_aTransportError_isNamedWithTheSection() {
        emulator.inject(.transportError(.notConnectedToInternet))
        let result = run(.newThread(title: "Offline"))
        if stoppedAtStub(.newThread, result) { return }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.err, ["board: new thread: not connected to the internet — Lesson 1 §1.3"])
    }

    func test_aServerThatDoesNotAnswerInTime_isNamed_notAFrozenBoard() {
        emulator.latency = 1
        service = LessonBoardService(baseURL: emulator.baseURL, session: emulator.session, timeout: 0.3)
        let result = run(.list)
        if stoppedAtStub(.threadList, result) { return }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.err, ["board: thread list: no answer in 300 ms: a slow server, or fetchMessageThreads never "
            + "calls completion — Lesson 4 §4.6, §0.4"])
    }
}
