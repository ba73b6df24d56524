import BoardKit
import Foundation

/// A server for the screen-model tests: answers what the test set, synchronously, or holds an answer back until the
/// test releases it (a slow server).
final class FakeBoardService: BoardService {
    var threads: [BoardThread] = []
    var fetchFailure: BoardFailure?
    var createFailure: BoardFailure?
    var postFailure: BoardFailure?
    /// When true, calls wait in `held` until the test runs them.
    var holdAnswers = false
    private(set) var held: [() -> Void] = []
    private(set) var fetches = 0
    private(set) var created: [String] = []
    private(set) var posts: [(text: String, sender: String, thread: String)] = []

    func fetchThreads(completion: @escaping (Result<[BoardThread], BoardFailure>) -> Void) {
        fetches += 1
        answer { completion(self.fetchFailure.map { .failure($0) } ?? .success(self.threads)) }
    }

    func createThread(title: String, completion: @escaping (Result<BoardThread?, BoardFailure>) -> Void) {
        answer {
            if let failure = self.createFailure { return completion(.failure(failure)) }
            let thread = BoardThread(title: title, identifier: "new-\(self.created.count)")
            self.created.append(title)
            self.threads.append(thread)
            self.threads.sort { $0.title < $1.title }
            completion(.success(thread))
        }
    }

    func post(text: String, sender: String, to thread: BoardThread,
              completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void) {
        answer {
            if let failure = self.postFailure { return completion(.failure(failure)) }
            let message = BoardMessage(text: text, sender: sender, timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000))
            self.posts.append((text, sender, thread.identifier))
            if let index = self.threads.firstIndex(where: { $0.identifier == thread.identifier }) {
                self.threads[index].messages.append(message)
            }
            completion(.success(message))
        }
    }

    /// Runs the held answers, oldest first.
    func release() {
        let waiting = held
        held = []
        waiting.forEach { $0() }
    }

    private func answer(_ body: @escaping () -> Void) {
        if holdAnswers { held.append(body) } else { body() }
    }
}

/// The course's sample thread, and a second one.
enum Sample {
    static let restAPIs = BoardThread(title: "REST APIs", identifier: "695398C4-498C-40A8-AA76-CB2B20DFD9FA", messages: [
        BoardMessage(text: "This is a test to make sure the API works!", sender: "Spencer",
                     timestamp: Date(timeIntervalSinceReferenceDate: 555_405_872.056162)),
    ])
    static let reading = BoardThread(title: "📚 Reading list", identifier: "12AB8F1C-A268-42A7-9A7F-8A5ED0C7F6AB")
}
