import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which emulator answers for which host. Keyed by a unique host per instance, behind a lock, so tests stay
/// isolated even when several emulators live at once and requests arrive on URLSession's own queues.
final class HostRegistry {
    static let shared = HostRegistry()

    private final class WeakEmulator {
        weak var emulator: RequestProcessing?
        /// When the host was reserved, in `reserved` order.
        let number: Int
        init(number: Int) { self.number = number }
    }

    private let lock = NSLock()
    private var entries: [String: WeakEmulator] = [:]
    /// How many hosts were ever reserved: marks "created since" for `sessions(reservedAfter:)`.
    private var reserved = 0
    private var strays: [RecordedRequest] = []

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A fresh host under `domain`, reserved at once so two emulators created concurrently can never share it.
    func reserveHost(in domain: String) -> String {
        locked {
            while true {
                let hex = String(UInt32.random(in: .min ... .max), radix: 16)
                let host = "lab-" + String(repeating: "0", count: 8 - hex.count) + hex + "." + domain
                if entries[host] == nil {
                    reserved += 1
                    entries[host] = WeakEmulator(number: reserved)
                    return host
                }
            }
        }
    }

    func attach(_ emulator: RequestProcessing, to host: String) {
        locked { entries[host]?.emulator = emulator }
    }

    func remove(host: String) {
        locked { entries[host] = nil }
    }

    func emulator(forHost host: String?) -> RequestProcessing? {
        guard let host = host?.lowercased() else { return nil }
        return locked { entries[host]?.emulator }
    }

    /// The sessions of the emulators still registered whose host was reserved after `mark` (a past `reservedCount`).
    func sessions(reservedAfter mark: Int) -> [URLSession] {
        locked { entries.values.filter { $0.number > mark }.compactMap { $0.emulator?.session } }
    }

    var reservedCount: Int { locked { reserved } }

    func recordStray(_ request: RecordedRequest) {
        locked { strays.append(request) }
    }

    var strayRequests: [RecordedRequest] { locked { strays } }

    func resetStrayRequests() {
        locked { strays.removeAll() }
    }
}
