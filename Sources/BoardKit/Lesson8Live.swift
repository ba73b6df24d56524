// Live updates, through the learner's Lesson 8 `ForumListener`.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport
import Lesson8

/// One `ForumListener` at a time, for the thread the board shows. Its `start` and `stop` run where the learner's other
/// calls run (off the main queue, taking turns, named to `CrashGuard`); what it reports is passed on as it comes.
public final class Lesson8Live: LiveUpdates {
    /// A server that streams: `lab serve`, a real Firebase, the embedded emulator's socket (never a URLProtocol).
    public let baseURL: URL
    private let configuration: () -> URLSessionConfiguration
    private var listener: ForumListener?  // on LearnerCall.queue only

    public init(baseURL: URL, configuration: @escaping () -> URLSessionConfiguration = { .default }) {
        self.baseURL = baseURL
        self.configuration = configuration
    }

    public func start(threadID: String, changed: @escaping ([BoardMessage]) -> Void,
                      ended: @escaping (BoardFailure) -> Void) {
        LearnerCall.queue.async { [self] in
            close()
            let listener = ForumListener(baseURL: baseURL, threadID: threadID, configuration: configuration())
            self.listener = listener
            CrashGuard.entering(.live)
            listener.start(onUpdate: { messages in
                changed(messages.map { BoardMessage(text: $0.text, sender: $0.sender, timestamp: $0.timestamp) })
            }, onEnd: { error in
                ended(BoardFailure(.live, Self.problem(for: error)))
            })
            CrashGuard.leaving(.live)
        }
    }

    public func stop() {
        LearnerCall.queue.async { [self] in close() }
    }

    /// The learner's `stop()`, then the session let go of (it keeps its delegate, the listener, until invalidated).
    private func close() {
        guard let listener else { return }
        self.listener = nil
        CrashGuard.entering(.live)
        listener.stop()
        CrashGuard.leaving(.live)
        listener.session.invalidateAndCancel()
    }

    static func problem(for error: Error) -> BoardFailure.Problem {
        switch error {
        case ForumStreamError.httpStatus(let status): return .httpStatus(status, message: "")
        case ForumStreamError.closed: return .other("the server closed the stream; open the thread again to listen")
        case ForumStreamError.cancelled: return .other("the server cancelled the stream (cancel)")
        case ForumStreamError.authRevoked(let reason): return .other("the credential was revoked (\(reason))")
        case ForumStreamError.malformedEvent(let data): return .undecodable("an event's data: \(data.prefix(40))")
        // What Linux's URLSession says when the server goes away mid-stream.
        case let lost as URLError where lost.code == .unknown:
            return .other("the stream's connection ended (is the server still running?)")
        default: return LearnerCall.problem(for: error, .live)
        }
    }
}
