import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a command to completion, its output (stdout and stderr together) going to a file, so a long log can
/// never fill a pipe and stall the child. It never waits forever: it kills the command's whole process group (the
/// XCTest binary under `swift test`, anything the learner's code started) when it shows no progress for `silence`
/// seconds — a test stuck in an endless loop or a long sleep — or when it runs longer than `limit` seconds in all.
/// Progress is what the `progress` closure counts when one is given (a `TestRound` counts the sealed results its
/// process has written: something only the kit's own test code can make), else growth of the output.
///
/// A test process gets two more descriptors from it: `input` on its standard input (a pipe, closed after it: the
/// seal key, readable once) and `descriptor3`, a file opened here, as descriptor 3 (its results stream) — neither has
/// a name the learner's code could find in the file system. Output past `outputKept` bytes is dropped from the
/// middle, and `Outcome.droppedOutput` says how much.
///
/// Built on posix_spawn and waitpid rather than Foundation's Process, whose child reaping on Linux goes through a
/// CFSocket that cannot be made where loopback is down (the tools then hung forever). Each child leads its own
/// process group, so a Ctrl-C of `lab` (see `ChildProcesses`) or a time-out ends everything it started.
enum WatchedProcess {
    struct Outcome {
        let status: Int32
        let output: String
        /// Why it was killed, when it was: "silent for 5 s", "over 900 s".
        let killed: String?
        /// Bytes of output dropped (past `outputKept`).
        var droppedOutput = 0
    }

    /// Held while a child is spawned: no other child may inherit the descriptors made for this one.
    private static let spawning = NSLock()

    /// Output kept of one process: the first and last halves of this.
    static let outputKept = 2 << 20

    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                    removing removed: Set<String> = [], silence: TimeInterval? = nil, startup: TimeInterval = 0,
                    progress: (() -> Int)? = nil,
                    limit: TimeInterval = 900, input: Data? = nil, descriptor3: URL? = nil,
                    gently: Bool? = nil) throws -> Outcome {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var merged = ProcessInfo.processInfo.environment.filter { !removed.contains($0.key) }
        merged.merge(environment) { $1 }
        let pid = try spawn(arguments, in: folder, environment: merged, output: log, input: input, descriptor3: descriptor3)
        let gently = gently ?? ChildProcesses.stopsGently(arguments)
        ChildProcesses.started(pid, gently: gently)
        defer { ChildProcesses.ended(pid) }

        let started = Date()
        var lastMark: String?
        var lastChange = Date()
        // Until the first progress the process is also starting (loading, its first URLSession), which on a machine
        // loaded many times over its cores can take seconds of its own: `startup` more, before the first progress.
        var marks = 0
        var killed: String?
        var stopAsked: Date?  // when a gentle child was sent SIGINT (`ChildProcesses`)
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            // Often at first, where a check's build and short test processes end (each look waited half of this,
            // on average, before the next step could start); then less often.
            Thread.sleep(forTimeInterval: Date().timeIntervalSince(started) < 2 ? 0.01 : 0.05)
            let mark = progress.map { "\($0())" } ?? Self.mark(of: log)
            if mark != lastMark { lastMark = mark; lastChange = Date(); marks += 1 }
            if killed == nil, let silence = silence,
               Date().timeIntervalSince(lastChange) > silence + (marks <= 1 ? startup : 0) {
                killed = "silent for \(Int(silence)) s"
            } else if killed == nil, Date().timeIntervalSince(started) > limit {
                killed = "over \(Int(limit)) s"
            }
            if killed != nil {
                if gently, stopAsked == nil {
                    stopAsked = Date()
                    kill(-pid, SIGINT)
                } else if !gently || Date().timeIntervalSince(stopAsked!) > ChildProcesses.gentleGrace {
                    kill(-pid, SIGKILL)
                }
            }
        }
        kill(-pid, SIGKILL)  // whatever the command left behind in its group
        let (output, dropped) = readKept(log)
        var outcome = Outcome(status: exitStatus(status), output: output, killed: killed)
        outcome.droppedOutput = dropped
        return outcome
    }

    /// The log, or its first and last `outputKept / 2` bytes with a line saying what was dropped between them: a
    /// test that prints 200 MB must not cost the grader 200 MB.
    private static func readKept(_ log: URL) -> (String, dropped: Int) {
        guard let handle = try? FileHandle(forReadingFrom: log) else { return ("", 0) }
        defer { try? handle.close() }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        try? handle.seek(toOffset: 0)
        guard size > outputKept else { return (String(decoding: handle.readData(ofLength: size), as: UTF8.self), 0) }
        let head = handle.readData(ofLength: outputKept / 2)
        try? handle.seek(toOffset: UInt64(size - outputKept / 2))
        let tail = handle.readData(ofLength: outputKept / 2)
        let dropped = size - outputKept
        return (String(decoding: head, as: UTF8.self) + "\n[lab: \(dropped) bytes of output dropped here]\n"
                + String(decoding: tail, as: UTF8.self), dropped)
    }

    /// Starts `arguments` (found on PATH) in `folder`, as the leader of a new process group, its output to `output`.
    private static func spawn(_ arguments: [String], in folder: URL, environment: [String: String], output: URL,
                              input: Data?, descriptor3: URL?) throws -> pid_t {
        spawning.lock()
        defer { spawning.unlock() }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if let input = input {
            // Small enough for the pipe's buffer: written whole before the child starts, then the write end closed.
            // Close-on-exec, under `spawning`: a child spawned by another thread must not hold this pipe open.
            let made = pipe(&pipeEnds)
            pipeEnds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            guard made == 0 else { throw SpawnError(command: "pipe", code: errno) }
            _ = input.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, input.count) }
            close(pipeEnds[1])
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        defer { if pipeEnds[0] >= 0 { close(pipeEnds[0]) } }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let descriptor3 = descriptor3 {
            posix_spawn_file_actions_addopen(&actions, 3, descriptor3.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        // posix_spawn has no working-directory action everywhere: `env -C` is not portable either, so a shell `cd`.
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard error == 0 else { throw SpawnError(command: arguments.joined(separator: " "), code: error) }
        return pid
    }

    /// waitpid's status as a shell shows it: the exit code, or 128 + the signal that ended the process.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// What changes when a file is rewritten or grows: its modification date and size.
    private static func mark(of file: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { return nil }
        return "\(attributes[.modificationDate].map { "\($0)" } ?? "")|\(attributes[.size].map { "\($0)" } ?? "")"
    }
}

struct SpawnError: Error, CustomStringConvertible {
    let command: String
    let code: Int32
    var description: String { "could not start `\(command)`: \(String(cString: strerror(code)))" }
}
