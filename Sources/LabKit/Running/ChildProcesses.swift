import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process groups `lab` has running, so that stopping `lab` (Ctrl-C, a CI time-out's SIGTERM, a closed
/// terminal) stops them too: children lead their own groups, which the terminal's signals do not reach. The table is
/// a fixed C array because a signal handler may touch nothing else.
///
/// A SIGKILL of its group is not enough for SwiftPM (`swift build`) or the compiler driver (`swiftc`): the jobs they
/// run lead process groups of their own, and would go on compiling, and writing into .build, after `lab` and they are
/// gone (and under the next build). They stop their jobs themselves on SIGINT, so such a child ("gentle") gets SIGINT
/// first and a few seconds to end (`gentleGrace`), then SIGKILL like every other.
public enum ChildProcesses {
    private static let capacity = 64
    private static let table: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        table.initialize(repeating: 0, count: capacity)
        return table
    }()
    /// 1 where the child in the same slot of `table` is stopped with SIGINT first.
    private static let gentle: UnsafeMutablePointer<Int32> = {
        let gentle = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        gentle.initialize(repeating: 0, count: capacity)
        return gentle
    }()
    private static let lock = NSLock()
    /// How long a gentle child has after SIGINT before it gets SIGKILL: SwiftPM took about 2 s to stop its compilers.
    static let gentleGrace: TimeInterval = 5

    /// Installs the handlers; `lab`'s main calls it once. SIGPIPE is ignored: a closed stdout must not kill `lab`
    /// halfway through a grade.
    public static func stopWithLab() {
        _ = table
        _ = gentle
        signal(SIGPIPE, SIG_IGN)
        for stopping in [SIGINT, SIGTERM, SIGHUP] {
            signal(stopping) { received in
                let table = ChildProcesses.table, gentle = ChildProcesses.gentle
                // Only async-signal-safe calls here: kill, waitpid, nanosleep, _exit.
                var waiting = false
                for index in 0..<ChildProcesses.capacity where table[index] > 0 && gentle[index] != 0 {
                    kill(-table[index], SIGINT)
                    waiting = true
                }
                var tick = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                var ticks = 0
                while waiting, ticks < Int(ChildProcesses.gentleGrace * 20) {
                    waiting = false
                    for index in 0..<ChildProcesses.capacity where table[index] > 0 && gentle[index] != 0 {
                        var status: Int32 = 0
                        if waitpid(table[index], &status, WNOHANG) == 0 { waiting = true }
                    }
                    if waiting { nanosleep(&tick, nil) }
                    ticks += 1
                }
                for index in 0..<ChildProcesses.capacity where table[index] > 0 {
                    kill(-table[index], SIGKILL)
                }
                _exit(128 + received)
            }
        }
    }

    static func started(_ pid: pid_t, gently: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        if let free = (0..<capacity).first(where: { table[$0] == 0 }) {
            gentle[free] = gently ? 1 : 0
            table[free] = pid
        }
    }

    static func ended(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        if let slot = (0..<capacity).first(where: { table[$0] == pid }) {
            table[slot] = 0
            gentle[slot] = 0
        }
    }

    /// Whether a command is stopped with SIGINT first: SwiftPM's builds (`swift build`) and the compiler driver
    /// (`swiftc`, `QuickBuild`), which stop the jobs they started on SIGINT and leave them running on SIGKILL
    /// (swiftc's swift-frontend, too, leads a group of its own). Not a test run (`swift test --skip-build` on macOS):
    /// it compiles nothing, and a learner's hung test must not get seconds of grace.
    static func stopsGently(_ arguments: [String]) -> Bool {
        arguments.first == "swiftc" || arguments.prefix(2) == ["swift", "build"]
    }
}
