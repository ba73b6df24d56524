import Foundation

/// One line of the screen: its text, exactly as wide as the screen, and how to show it.
public struct ScreenLine: Equatable, CustomStringConvertible {
    public enum Style: Equatable {
        case plain, bar, selected, heading, dim, error
    }

    public let text: String
    public let style: Style

    public var description: String { text }
}

/// The screen, drawn from the state: a title bar, a header, the body (threads or messages), the status line, a
/// prompt or an info line, and the keys. It fills `size` exactly; 80×24 is what it is designed for.
extension BoardApp {
    static let spinner = ["|", "/", "-", "\\"]

    var bodyHeight: Int { max(1, size.height - 7) }

    public func screen() -> [ScreenLine] {
        let width = size.width
        func line(_ text: String, _ style: ScreenLine.Style = .plain) -> ScreenLine {
            ScreenLine(text: TextWidth.pad(text, to: width), style: style)
        }
        let rule = line(String(repeating: "─", count: width), .dim)
        var lines = [ScreenLine(text: TextWidth.spread(" Message Board", serverLabel + " ", width: width), style: .bar)]
        lines.append(ScreenLine(text: TextWidth.spread(header, signInNote.map { $0 + " " } ?? "", width: width), style: .heading))
        lines.append(rule)
        let body = page == .threads ? threadListBody() : messagesBody()
        lines += body.map { line($0.text, $0.style) }
        lines += Array(repeating: line(""), count: max(0, bodyHeight - body.count))
        lines.append(rule)
        // A long status takes the info line too, so that its section, at the end, is never cut off.
        let statusLines = busy.map { ["\(Self.spinner[spinnerFrame % Self.spinner.count]) \($0)…"] }
            ?? TextWidth.wrap(status.text, width: max(1, width - 2))
        let statusStyle: ScreenLine.Style = busy == nil && status.isError ? .error : .plain
        lines.append(line(" " + statusLines[0], statusStyle))
        if let promptOrInfo {
            lines.append(line(" " + promptOrInfo))
        } else if statusLines.count > 1 {
            lines.append(line(" " + statusLines.dropFirst().joined(separator: " "), statusStyle))
        } else {
            lines.append(line(" " + liveNote, .dim))
        }
        lines.append(line(" " + keys, .bar))
        return Array(lines.prefix(max(0, size.height)))
    }

    private var header: String {
        guard let thread = openThread else {
            return hasLoaded ? " Threads: \(threads.count)" : " Threads"
        }
        let shown = shownMessages.count
        if let paged, isPaged, !paged.reachedStart {
            return " \(thread.title) — newest \(shown) of \(max(shown, thread.messages.count)), l loads older"
        }
        return " \(thread.title) — \(shown) \(shown == 1 ? "message" : "messages"), oldest first"
    }

    /// Who posts: the header's right end.
    private var signInNote: String? {
        switch signIn {
        case .none: return nil
        case .guest: return "not signed in"
        case .signedIn(let user): return "signed in as \(user.email)"
        case .notStarted(let section): return "sign-in: finish Lesson 9 §\(section)"
        }
    }

    private var promptOrInfo: String? {
        switch prompt {
        case .newThread?: return "New thread title: \(input)_"
        case .message?: return "Message as \(sender): \(input)_"
        case nil: return nil
        }
    }

    private var liveNote: String {
        guard hasLiveUpdates else { return "No live updates here: r shows others' posts." }
        switch liveState {
        case .idle: return "Live updates in an open thread (Lesson 8); r refreshes the list."
        case .listening: return "Live: other clients' posts appear by themselves."
        case .notStarted(let section):
            return "live updates: finish Lesson \(section.prefix { $0 != "." }) §\(section); until then r shows others' posts."
        case .ended: return "Live updates stopped (above): r refreshes; open the thread again to listen."
        }
    }

    private var keys: String {
        if prompt != nil { return "type   enter send   esc cancel" }
        if page == .threads { return "↑↓ select   enter open   n new thread   r refresh   q quit" }
        return "↑↓ scroll   p post   l load older   r refresh   esc back   q quit"
    }

    private func threadListBody() -> [(text: String, style: ScreenLine.Style)] {
        guard !threads.isEmpty else { return emptyListNote.map { ($0, .plain) } }
        let top = max(0, selection - bodyHeight + 1)
        return threads.indices.dropFirst(top).prefix(bodyHeight).map { index in
            let thread = threads[index]
            // Columns: the title, the number of messages, the last message's sender and day.
            let count = String(thread.messages.count)
            var detail = String(repeating: " ", count: max(0, 3 - count.count)) + count
                + (thread.messages.count == 1 ? " message   " : " messages  ")
            if let last = thread.messages.last { detail += TextWidth.pad(last.sender, to: 10) + " " + day(last.timestamp) }
            let marker = index == selection ? " > " : "   "
            return (TextWidth.pad(marker + thread.title, to: size.width - 36) + " " + TextWidth.pad(detail, to: 35),
                    index == selection ? .selected : .plain)
        }
    }

    private var emptyListNote: [String] {
        if case .notStarted? = listFailure?.problem {
            return ["", "  The thread list is your fetchMessageThreads.",
                    "  Finish Lesson 4 §4.6, then press r to see the board's threads.", "",
                    "  Meanwhile n starts a thread with your createMessageThread (Lesson 1 §1.3)."]
        }
        if listFailure != nil { return ["", "  No threads: the last refresh failed (below). r tries again."] }
        if !hasLoaded { return ["", "  Loading the threads…"] }
        return ["", "  No threads yet: n starts one."]
    }

    /// The open thread's messages as shown (every one, or its pages), oldest first, as lines: a heading, the wrapped
    /// text, a blank line.
    private func messageLines() -> [(text: String, style: ScreenLine.Style)] {
        guard openThread != nil else { return [] }
        let messages = shownMessages
        if messages.isEmpty { return [("", .plain), ("  No messages yet: p posts the first (Lesson 1 §1.4).", .plain)] }
        return messages.enumerated().flatMap { index, message -> [(text: String, style: ScreenLine.Style)] in
            let text = TextWidth.wrap(message.text, width: size.width - 5).map { ("    " + $0, ScreenLine.Style.plain) }
            return (index == 0 ? [] : [("", .plain)]) + [("  \(message.sender) · \(minute(message.timestamp))", .heading)] + text
        }
    }

    var maxScrollBack: Int { max(0, messageLines().count - bodyHeight) }

    private func messagesBody() -> [(text: String, style: ScreenLine.Style)] {
        let lines = messageLines()
        let end = lines.count - min(scrollBack, maxScrollBack)
        return Array(lines[max(0, end - bodyHeight)..<end])
    }

    private func day(_ date: Date) -> String { format(date, "yyyy-MM-dd") }
    private func minute(_ date: Date) -> String { format(date, "yyyy-MM-dd HH:mm") }

    private func format(_ date: Date, _ pattern: String) -> String {
        if let formatter = dateFormatters[pattern] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        dateFormatters[pattern] = formatter
        return formatter.string(from: date)
    }
}
