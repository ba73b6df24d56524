import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `lab` command at a time in a kit: two at once would share `.lab/` (results, grading copies) and the build
/// folder, and grade with each other's files. The second one waits, and says so. The lock is the kernel's (`flock`),
/// so a command that is killed never leaves it held.
enum KitLock {
    static func sayOnStandardError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    /// Runs `body` holding the kit's lock, waiting for it when another `lab` command has it. `named`: a lock of its
    /// own in `.lab/` instead, for work that shares nothing with `lab`'s commands but one folder (the kit's tests of
    /// grading, each class in its own copy, which may then run side by side).
    static func during<T>(_ kit: Kit, named name: String = "lock", say: (String) -> Void, _ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: kit.stateFolder, withIntermediateDirectories: true)
        let path = kit.stateFolder.appendingPathComponent(name).path
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { return try body() }  // a read-only kit: nothing to protect
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            say("Another `lab` command is running in this kit\(holder.isEmpty ? "" : " (\(holder))"): waiting for it to finish…")
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
        defer { flock(descriptor, LOCK_UN) }
        let note = "process \(getpid()): lab \(CommandLine.arguments.dropFirst().joined(separator: " "))"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return try body()
    }
}
