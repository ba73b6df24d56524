/// What each key does, on each page and in a prompt.
extension BoardApp {
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
            startListening(to: threads[selection].identifier)
            startPaging(threads[selection])
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
        case .character("l"): loadOlder()
        case .escape, .left, .character("b"):
            page = .threads
            paged = nil
            stopListening()
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
}
