import BoardKit
import FirebaseEmulator
import Foundation
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
}
