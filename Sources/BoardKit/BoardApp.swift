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
    /// Whether messages from other clients arrive by themselves (Lesson 8); without, `r` refreshes.
    public var hasLiveUpdates: Bool { live != nil }
    /// The terminal's size; the screen is laid out for it (80×24 by default).
    public var size = (width: 80, height: 24)
    public var timeZone = TimeZone.current { didSet { dateFormatters = [:] } }
    /// By pattern: a screen shows many dates, and a DateFormatter is slow to make.
    var dateFormatters: [String: DateFormatter] = [:]
    /// Called after every change of state, on the delivery queue: redraw.
    public var onChange: () -> Void = {}

    let service: BoardService
    private let live: LiveUpdates?
    /// Where the service's answers are applied: the main queue for the terminal, immediately in some tests.
    let deliver: (@escaping () -> Void) -> Void

    public init(service: BoardService, serverLabel: String, sender: String, live: LiveUpdates? = nil,
                deliver: @escaping (@escaping () -> Void) -> Void = { DispatchQueue.main.async(execute: $0) }) {
        self.service = service
        self.serverLabel = serverLabel
        self.sender = sender
        self.live = live
        self.deliver = deliver
    }

    /// Loads the threads, and listens for live updates when there are any.
    public func start() {
        refresh(quietly: false)
        live?.start { [weak self] in self?.deliver { self?.refresh(quietly: true) } }
    }

    public var openThread: BoardThread? {
        guard case .thread(let identifier) = page else { return nil }
        return threads.first { $0.identifier == identifier }
    }

    public func quit() {
        live?.stop()
        hasQuit = true
    }

    /// Advances the spinner while the board waits.
    public func tick() {
        guard busy != nil else { return }
        spinnerFrame += 1
        onChange()
    }
}
