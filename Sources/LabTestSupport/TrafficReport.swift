import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator

/// Everything the learner's code sent during a test, wherever it went, in words for a failure message.
public struct TrafficReport {
    /// What reached the emulator through the injected session.
    public let received: [RecordedRequest]
    /// Requests sent through `URLSession.shared` (or another session the tripwire sees) instead.
    public let viaOtherSession: [URLRequest]
    /// Requests through the emulator's session to a host that is not the emulator's (e.g. the real Firebase URL).
    public let toOtherHost: [RecordedRequest]

    /// Any service's emulator: Firebase's, or another lesson's (stray requests are counted across all of them).
    public init<Service>(_ emulator: Emulator<Service>) {
        received = emulator.requests
        viaOtherSession = SessionTripwire.requests
        toOtherHost = Emulator<Service>.strayRequests
    }

    /// Explains what went wrong with where the requests were sent, or nil when nothing did.
    public func wrongPlace(_ exercise: Exercise, baseURL: URL) -> String? {
        if let request = viaOtherSession.first {
            return """
                \(exercise.function) sent \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") through \
                URLSession.shared (or a session of its own), not through the controller's `session`. The tests hand your \
                controller a session that talks to their emulator: use `session.dataTask(with:)`. See \(exercise.reference).
                """
        }
        if let request = toOtherHost.first {
            if let folded = Self.foldedScheme(exercise, request) { return folded }
            return """
                \(exercise.function) sent \(request.method) \(request.url.absoluteString), which is not under the \
                controller's `baseURL` (\(baseURL.absoluteString)). Build every URL from `baseURL`. See \(exercise.reference).
                """
        }
        return nil
    }

    /// The message for a request whose URL lost its host because the `//` after its scheme became one slash
    /// (`https:/host/…`, as NSString's file-path methods make it); nil for any other request.
    static func foldedScheme(_ exercise: Exercise, _ request: RecordedRequest) -> String? {
        let text = request.url.absoluteString
        guard request.url.host == nil, let scheme = request.url.scheme, ["http", "https"].contains(scheme.lowercased()),
              text.hasPrefix(scheme + ":/"), !text.hasPrefix(scheme + "://") else { return nil }
        return """
            \(exercise.function) sent \(request.method) \(text): after `\(scheme):` comes one slash, not two, so the URL has \
            no host (the server's name became the first key of its path) and cannot reach the server. NSString's \
            file-path methods do that: `(text as NSString).appendingPathComponent(…)` and `.appendingPathExtension(…)` \
            treat a URL's text as a path on disk and fold its `//` into `/`. Build the URL with URL's own methods \
            (`baseURL.appendingPathComponent(…)`), or as a string without NSString. See LESSONS.md §1.2 and \(exercise.reference).
            """
    }

    /// On Linux, the message for an answer read with a download task, nil elsewhere or for a data task:
    /// swift-corelibs-foundation gives a download task served by a URLProtocol (the tests' emulator) no file — a nil
    /// location, or an empty file — so a solution correct on a Mac never sees the answer here (swiftlang/
    /// swift-corelibs-foundation#3367). Said as what it is, before any message about the error it led to.
    /// `reference`: where LESSONS.md says so (the exercise's own section when nil).
    public func downloadTaskOnLinux(_ exercise: Exercise, see reference: String? = nil) -> String? {
        #if os(Linux)
        guard received.contains(where: \.fromDownloadTask) else { return nil }
        return """
            \(exercise.function) read the answer with a download task (`downloadTask(with:)`). That works on Apple \
            platforms, but on Linux swift-corelibs-foundation gives a download task served by the tests' emulator no \
            file (a nil location, or an empty file), so the answer never reaches your code. Use a data task \
            (`session.dataTask(with:)`, or `try await session.data(for:)`), the usual choice for a JSON answer anyway. \
            See \(reference ?? exercise.reference).
            """
        #else
        return nil
        #endif
    }

    /// The message for a completion handler that was not called in time.
    /// `earlierMiss`: the test in which the function first missed its completion, when that was an earlier test
    /// (this one then waited less than `normal`).
    func missingCompletion(_ exercise: Exercise, waited: TimeInterval, earlierMiss: String?, normal: TimeInterval) -> String {
        var lines = ["\(exercise.function) did not call its completion within \(seconds(waited))."]
        if let earlier = earlierMiss, waited < normal {
            lines[0] = "\(exercise.function) did not call its completion within \(seconds(waited)) (it already missed it for \(seconds(normal)) in \(earlier), so this test waited less)."
        }
        if let last = received.last {
            lines.append("The emulator received \(received.count) request(s) and answered; the last: \(last.summary).")
            lines.append("So the task ran, but your handler returned without calling `completion` on that path: check every `return` and `guard … else`, and call `completion(nil)` on success.")
            if last.response.transportError != nil {
                lines.append("It ended in a transport error, so look at the path for an error: it must pass the error to `completion` — and with async/await, a `try await` that no `do`/`catch` surrounds ends its `Task` silently when it throws.")
            } else if !(200...299).contains(last.response.statusCode) {
                lines.append("It answered \(last.response.statusCode), so look at the path for a refusal: it must pass an error to `completion` — and with async/await, an error thrown in a `Task` that no `do`/`catch` surrounds, or caught by a `catch` that only prints it, never reaches `completion`.")
            }
        } else if !viaOtherSession.isEmpty || !toOtherHost.isEmpty {
            lines.append("No request reached the emulator through the injected `session`; one went elsewhere (URLSession.shared or another host), and its failure never reached `completion`.")
        } else {
            lines.append("No request reached the emulator at all. Likely causes: the data task was never started (call `.resume()` on it), or the code returned before making it without calling `completion`.")
        }
        lines.append("See \(exercise.reference).")
        return lines.joined(separator: " ")
    }

    /// The message when the wait ended early because no request was sent at all (`CompletionTimeouts.withoutARequest`).
    func missingCompletionWithoutRequest(_ exercise: Exercise, waited: TimeInterval) -> String {
        """
        \(exercise.function) did not call its completion, and in \(seconds(waited)) no request reached the emulator or \
        went anywhere else — so no answer was coming (the test stopped waiting then). Likely causes: the data task was \
        never started (call `.resume()` on it), or the code returned before making it without calling `completion`. \
        See \(exercise.reference).
        """
    }

    private func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// "PUT /a.json -> 200; POST …" — the requests the emulator received, for the end of a message.
    public var summary: String {
        received.isEmpty ? "(no request reached the emulator)" : received.map(\.summary).joined(separator: "; ")
    }
}
