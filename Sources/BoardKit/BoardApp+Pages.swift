/// A thread longer than a page, a page at a time (Lesson 10): it opens at its newest page, and `l` loads the page
/// before what is shown. What was posted or arrived since the newest loaded message comes from the list (r, Lesson 8).
extension BoardApp {
    struct PagedThread {
        let identifier: String
        /// Loaded so far, oldest first.
        var messages: [BoardMessage]
        /// The oldest page came back short: nothing older is left.
        var reachedStart: Bool
    }

    /// The open thread's messages as shown: its pages and what came since, or else all the list brought.
    var shownMessages: [BoardMessage] {
        guard let thread = openThread else { return [] }
        guard let paged, paged.identifier == thread.identifier, let newest = paged.messages.last else { return thread.messages }
        return paged.messages + thread.messages.filter { $0.timestamp > newest.timestamp }
    }

    /// Whether the open thread is shown a page at a time (and so `l` can load older).
    var isPaged: Bool { paged != nil && paged?.identifier == openThread?.identifier }

    /// On opening a thread: longer than a page, it is paged from its newest page.
    func startPaging(_ thread: BoardThread) {
        paged = nil
        guard let pages, pagingStub?.feature != .newestPage, thread.messages.count > pages.pageSize else { return }
        busy = "loading the newest page"
        pages.newestPage(of: thread.identifier) { [weak self] result in
            self?.deliver { self?.finishPage(result, of: thread.identifier, older: false) }
        }
    }

    /// Whether the open thread has a message stamped with fractions of a second: Lesson 1's, posted by a guest.
    private var holdsAGuestsPost: Bool {
        openThread?.messages.contains { $0.timestamp.timeIntervalSinceReferenceDate.rounded() != $0.timestamp.timeIntervalSinceReferenceDate } ?? false
    }

    func loadOlder() {
        guard let thread = openThread, busy == nil else { return }
        if let pagingStub { return show(pagingStub.statusText, error: true) }
        guard let pages, let paged, paged.identifier == thread.identifier else {
            if let pages, thread.messages.count > pages.pageSize { return startPaging(thread) }  // its newest page, again
            return show("every message is shown: l loads older in threads longer than a page", error: false)
        }
        if paged.reachedStart { return show("the start of the thread: nothing older", error: false) }
        busy = "loading older messages"
        pages.olderPage(of: thread.identifier) { [weak self] result in
            self?.deliver { self?.finishPage(result, of: thread.identifier, older: true) }
        }
    }

    private func finishPage(_ result: Result<[BoardMessage], BoardFailure>, of identifier: String, older: Bool) {
        busy = nil
        switch result {
        case .success(let page):
            guard openThread?.identifier == identifier else { break }  // the user left the thread meanwhile
            let shown = older ? paged?.messages ?? [] : []
            paged = PagedThread(identifier: identifier, messages: page + shown, reachedStart: page.count < (pages?.pageSize ?? 0))
            if older {
                scrollBack = maxScrollBack  // the top of the screen: the oldest just loaded
                show(page.isEmpty ? "the start of the thread: nothing older"
                     : "\(page.count) older messages, loaded with your olderPage (Lesson 10)", error: false)
            } else {
                scrollBack = 0
                show("the newest \(page.count) messages, loaded with your newestPage (Lesson 10): l loads older", error: false)
            }
        case .failure(let failure):
            if case .notStarted = failure.problem { pagingStub = failure }
            if case .undecodable = failure.problem, holdsAGuestsPost {
                // Not the learner's Lesson 10: Lesson 1 writes a Date, which Lesson 10's whole-number timestamp cannot read.
                show("a guest's post (Lesson 1) is stamped with fractions of a second, which Lesson 10's Int timestamp "
                     + "cannot read: every message is shown", error: false)
            } else {
                show(failure.statusText, error: true)
            }
        }
        onChange()
    }
}
