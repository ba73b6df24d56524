import BoardKit
import FirebaseEmulator
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The screen on the learner's own code, as `swift run board` runs it: answers applied on the main queue.
final class BoardOnLessonCodeTests: XCTestCase {
    private func waitUntilIdle(_ app: BoardApp, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while app.busy != nil, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertNil(app.busy, "the board still waits after 5 s", file: file, line: line)
    }

    func test_listOpenPost_orTheExerciseToFinish() throws {
        let emulator = try FirebaseEmulator(databaseExport: EmbeddedServer.sampleDatabase)
        let service = LessonBoardService(baseURL: emulator.baseURL, session: emulator.session, timeout: 2)
        let app = BoardApp(service: service, serverLabel: "test", sender: "Ann")
        app.start()
        waitUntilIdle(app)
        let screen = { app.screen().map(\.text).joined(separator: "\n") }
        if case .notStarted? = app.listFailure?.problem {
            #if LAB_SOLUTIONS
            XCTFail("the solutions' fetchMessageThreads ran as a stub")
            #endif
            return XCTAssertTrue(screen().contains("Finish Lesson 4 §4.6"), screen())
        }
        XCTAssertEqual(app.threads.map(\.title), ["REST APIs"], screen())
        app.handle(.enter)
        app.handle(.character("p"))
        "Seen on the board".forEach { app.handle(.character($0)) }
        app.handle(.enter)
        waitUntilIdle(app)
        if app.status.text.hasPrefix("post: finish Lesson 1 §1.4") { return }
        XCTAssertEqual(app.openThread?.messages.map(\.text), ["This is a test to make sure the API works!", "Seen on the board"],
                       "after the post and its refresh: \(app.status.text)")
        XCTAssertTrue(screen().contains("Ann · "), screen())
    }

    /// Spins the main queue (where the board applies what arrives) until `done`, for 5 s at most.
    private func wait(for what: String, file: StaticString = #filePath, line: UInt = #line, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !done(), Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertTrue(done(), "no \(what) after 5 s", file: file, line: line)
    }

    /// Lesson 8 on the board: the open thread follows the embedded emulator's event stream (over its socket), so a
    /// message another client posts appears without r. Against the stubs, the info line names Lesson 8 instead.
    func test_liveUpdates_showAnotherClientsPost_orTheExerciseToFinish() throws {
        let server = try EmbeddedServer()
        let base = try server.streamingBaseURL()
        let service = FakeBoardService()
        service.threads = [Sample.restAPIs]
        let live = Lesson8Live(baseURL: base)
        let app = BoardApp(service: service, serverLabel: "test", sender: "Ann", live: live)
        defer { app.quit() }
        app.start()
        wait(for: "thread list") { app.hasLoaded }
        app.handle(.enter)
        let screen = { app.screen().map(\.text).joined(separator: "\n") }
        #if LAB_SOLUTIONS
        XCTAssertEqual(app.liveState, .listening(threadID: Sample.restAPIs.identifier), screen())
        // Another client: a plain POST to the same emulator, as a second board would send it.
        var request = URLRequest(url: base.appendingPathComponent(Sample.restAPIs.identifier)
            .appendingPathComponent("messages.json"), timeoutInterval: 5)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"sender":"Bo","text":"Posted elsewhere","timestamp":600000000}"#.utf8)
        let posted = expectation(description: "the other client's POST")
        // Its own session: in the kit's one test process, the lesson suites' tripwire owns URLSession.shared.
        let otherClient = URLSession(configuration: .ephemeral)
        defer { otherClient.finishTasksAndInvalidate() }
        otherClient.dataTask(with: request) { _, response, _ in
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
            posted.fulfill()
        }.resume()
        wait(for: [posted], timeout: 5)
        let fetches = service.fetches
        wait(for: "the other client's post on screen") { screen().contains("Posted elsewhere") }
        XCTAssertEqual(app.openThread?.messages.map(\.sender), ["Spencer", "Bo"], screen())
        XCTAssertTrue(screen().contains("Live: other clients' posts appear by themselves."), screen())
        XCTAssertEqual(service.fetches, fetches, "no r, no refresh: the stream brought it")
        XCTAssertFalse(app.status.isError, app.status.text)
        #else
        // The stub's start passes NotImplemented to onEnd.
        wait(for: "NotImplemented from the stub") { if case .notStarted = app.liveState { return true } else { return false } }
        XCTAssertTrue(screen().contains("live updates: finish Lesson 8 §8.4"), screen())
        XCTAssertFalse(app.status.isError, app.status.text)
        #endif
    }
}
