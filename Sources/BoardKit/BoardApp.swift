import Foundation

/// The board without a terminal: its state, here; keys in (`+Keys`), calls to the service out (`+Calls`), and the
/// screen drawn from the state (`+Screen`). Tests drive it directly; `TerminalBoard` feeds it a real keyboard.
public final class BoardApp {
    public enum Page: Equatable {
        case threads
        case thread(identifier: String)
    }

    public enum Prompt: Equatable {
        case newThread
        case message
    }

    /// Live updates of the open thread (Lesson 8).
    public enum LiveState: Equatable {
        /// No thread opened yet: nothing known.
        case idle
        case listening(threadID: String)
        /// The learner's listener is a stub: `NotImplemented` for this section.
        case notStarted(section: String)
        /// The stream ended without the board asking; its failure is on the status line.
        case ended
    }

    public struct Status: Equatable {
        public var text: String
        public var isError: Bool
    }

    public internal(set) var page = Page.threads
    /// As the last fetch gave them (sorted by the learner's code), plus what was written since.
    public internal(set) var threads: [BoardThread] = []
    public internal(set) var selection = 0
    /// How many lines a thread is scrolled up from its newest message.
    public internal(set) var scrollBack = 0
    public internal(set) var prompt: Prompt?
    public internal(set) var input = ""
    public internal(set) var status = Status(text: "Welcome to the Message Board.", isError: false)
    /// What the board waits for ("loading threads"), shown with a spinner; nil when idle.
    public internal(set) var busy: String?
    public internal(set) var spinnerFrame = 0
    /// Why the last fetch failed, while it has not succeeded since.
    public internal(set) var listFailure: BoardFailure?
    public internal(set) var hasLoaded = false
    public internal(set) var hasQuit = false

    public let serverLabel: String
    public let sender: String
    /// Who is signed in (Lesson 9), for the header; signed in, `sender` is their email.
    public let signIn: BoardSignIn.Outcome
    /// Whether messages from other clients arrive by themselves (Lesson 8); without, `r` refreshes.
    public var hasLiveUpdates: Bool { live != nil }
    public internal(set) var liveState = LiveState.idle
    /// Tells a current listener's reports from a stopped one's.
    private var liveGeneration = 0
    /// The terminal's size; the screen is laid out for it (80×24 by default).
    public var size = (width: 80, height: 24)
    public var timeZone = TimeZone.current { didSet { dateFormatters = [:] } }
    /// By pattern: a screen shows many dates, and a DateFormatter is slow to make.
    var dateFormatters: [String: DateFormatter] = [:]
    /// Called after every change of state, on the delivery queue: redraw.
    public var onChange: () -> Void = {}

    let service: BoardService
    let live: LiveUpdates?
    /// A long thread a page at a time (Lesson 10); without, a thread shows every message the list brought.
    let pages: ThreadPaging?
    /// The open thread's pages loaded so far, while it is paged.
    var paged: PagedThread?
    /// The learner's `newestPage` or `olderPage` is a stub: its `NotImplemented`, said again when `l` is pressed.
    public internal(set) var pagingStub: BoardFailure?
    /// Where the service's answers are applied: the main queue for the terminal, immediately in some tests.
    let deliver: (@escaping () -> Void) -> Void

    public init(service: BoardService, serverLabel: String, sender: String, live: LiveUpdates? = nil,
                signIn: BoardSignIn.Outcome = .none, pages: ThreadPaging? = nil,
                deliver: @escaping (@escaping () -> Void) -> Void = { DispatchQueue.main.async(execute: $0) }) {
        self.service = service
        self.serverLabel = serverLabel
        self.sender = sender
        self.live = live
        self.signIn = signIn
        self.pages = pages
        self.deliver = deliver
    }

    /// Loads the threads.
    public func start() {
        refresh(quietly: false)
    }

    /// Follows the open thread's messages as they change, when there are live updates and Lesson 8 is not known to be
    /// unfinished. Reports come through `deliver`; a stopped listener's are ignored.
    func startListening(to identifier: String) {
        guard let live else { return }
        if case .notStarted = liveState { return }
        liveGeneration += 1
        let generation = liveGeneration
        liveState = .listening(threadID: identifier)
        live.start(threadID: identifier, changed: { [weak self] messages in
            self?.deliver {
                guard let self, self.liveGeneration == generation else { return }
                self.applyLive(messages, to: identifier)
            }
        }, ended: { [weak self] failure in
            self?.deliver {
                guard let self, self.liveGeneration == generation else { return }
                self.endLive(failure)
            }
        })
    }

    /// Leaving the thread: a listener stops, and an ended one's "stopped (above)" note goes with the thread.
    func stopListening() {
        guard live != nil else { return }
        switch liveState {
        case .listening:
            liveGeneration += 1
            liveState = .idle
            live?.stop()
        case .ended: liveState = .idle
        case .idle, .notStarted: break
        }
    }

    private func applyLive(_ messages: [BoardMessage], to identifier: String) {
        guard let index = threads.firstIndex(where: { $0.identifier == identifier }),
              threads[index].messages != messages else { return }
        threads[index].messages = messages
        onChange()
    }

    private func endLive(_ failure: BoardFailure) {
        liveGeneration += 1
        live?.stop()  // lets the ended listener and its session go
        if case .notStarted(let section) = failure.problem {
            liveState = .notStarted(section: section)  // said on the info line, not as an error
        } else {
            liveState = .ended
            status = Status(text: failure.statusText, isError: true)
        }
        onChange()
    }

    public var openThread: BoardThread? {
        guard case .thread(let identifier) = page else { return nil }
        return threads.first { $0.identifier == identifier }
    }

    public func quit() {
        stopListening()
        hasQuit = true
    }

    /// Advances the spinner while the board waits.
    public func tick() {
        guard busy != nil else { return }
        spinnerFrame += 1
        onChange()
    }
}
