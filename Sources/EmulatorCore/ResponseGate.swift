import Foundation

/// Holds answers back until a test opens it (`Emulator.holdResponses()`), so a request can stay in flight as long as
/// the test needs — to cancel it, say — without relying on a latency being long enough.
final class ResponseGate {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [() -> Void] = []

    /// Runs `body` once the gate opens: at once when it is already open.
    func whenOpen(_ body: @escaping () -> Void) {
        lock.lock()
        guard !isOpen else {
            lock.unlock()
            return body()
        }
        waiting.append(body)
        lock.unlock()
    }

    func open() {
        lock.lock()
        isOpen = true
        let released = waiting
        waiting = []
        lock.unlock()
        released.forEach { $0() }
    }
}

/// Answers an emulator held back (`Emulator.holdOnlyTheResponsesSoFar()`), delivered by `release()` (once; again is
/// harmless).
public struct HeldResponses {
    fileprivate let gate: ResponseGate?

    init(gate: ResponseGate?) { self.gate = gate }

    public func release() { gate?.open() }
}
