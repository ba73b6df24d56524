import Foundation

/// Which emulator answers for which host. Keyed by a unique host per instance, behind a lock, so tests stay
/// isolated even when several emulators live at once and requests arrive on URLSession's own queues.
final class Registry {
    static let shared = Registry()

    private final class WeakEmulator {
        weak var emulator: FirebaseEmulator?
    }

    private let lock = NSLock()
    private var entries: [String: WeakEmulator] = [:]
    private var strays: [RecordedRequest] = []

    /// A fresh host, reserved at once so two emulators created concurrently can never share it.
    /// `.invalid` is reserved by RFC 2606 and never resolves: a stray request cannot reach a real server.
    func reserveHost() -> String {
        lock.lock()
        defer { lock.unlock() }
        while true {
            let hex = String(UInt32.random(in: .min ... .max), radix: 16)
            let host = "lab-" + String(repeating: "0", count: 8 - hex.count) + hex + ".firebaseio.invalid"
            if entries[host] == nil {
                entries[host] = WeakEmulator()
                return host
            }
        }
    }

    func attach(_ emulator: FirebaseEmulator, to host: String) {
        lock.lock()
        defer { lock.unlock() }
        entries[host]?.emulator = emulator
    }

    func remove(host: String) {
        lock.lock()
        defer { lock.unlock() }
        entries[host] = nil
    }

    func emulator(forHost host: String?) -> FirebaseEmulator? {
        guard let host = host?.lowercased() else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return entries[host]?.emulator
    }

    func recordStray(_ request: RecordedRequest) {
        lock.lock()
        defer { lock.unlock() }
        strays.append(request)
    }

    var strayRequests: [RecordedRequest] {
        lock.lock()
        defer { lock.unlock() }
        return strays
    }

    func resetStrayRequests() {
        lock.lock()
        defer { lock.unlock() }
        strays.removeAll()
    }
}
