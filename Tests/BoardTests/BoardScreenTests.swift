@testable import BoardKit
import Foundation
import XCTest

/// The screen model, driven by keys against a fake server: what a learner sees and can do, on an 80×24 screen.
final class BoardScreenTests: XCTestCase {
    private var service: FakeBoardService!
    private var app: BoardApp!

    override func setUp() {
        service = FakeBoardService()
        service.threads = [Sample.restAPIs, Sample.reading]
        app = BoardApp(service: service, serverLabel: "test server", sender: "Ann", deliver: { $0() })
        app.timeZone = TimeZone(identifier: "UTC")!
    }

    private var text: String { app.screen().map(\.text).joined(separator: "\n") }
    private var statusLine: ScreenLine { app.screen()[21] }
    /// The status line, with its continuation on the next line when it is long (else that line is the dim info line).
    private var statusText: String {
        let screen = app.screen()
        let rows = screen[22].style == .dim || app.prompt != nil ? [screen[21]] : [screen[21], screen[22]]
        return rows.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    private func press(_ keys: Key...) { keys.forEach(app.handle) }
    private func type(_ text: String) { text.forEach { app.handle(.character($0)) } }

    func test_list_showsTheFetchedThreadsAndFits80x24() {
        app.start()
        let screen = app.screen()
        XCTAssertEqual(screen.count, 24)
        for line in screen { XCTAssertEqual(TextWidth.columns(of: line.text), 80, "this line is not 80 columns: \(line.text)") }
        XCTAssertTrue(screen[3].text.hasPrefix(" > REST APIs"), screen[3].text)
        XCTAssertEqual(screen[3].style, .selected)
        XCTAssertTrue(screen[3].text.contains("  1 message   Spencer    2018-08-08"), screen[3].text)
        XCTAssertTrue(screen[4].text.hasPrefix("   📚 Reading list"), screen[4].text)
        XCTAssertTrue(text.contains("q quit"), "the keys are on screen")
        XCTAssertTrue(text.contains("No live updates here: r shows others' posts."), "the board says r is how to see others' posts")
    }

    func test_open_showsTheThreadsMessagesOldestFirst_andEscapeGoesBack() {
        var thread = Sample.restAPIs
        thread.messages.append(BoardMessage(text: "Second", sender: "Bo", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000)))
        service.threads = [thread]
        app.start()
        press(.enter)
        XCTAssertEqual(app.openThread?.identifier, thread.identifier)
        let lines = app.screen().map(\.text)
        XCTAssertTrue(lines[1].hasPrefix(" REST APIs — 2 messages, oldest first"), lines[1])
        let first = lines.firstIndex { $0.contains("Spencer · 2018-08-08 07:24") }
        let second = lines.firstIndex { $0.contains("Bo · 2020-01-06 10:40") }
        XCTAssertNotNil(first)
        XCTAssertNotNil(second)
        XCTAssertLessThan(first ?? 0, second ?? 0, "oldest first")
        press(.escape)
        XCTAssertEqual(app.page, .threads)
    }

    func test_aLongThread_opensAtItsNewestMessage_andScrollsBack() {
        let messages = (1...30).map { BoardMessage(text: "message \($0)", sender: "S", timestamp: Date(timeIntervalSinceReferenceDate: Double($0))) }
        service.threads = [BoardThread(title: "Long", identifier: "long", messages: messages)]
        app.start()
        press(.enter)
        XCTAssertTrue(text.contains("message 30"))
        XCTAssertFalse(text.contains("message 1\n"))
        (0..<200).forEach { _ in press(.up) }
        XCTAssertTrue(text.contains("    message 1 "), "scrolled back to the oldest")
        XCTAssertFalse(text.contains("message 30"))
        press(.down)
        XCTAssertEqual(app.scrollBack, app.maxScrollBack - 1, "scrolling back stops at the oldest message")
    }

    func test_post_sendsTheTypedMessageAsTheSender_showsIt_andRefreshes() {
        app.start()
        press(.enter, .character("p"))
        type("Hello, q and all")
        XCTAssertTrue(text.contains("Message as Ann: Hello, q and all_"), "the prompt shows what is typed; q types, not quits")
        press(.enter)
        XCTAssertEqual(service.posts.map(\.text), ["Hello, q and all"])
        XCTAssertEqual(service.posts.map(\.sender), ["Ann"])
        XCTAssertEqual(service.posts.map(\.thread), [Sample.restAPIs.identifier])
        XCTAssertEqual(service.fetches, 2, "a post is followed by a refresh")
        XCTAssertTrue(text.contains("Hello, q and all"))
        XCTAssertTrue(statusText.contains("posted as Ann"), statusText)
        XCTAssertFalse(app.hasQuit)
    }

    func test_newThread_createsItAndSelectsIt() {
        app.start()
        press(.character("n"))
        type("Zebra")
        press(.enter)
        XCTAssertEqual(service.created, ["Zebra"])
        XCTAssertEqual(app.threads.map(\.title), ["REST APIs", "Zebra", "📚 Reading list"], "the refreshed list, as fetched")
        XCTAssertEqual(app.threads[app.selection].title, "Zebra", "the new thread stays selected after the refresh")
        XCTAssertTrue(statusText.contains("created \"Zebra\""), statusText)
    }

    func test_refresh_showsWhatAnotherClientPosted() {
        app.start()
        service.threads.append(BoardThread(title: "From elsewhere", identifier: "x"))
        XCTAssertFalse(text.contains("From elsewhere"))
        press(.character("r"))
        XCTAssertEqual(service.fetches, 2)
        XCTAssertTrue(text.contains("From elsewhere"))
    }

    func test_q_quits_escapeCancelsAPrompt() {
        app.start()
        press(.character("n"), .escape)
        XCTAssertNil(app.prompt)
        XCTAssertFalse(app.hasQuit)
        press(.character("q"))
        XCTAssertTrue(app.hasQuit)
    }

    func test_unsolvedFetch_namesLesson4InTheListAndOnTheStatusLine() {
        service.fetchFailure = BoardFailure(.threadList, .notStarted(section: "4.6"))
        app.start()
        XCTAssertEqual(statusText, "thread list: finish Lesson 4 §4.6 (fetchMessageThreads)")
        XCTAssertEqual(statusLine.style, .error)
        XCTAssertTrue(text.contains("Finish Lesson 4 §4.6, then press r"), text)
    }

    func test_unsolvedWrites_nameLesson1Sections() {
        app.start()
        service.createFailure = BoardFailure(.newThread, .notStarted(section: "1.3"))
        press(.character("n"))
        type("T")
        press(.enter)
        XCTAssertTrue(statusText.hasPrefix("new thread: finish Lesson 1 §1.3"), statusText)
        service.postFailure = BoardFailure(.post, .notStarted(section: "1.4"))
        press(.enter, .character("p"))
        type("hi")
        press(.enter)
        XCTAssertTrue(statusText.hasPrefix("post: finish Lesson 1 §1.4"), statusText)
    }

    func test_401_andATransportError_areShownOnTheStatusLineWithTheSection() {
        service.fetchFailure = BoardFailure(.threadList, .httpStatus(401, message: "Permission denied"))
        app.start()
        XCTAssertEqual(statusText,
                       "thread list: the server answered 401 Permission denied — Lesson 4 §4.6")
        service.fetchFailure = BoardFailure(.threadList, .transport(.cannotConnectToHost))
        press(.character("r"))
        XCTAssertEqual(statusText,
                       "thread list: could not connect to the server (is it running?) — Lesson 4 §4.6")
    }

    func test_aSlowServer_showsASpinner_thenItsAnswer() {
        service.holdAnswers = true
        app.start()
        XCTAssertEqual(statusText, "| loading threads…")
        app.tick()
        XCTAssertEqual(statusText, "/ loading threads…", "the spinner turns")
        service.fetchFailure = BoardFailure(.threadList, .noAnswer(seconds: 10))
        service.release()
        XCTAssertEqual(statusText, "thread list: no answer in 10 s: a slow server, or fetchMessageThreads never calls "
            + "completion — Lesson 4 §4.6, §0.4", "a long status goes on over the next line, its section whole")
    }

    func test_liveUpdates_followTheOpenThread_withoutR() {
        let live = FakeLiveUpdates()
        app = BoardApp(service: service, serverLabel: "test", sender: "Ann", live: live, deliver: { $0() })
        app.start()
        XCTAssertTrue(text.contains("Live updates in an open thread (Lesson 8)"), text)
        press(.enter)
        XCTAssertEqual(live.threadID, Sample.restAPIs.identifier, "opening a thread listens to it")
        XCTAssertTrue(text.contains("Live: other clients' posts appear by themselves."), text)
        let fetches = service.fetches
        live.changed?(Sample.restAPIs.messages + [BoardMessage(text: "From elsewhere", sender: "Bo",
                                                                 timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000))])
        XCTAssertTrue(text.contains("From elsewhere"), text)
        XCTAssertTrue(text.contains("REST APIs — 2 messages"), text)
        XCTAssertEqual(service.fetches, fetches, "no refresh needed")
        press(.escape)
        XCTAssertEqual(live.stops, 1, "leaving the thread stops listening")
        let stale = live.changed
        stale?([])
        XCTAssertEqual(app.threads.first?.messages.count, 2, "a stopped listener's report is ignored")
        press(.enter, .character("q"))
        XCTAssertEqual(live.stops, 2, "quitting stops listening")
    }

    func test_liveUpdates_unfinished_areNamedOnTheInfoLine_andAnEndOnTheStatusLine() {
        let live = FakeLiveUpdates()
        app = BoardApp(service: service, serverLabel: "test", sender: "Ann", live: live, deliver: { $0() })
        app.start()
        press(.enter)
        live.ended?(BoardFailure(.live, .notStarted(section: "8.4")))
        XCTAssertEqual(app.screen()[22].text.trimmingCharacters(in: .whitespaces),
                       "live updates: finish Lesson 8 §8.4; until then r shows others' posts.")
        XCTAssertFalse(statusLine.style == .error, "an unfinished lesson is no error")
        press(.escape, .enter)
        XCTAssertEqual(live.starts, 1, "not tried again once known unfinished")

        let solved = FakeLiveUpdates()
        app = BoardApp(service: service, serverLabel: "test", sender: "Ann", live: solved, deliver: { $0() })
        app.start()
        press(.enter)
        solved.ended?(BoardFailure(.live, Lesson8Live.problem(for: URLError(.networkConnectionLost))))
        XCTAssertEqual(statusText, "live updates: the connection was lost — Lesson 8 §8.4")
        XCTAssertEqual(statusLine.style, .error)
        XCTAssertTrue(text.contains("Live updates stopped"), text)
        press(.escape)
        XCTAssertFalse(text.contains("Live updates stopped"), "the note belongs to the thread it stopped in: \(text)")
        press(.enter)
        XCTAssertEqual(solved.starts, 2, "opening the thread again listens again")
    }

    func test_smallerAndWiderTerminals_areFilledExactly() {
        app.start()
        for size in [(width: 40, height: 12), (width: 120, height: 40)] {
            app.size = size
            let screen = app.screen()
            XCTAssertEqual(screen.count, size.height)
            XCTAssertEqual(Set(screen.map { TextWidth.columns(of: $0.text) }), [size.width])
        }
    }
}

private final class FakeLiveUpdates: LiveUpdates {
    var threadID: String?
    var changed: (([BoardMessage]) -> Void)?
    var ended: ((BoardFailure) -> Void)?
    var starts = 0
    var stops = 0

    func start(threadID: String, changed: @escaping ([BoardMessage]) -> Void, ended: @escaping (BoardFailure) -> Void) {
        starts += 1
        self.threadID = threadID
        self.changed = changed
        self.ended = ended
    }

    func stop() { stops += 1 }
}
