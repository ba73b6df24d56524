import Foundation

/// The scriptable board: one command, its result on standard output (tab-separated, a line each), its failure as
/// one line on standard error naming the exercise, and an exit status: 0 done, 1 failed.
public enum BoardScript {
    public struct Output {
        public var line: (String) -> Void
        public var error: (String) -> Void

        public init(line: @escaping (String) -> Void, error: @escaping (String) -> Void) {
            self.line = line
            self.error = error
        }
    }

    public static func run(_ command: BoardOptions.Command, sender: String, service: BoardService, output: Output,
                           finish: @escaping (Int32) -> Void) {
        let fail: (String) -> Void = { output.error("board: " + $0); finish(1) }
        switch command {
        case .interactive:
            fail("the screen is not a script command")
        case .list:
            service.fetchThreads { result in
                switch result {
                case .success(let threads):
                    threads.forEach { output.line("\($0.identifier)\t\($0.messages.count)\t\($0.title)") }
                    finish(0)
                case .failure(let failure):
                    fail(failure.statusText)
                }
            }
        case .show(let name):
            findThread(name, service: service, fallback: false) { found in
                switch found {
                case .success(let thread):
                    thread.messages.forEach { output.line("\(timestamp($0.timestamp))\t\($0.sender)\t\($0.text)") }
                    finish(0)
                case .failure(let message):
                    fail(message.text)
                }
            }
        case .newThread(let title):
            service.createThread(title: title) { result in
                switch result {
                case .success(let thread):
                    output.line("\(thread?.identifier ?? "?")\t\(title)")
                    finish(0)
                case .failure(let failure):
                    fail(failure.statusText)
                }
            }
        case .post(let name, let text):
            findThread(name, service: service, fallback: true) { found in
                switch found {
                case .success(let thread):
                    service.post(text: text, sender: sender, to: thread) { result in
                        switch result {
                        case .success:
                            output.line("posted to \"\(thread.title)\" as \(sender)")
                            finish(0)
                        case .failure(let failure):
                            fail(failure.statusText)
                        }
                    }
                case .failure(let message):
                    fail(message.text)
                }
            }
        }
    }

    struct Message: Error {
        let text: String
    }

    /// The thread `name` names, by identifier or else by title, from a fetch. `fallback`: when the fetch is not
    /// written yet, `name` is taken for an identifier, so a post works with Lesson 1 alone.
    static func findThread(_ name: String, service: BoardService, fallback: Bool,
                           completion: @escaping (Result<BoardThread, Message>) -> Void) {
        service.fetchThreads { result in
            switch result {
            case .success(let threads):
                if let thread = threads.first(where: { $0.identifier == name }) { return completion(.success(thread)) }
                let titled = threads.filter { $0.title == name }
                if titled.count == 1 { return completion(.success(titled[0])) }
                completion(.failure(Message(text: titled.isEmpty
                    ? "no thread is called or titled \"\(name)\" (board --list shows them)"
                    : "\(titled.count) threads are titled \"\(name)\": name one by its identifier (board --list)")))
            case .failure(let failure):
                if fallback, case .notStarted = failure.problem {
                    return completion(.success(BoardThread(title: name, identifier: name)))
                }
                completion(.failure(Message(text: failure.statusText)))
            }
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}
