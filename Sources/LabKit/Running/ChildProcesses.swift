import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process groups `lab` has running, so that stopping `lab` (Ctrl-C, a CI time-out's SIGTERM, a closed
/// terminal) stops them too: children lead their own groups, which the terminal's signals do not reach. The table is
/// a fixed C array because a signal handler may touch nothing else.
public enum ChildProcesses {
    private static let capacity = 64
    private static let table: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        table.initialize(repeating: 0, count: capacity)
        return table
    }()
    private static let lock = NSLock()

    /// Installs the handlers; `lab`'s main calls it once. SIGPIPE is ignored: a closed stdout must not kill `lab`
    /// halfway through a grade.
    public static func stopWithLab() {
        _ = table
        signal(SIGPIPE, SIG_IGN)
        for stopping in [SIGINT, SIGTERM, SIGHUP] {
            signal(stopping) { received in
                for index in 0..<ChildProcesses.capacity where ChildProcesses.table[index] > 0 {
                    kill(-ChildProcesses.table[index], SIGKILL)
                }
                _exit(128 + received)
            }
        }
    }

    static func started(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        if let free = (0..<capacity).first(where: { table[$0] == 0 }) { table[free] = pid }
    }

    static func ended(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        if let slot = (0..<capacity).first(where: { table[$0] == pid }) { table[slot] = 0 }
    }
}
