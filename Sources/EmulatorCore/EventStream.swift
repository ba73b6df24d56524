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

    /// A client that reads slower than the service writes is cut off (see `StreamBudget`) rather than let its
    /// unread pieces take the server's memory.
    public let budget: StreamBudget

    private let condition = NSCondition()
    private var queue: [Data] = []
    /// Queued bytes plus the piece the transport is writing now: what the client has not read yet.
    private var unreadBytes = 0
    private var inFlightBytes = 0
    private var finished = false
    private var cancelled = false
    private var onCancel: (() -> Void)?

    public init(statusCode: Int = 200, headers: [String: String], idleEvent: Data? = nil, idleInterval: TimeInterval = 30,
                budget: StreamBudget = .shared) {
        self.statusCode = statusCode
        self.headers = headers
        self.idleEvent = idleEvent
        self.idleInterval = idleInterval
        self.budget = budget
    }

    /// Queues one piece; ignored once the stream has finished or been cancelled. A stream over its budget is
    /// cancelled instead, and its transport told to drop the client at once.
    public func send(_ piece: Data) {
        condition.lock()
        guard !finished, !cancelled else { return condition.unlock() }
        guard budget.reserve(piece.count, unread: unreadBytes) else {
            let drop = cancelLocked()
            condition.unlock()
            drop?()
            return
        }
        unreadBytes += piece.count
        queue.append(piece)
        condition.broadcast()
        condition.unlock()
    }

    deinit { budget.release(unreadBytes) }  // a stream dropped without a transport ever draining it

    /// The transport's way to drop its client when the stream is cancelled from elsewhere (over budget): a write
    /// blocked on a client that stopped reading is not left waiting for its time-out.
    public func whenCancelled(_ action: @escaping () -> Void) {
        condition.lock()
        let now = cancelled
        if !now { onCancel = action }
        condition.unlock()
        if now { action() }
    }

    /// Under the lock: marks the stream cancelled, frees what it held; returns the transport's drop action.
    private func cancelLocked() -> (() -> Void)? {
        cancelled = true
        queue.removeAll()
        budget.release(unreadBytes)
        unreadBytes = 0
        inFlightBytes = 0
        condition.broadcast()
        defer { onCancel = nil }
        return onCancel
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
        guard !cancelled else { return condition.unlock() }
        _ = cancelLocked()  // the transport itself cancels: nothing to tell it
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

    /// Waits up to `timeout` seconds for the next piece. Asking for the next one means the previous one was written.
    public func next(timeout: TimeInterval) -> Next {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        if !cancelled {
            budget.release(inFlightBytes)
            unreadBytes -= inFlightBytes
            inFlightBytes = 0
        }
        while true {
            if cancelled { return .end }
            if !queue.isEmpty {
                let piece = queue.removeFirst()
                inFlightBytes = piece.count
                return .piece(piece)
            }
            if finished { return .end }
            if !condition.wait(until: deadline) { return .idle }
        }
    }
}
