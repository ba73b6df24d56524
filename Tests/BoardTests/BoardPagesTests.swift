@testable import BoardKit
import FirebaseEmulator
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// "Load older" on the learner's Lesson 10 code (Exercises/, or Solutions/ with LAB_SOLUTIONS=1), through the
/// embedded emulator's long thread: its newest page first, then older pages, none twice and none skipped — or,
/// against a stub, the exercise to finish.
final class BoardPagesTests: XCTestCase {
    private var server: EmbeddedServer!
    private var app: BoardApp!

    /// The long thread as the list (Lesson 4) brings it: every message, oldest first.
    private static let longThread: BoardThread = {
        let messages = (LongThread.thread.objectValue?["messages"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { _, value in
            BoardMessage(text: value.objectValue?["text"]?.stringValue ?? "", sender: value.objectValue?["sender"]?.stringValue ?? "",
                         timestamp: Date(timeIntervalSinceReferenceDate: value.objectValue?["timestamp"]?.numberValue ?? 0))
        }
        return BoardThread(title: LongThread.title, identifier: LongThread.identifier, messages: messages)
    }()

    override func setUpWithError() throws {
        server = try EmbeddedServer()
        let service = FakeBoardService()
        service.threads = [Self.longThread, Sample.restAPIs]
        let pages = Lesson10Pages(baseURL: server.baseURL, session: server.session, timeout: 2)
        app = BoardApp(service: service, serverLabel: "test", sender: "Ann", pages: pages)
        app.start()
        waitUntilIdle()
    }

    private var screen: String { app.screen().map(\.text).joined(separator: "\n") }

    private func waitUntilIdle(file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while app.busy != nil, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertNil(app.busy, "the board still waits after 5 s", file: file, line: line)
    }

    private var shownNumbers: [Int] {
        app.shownMessages.map { Int($0.text.dropFirst("Message ".count).prefix { $0.isNumber }) ?? 0 }
    }

    func test_theLongThread_opensAtItsNewestPage_andLoadsOlderPagesWithoutDuplicatesOrGaps() {
        app.handle(.enter)
        waitUntilIdle()
        #if LAB_SOLUTIONS
        XCTAssertEqual(shownNumbers, Array(45...64), "the newest page: 20 messages, 45 sharing its second with 44")
        XCTAssertTrue(screen.contains("A long thread — newest 20 of 64, l loads older"), screen)
        XCTAssertTrue(screen.contains("l load older"), "the key is on the key line: \(screen)")
        app.handle(.character("l"))
        waitUntilIdle()
        XCTAssertEqual(shownNumbers, Array(25...64), "44 loaded once, at the boundary where it shares a second with 45")
        XCTAssertEqual(app.status.text, "20 older messages, loaded with your olderPage (Lesson 10)")
        XCTAssertTrue(app.screen()[3...5].contains { $0.text.contains("Message 25 of 64") }, "the top shows the page just loaded: \(screen)")
        app.handle(.character("l"))
        waitUntilIdle()
        app.handle(.character("l"))
        waitUntilIdle()
        XCTAssertEqual(shownNumbers, Array(1...64), "every message once, in order")
        XCTAssertTrue(screen.contains("A long thread — 64 messages, oldest first"), screen)
        app.handle(.character("l"))
        XCTAssertEqual(app.status.text, "the start of the thread: nothing older")
        #else
        XCTAssertEqual(app.status.text, "newest page: finish Lesson 10 §10.3 (newestPage)")
        XCTAssertEqual(shownNumbers, Array(1...64), "meanwhile the thread shows every message the list brought")
        app.handle(.character("l"))
        XCTAssertEqual(app.status.text, "newest page: finish Lesson 10 §10.3 (newestPage)", "l says it again")
        #endif
    }

    /// A guest's post (Lesson 1 writes a Date: seconds with fractions) cannot be read by Lesson 10's whole-number
    /// timestamp: the board says so, rather than blame the learner's pages, and shows every message.
    func test_aGuestsPostInTheLongThread_isNamedAsWhyItIsNotPaged() throws {
        var request = URLRequest(url: server.baseURL.appendingPathComponent("\(LongThread.identifier)/messages.json"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"sender":"Kim","text":"A guest's post","timestamp":815400000.25}"#.utf8)
        XCTAssertEqual(server.emulator.handle(request).statusCode, 200, "setup: a guest posts")
        let service = FakeBoardService()
        var thread = Self.longThread
        thread.messages.append(BoardMessage(text: "A guest's post", sender: "Kim", timestamp: Date(timeIntervalSinceReferenceDate: 815_400_000.25)))
        service.threads = [thread]
        app = BoardApp(service: service, serverLabel: "test", sender: "Ann",
                       pages: Lesson10Pages(baseURL: server.baseURL, session: server.session, timeout: 2))
        app.start()
        waitUntilIdle()
        app.handle(.enter)
        waitUntilIdle()
        #if LAB_SOLUTIONS
        XCTAssertTrue(app.status.text.hasPrefix("a guest's post (Lesson 1) is stamped with fractions of a second"), app.status.text)
        XCTAssertFalse(app.status.isError)
        #else
        XCTAssertEqual(app.status.text, "newest page: finish Lesson 10 §10.3 (newestPage)")
        #endif
        XCTAssertEqual(app.shownMessages.count, 65, "every message, as the list brought them")
    }

    func test_aThreadOfOnePage_isNotPaged() {
        app.handle(.down)
        app.handle(.enter)
        XCTAssertNil(app.busy, "no page to load")
        XCTAssertEqual(app.shownMessages, Sample.restAPIs.messages)
        app.handle(.character("l"))
        XCTAssertEqual(app.status.text, "every message is shown: l loads older in threads longer than a page")
    }
}
