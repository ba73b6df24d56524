// Given: already written for you. Lesson 8's event-stream reading, solved and small, so that §9.6 is about tokens:
// one event, a parser for the stream's bytes, and `events(of:)`, which opens a request as a stream (LESSONS.md §9.6).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One event of a stream: `event: <name>` and its `data:` lines (§8.1).
public struct ServerSentEvent: Equatable, CustomStringConvertible {
    public let name: String
    public let data: String

    public init(name: String, data: String) {
        self.name = name
        self.data = data
    }

    public var description: String { "\(name) \(data)" }
}

/// Reads one stream: feed it each piece as it comes; it returns the events those bytes complete (§8.2).
public struct EventStreamParser {
    private var pending = Data()
    private var name = ""
    private var dataLines: [String] = []

    public init() {}

    public mutating func parse(_ piece: Data) -> [ServerSentEvent] {
        pending.append(piece)
        var events: [ServerSentEvent] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending[pending.startIndex..<newline]
            pending = pending[(newline + 1)...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            if text.isEmpty {
                if !name.isEmpty || !dataLines.isEmpty {
                    events.append(ServerSentEvent(name: name, data: dataLines.joined(separator: "\n")))
                }
                (name, dataLines) = ("", [])
                continue
            }
            let field = text.prefix { $0 != ":" }
            var value = text.dropFirst(field.count).dropFirst()
            if value.first == " " { value = value.dropFirst() }
            if field == "event" { name = String(value) } else if field == "data" { dataLines.append(String(value)) }
        }
        pending = Data(pending)  // start indices at 0 again
        return events
    }
}

extension ForumSession {
    /// Opens `request` as an event stream, through a session of its own made from `streamConfiguration` (only a
    /// session's delegate sees a response piece by piece, §8.1), and hands on its events in order:
    /// `for try await event in events(of: request) { … }`. The loop ends when the server closes the stream; it
    /// throws when the answer is not 200 (401 `Permission denied`: `.permissionDenied`; another:
    /// `.status(code, error text)`) or the connection is lost (`.transport`). Leaving the loop closes the connection.
    public func events(of request: URLRequest) -> AsyncThrowingStream<ServerSentEvent, Error> {
        AsyncThrowingStream { continuation in
            let reader = EventStreamReader(continuation)
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: streamConfiguration, delegate: reader, delegateQueue: queue)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// The delegate of one stream's session: its pieces go through one parser into the continuation.
private final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<ServerSentEvent, Error>.Continuation
    private var parser = EventStreamParser()  // touched only on the session's serial delegate queue
    private var status = 0
    private var refusal = Data()

    init(_ continuation: AsyncThrowingStream<ServerSentEvent, Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard status == 200 else { return refusal.append(data) }
        for event in parser.parse(data) { continuation.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error = error as? URLError, error.code != .cancelled {
            return continuation.finish(throwing: SignInError.transport(error))
        }
        guard status == 200 || error != nil else {
            struct Body: Decodable { let error: String }
            let text = (try? JSONDecoder().decode(Body.self, from: refusal))?.error ?? String(decoding: refusal, as: UTF8.self)
            let refused = status == 401 && text == "Permission denied" ? SignInError.permissionDenied : .status(status, text)
            return continuation.finish(throwing: refused)
        }
        continuation.finish()
    }
}
