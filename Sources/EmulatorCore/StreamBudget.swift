import Foundation

/// How many bytes event streams may hold for clients that have not read them yet: per stream and in total. A
/// stream that would go past either limit while it still holds unread bytes is cancelled (its client dropped), so
/// slow or stalled readers cannot take the server's memory. A stream with nothing unread always accepts the next
/// piece, however large: a client that keeps up is never dropped because of others.
public final class StreamBudget {
    /// Unread bytes one stream may hold (queued, plus the piece being written to its socket).
    public let perStream: Int
    /// Unread bytes all streams sharing this budget may hold together.
    public let total: Int

    private let lock = NSLock()
    private var held = 0

    /// Every stream shares this one unless it is given its own: 4 MB per stream, 32 MB in all.
    public static let shared = StreamBudget(perStream: 4 << 20, total: 32 << 20)

    public init(perStream: Int, total: Int) {
        self.perStream = perStream
        self.total = total
    }

    /// Unread bytes held by all its streams now.
    public var heldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return held
    }

    /// Takes `bytes` for a stream that holds `unread` already; false (nothing taken) when that stream must be dropped.
    func reserve(_ bytes: Int, unread: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if unread > 0 && (unread + bytes > perStream || held + bytes > total) { return false }
        held += bytes
        return true
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.lock()
        held -= bytes
        lock.unlock()
    }
}
