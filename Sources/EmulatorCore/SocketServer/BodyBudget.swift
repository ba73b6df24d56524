import Foundation

/// What the request bodies being received at once may hold, across a server's connections. Each connection may read
/// a body of `ServerLimits.maximumBodyBytes`; without a shared bound, 512 connections sending 16 MB each would hold
/// 8 GB (20 such clients took `lab serve` from 76 MB to 595 MB). A body that does not fit is refused with 503.
final class BodyBudget {
    private let lock = NSLock()
    private let limit: Int
    private var used = 0

    init(limit: Int) { self.limit = limit }

    /// Reserves `bytes`; false (nothing reserved) when the total would pass the limit.
    func reserve(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard bytes <= limit - used else { return false }
        used += bytes
        return true
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.lock()
        used -= bytes
        lock.unlock()
    }

    /// Bytes reserved now (for tests).
    var reserved: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }
}
