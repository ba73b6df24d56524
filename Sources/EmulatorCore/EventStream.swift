import Foundation

/// A response delivered in pieces over time (Server-Sent Events, say). The service creates it in `respond(to:)`,
/// keeps it in its state and `send`s to it on later requests; the socket server writes each piece as it comes.
/// Thread-safe: services send under the emulator's lock while a connection's thread drains it.
public final class EventStream {
    public let statusCode: Int
    public let headers: [String: String]
    /// Written when nothing else was sent for `idleInterval` seconds (Firebase: a `keep-alive` event).
    public let idleEvent: Data?
    public let idleInterval: TimeInterval

    /// A client that reads slower than the service writes is cut off rather than let the queue grow without bound.
    public static let maximumQueuedBytes = 8 << 20

    private let condition = NSCondition()
    private var queue: [Data] = []
    private var queuedBytes = 0
    private var finished = false
    private var cancelled = false

    public init(statusCode: Int = 200, headers: [String: String], idleEvent: Data? = nil, idleInterval: TimeInterval = 30) {
        self.statusCode = statusCode
        self.headers = headers
        self.idleEvent = idleEvent
        self.idleInterval = idleInterval
    }

    /// Queues one piece; ignored once the stream has finished or been cancelled.
    public func send(_ piece: Data) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished, !cancelled else { return }
        queuedBytes += piece.count
        if queuedBytes > Self.maximumQueuedBytes {
            cancelled = true
            queue.removeAll()
        } else {
            queue.append(piece)
        }
        condition.broadcast()
    }

    /// The service ends the response once what was sent has been delivered.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The transport gave up (the client left, the server stops): later `send`s are dropped.
    public func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// True once the transport gave up: the service should forget the stream.
    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// What a transport does next.
    public enum Next: Equatable {
        case piece(Data)
        /// Nothing for `timeout` seconds.
        case idle
        /// Finished and drained, or cancelled.
        case end
    }

    /// Waits up to `timeout` seconds for the next piece.
    public func next(timeout: TimeInterval) -> Next {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled { return .end }
            if !queue.isEmpty {
                let piece = queue.removeFirst()
                queuedBytes -= piece.count
                return .piece(piece)
            }
            if finished { return .end }
            if !condition.wait(until: deadline) { return .idle }
        }
    }
}
