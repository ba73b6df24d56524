import Foundation

/// A clock for reproducible sessions: reads `start`, then `step` seconds later at each reading (the server reads it
/// once per room or message it makes), so recorded times and tests' expectations never depend on the wall clock.
public final class SteppingClock {
    private let lock = NSLock()
    private var current: Date
    private let step: TimeInterval

    public init(start: Date, step: TimeInterval = 60) {
        current = start
        self.step = step
    }

    /// Pass it as the emulator's clock: `ChatCaveEmulator(clock: clock.next)`.
    public func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        let now = current
        current += step
        return now
    }
}
