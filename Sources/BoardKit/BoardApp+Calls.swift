import Foundation

/// The board's calls to the server, and what their answers change: one call at a time, answers applied on the
/// delivery queue, a write followed by a refresh.
extension BoardApp {
    func submit() {
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
            if openThread == nil {
                page = .threads
                stopListening()
            }
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
            show("posted as \(sender) with your " + (signIn.user == nil ? "createMessage (POST)" : "database(\"POST\") (Lesson 9)"), error: false)
            refresh(quietly: true)
        case .failure(let failure):
            show(failure.statusText, error: true)
        }
        onChange()
    }

    func show(_ text: String, error: Bool) {
        status = Status(text: text, isError: error)
    }
}
