import Foundation

/// The board without a terminal: keys in, calls to the service out, and the state the screen is drawn from
/// (`BoardApp+Screen.swift`). Tests drive it directly; `TerminalBoard` feeds it a real keyboard.
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

    public private(set) var page = Page.threads
    /// As the last fetch gave them (sorted by the learner's code), plus what was written since.
    public private(set) var threads: [BoardThread] = []
    public private(set) var selection = 0
    /// How many lines a thread is scrolled up from its newest message.
    public private(set) var scrollBack = 0
    public private(set) var prompt: Prompt?
    public private(set) var input = ""
    public private(set) var status = Status(text: "Welcome to the Message Board.", isError: false)
    /// What the board waits for ("loading threads"), shown with a spinner; nil when idle.
    public private(set) var busy: String?
    public private(set) var spinnerFrame = 0
    /// Why the last fetch failed, while it has not succeeded since.
    public private(set) var listFailure: BoardFailure?
    public private(set) var hasLoaded = false
    public private(set) var hasQuit = false

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

    private let service: BoardService
    private let live: LiveUpdates?
    /// Where the service's answers are applied: the main queue for the terminal, immediately in some tests.
    private let deliver: (@escaping () -> Void) -> Void

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

    // MARK: Keys

    public func handle(_ key: Key) {
        if prompt != nil {
            handleInPrompt(key)
        } else if case .thread = page {
            handleInThread(key)
        } else {
            handleInList(key)
        }
        onChange()
    }

    private func handleInList(_ key: Key) {
        switch key {
        case .up, .character("k"): selection = max(0, selection - 1)
        case .down, .character("j"): selection = min(max(0, threads.count - 1), selection + 1)
        case .enter, .right, .character("o"):
            guard threads.indices.contains(selection) else { return }
            page = .thread(identifier: threads[selection].identifier)
            scrollBack = 0
        case .character("n"): openPrompt(.newThread)
        default: handleCommon(key)
        }
    }

    private func handleInThread(_ key: Key) {
        switch key {
        case .up, .character("k"): scrollBack = min(scrollBack + 1, maxScrollBack)
        case .down, .character("j"): scrollBack = max(0, scrollBack - 1)
        case .pageUp: scrollBack = min(scrollBack + bodyHeight, maxScrollBack)
        case .pageDown: scrollBack = max(0, scrollBack - bodyHeight)
        case .character("p"): openPrompt(.message)
        case .escape, .left, .character("b"): page = .threads
        default: handleCommon(key)
        }
    }

    private func handleCommon(_ key: Key) {
        switch key {
        case .character("r"): refresh(quietly: false)
        case .character("q"): quit()
        default: break
        }
    }

    private func handleInPrompt(_ key: Key) {
        switch key {
        case .character(let character) where input.count < 500: input.append(character)
        case .backspace: if !input.isEmpty { input.removeLast() }
        case .escape: prompt = nil
        case .enter: submit()
        default: break
        }
    }

    private func openPrompt(_ kind: Prompt) {
        prompt = kind
        input = ""
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

    // MARK: Calls to the server

    private func submit() {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        guard busy == nil else { return show("wait: \(busy!) is not finished", error: true) }
        let kind = prompt
        prompt = nil
        input = ""
        switch kind {
        case .newThread?: createThread(title: text)
        case .message?: openThread.map { post(text, to: $0) }
        case nil: break
        }
    }

    /// Fetches the threads. `quietly`: after a write, whose message stays on the status line unless this fails for
    /// another reason than an unwritten fetch.
    public func refresh(quietly: Bool) {
        guard busy == nil else { return }
        busy = "loading threads"
        service.fetchThreads { [weak self] result in
            self?.deliver { self?.finishRefresh(result, quietly: quietly) }
        }
    }

    private func finishRefresh(_ result: Result<[BoardThread], BoardFailure>, quietly: Bool) {
        busy = nil
        switch result {
        case .success(let fetched):
            let selected = threads.indices.contains(selection) ? threads[selection].identifier : nil
            threads = fetched
            listFailure = nil
            hasLoaded = true
            selection = selected.flatMap { id in threads.firstIndex { $0.identifier == id } } ?? min(selection, max(0, threads.count - 1))
            if openThread == nil { page = .threads }
            if !quietly { show("\(threads.count) \(threads.count == 1 ? "thread" : "threads"), as your fetchMessageThreads sorted them", error: false) }
        case .failure(let failure):
            listFailure = failure
            // After a write, an unwritten fetch is no news: the write's own message stays.
            if case .notStarted = failure.problem, quietly { break }
            show(failure.statusText, error: true)
        }
        onChange()
    }

    private func createThread(title: String) {
        busy = "creating \"\(title)\""
        service.createThread(title: title) { [weak self] result in
            self?.deliver { self?.finishCreate(result, title: title) }
        }
    }

    private func finishCreate(_ result: Result<BoardThread?, BoardFailure>, title: String) {
        busy = nil
        switch result {
        case .success(let created):
            if let created, !threads.contains(where: { $0.identifier == created.identifier }) {
                threads.append(created)
                selection = threads.count - 1
            }
            show("created \"\(title)\" with your createMessageThread (PUT)", error: false)
            refresh(quietly: true)
        case .failure(let failure):
            show(failure.statusText, error: true)
        }
        onChange()
    }

    private func post(_ text: String, to thread: BoardThread) {
        busy = "posting to \"\(thread.title)\""
        service.post(text: text, sender: sender, to: thread) { [weak self] result in
            self?.deliver { self?.finishPost(result, to: thread.identifier) }
        }
    }

    private func finishPost(_ result: Result<BoardMessage?, BoardFailure>, to identifier: String) {
        busy = nil
        switch result {
        case .success(let message):
            if let message, let index = threads.firstIndex(where: { $0.identifier == identifier }) {
                threads[index].messages.append(message)
            }
            scrollBack = 0
            show("posted as \(sender) with your createMessage (POST)", error: false)
            refresh(quietly: true)
        case .failure(let failure):
            show(failure.statusText, error: true)
        }
        onChange()
    }

    private func show(_ text: String, error: Bool) {
        status = Status(text: text, isError: error)
    }
}
