import Foundation

/// Least privilege for the learner's code while its tests run, where the platform offers it (Linux user
/// namespaces, through util-linux's `unshare`): no network but a private loopback, the kit and the learners' folders
/// read-only, and a private PID namespace with its own /proc, so killing the test process kills everything the
/// learner's code started — nothing outlives its run. (Without the private /proc, code that reads
/// `/proc/<its thread id>/stat` read another process's and, once in ten runs, crashed.) Elsewhere the tests run without it, and reports say so (`Sandbox.unavailableNote`).
struct Sandbox {
    /// Folders the tests may read but not change: the kit (with its grading copies) and the learners' checkouts.
    var readOnly: [URL]

    /// `command`, to be run inside the sandbox; unchanged when no sandbox is available.
    func wrap(_ command: [String]) -> [String] {
        guard Self.available else { return command }
        let paths = Self.covering(readOnly.map(\.standardizedFileURL.path).filter { FileManager.default.fileExists(atPath: $0) },
                                  writable: FileManager.default.temporaryDirectory.standardizedFileURL.path)
        return Self.unshare + ["/bin/sh", "-c", Self.script, "sandbox", String(paths.count)] + paths + command
    }

    /// Fewer folders that make at least `paths` read-only: a path inside another is dropped, and folders that share
    /// a parent (a class's checkouts, side by side) become that parent — unless it is `/` or holds `writable`, the
    /// temporary folder where each test process keeps its scratch. Each folder costs two `mount`s per test process:
    /// with a class of 20 checkouts, that was half of what starting a test process cost.
    static func covering(_ paths: [String], writable: String) -> [String] {
        func inside(_ path: String, _ folder: String) -> Bool { path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/") }
        func outermost(_ paths: [String]) -> [String] {
            let unique = Set(paths).sorted()
            return unique.filter { path in !unique.contains { $0 != path && inside(path, $0) } }
        }
        var folders = outermost(paths)
        let byParent = Dictionary(grouping: folders) { ($0 as NSString).deletingLastPathComponent }
        for (parent, children) in byParent where children.count > 1 && parent != "/" && !parent.isEmpty
            && !inside(writable, parent) {
            folders = folders.filter { !children.contains($0) } + [parent]
        }
        return outermost(folders)
    }

    /// Why the tests ran without a sandbox, for reports; nil when they ran in one.
    static var unavailableNote: String? {
        available ? nil : "the tests ran without a sandbox (no user namespaces here): learner code could reach the network and the file system"
    }

    /// Whether `unshare` can make the namespaces here (a container may forbid them). Tried once per `lab` run.
    static let available: Bool = {
        #if os(Linux)
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("lab-sandbox-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        let tried = try? WatchedProcess.run(unshare + ["/bin/sh", "-c", script, "sandbox", "1", probe.path, "true"],
                                            in: probe, limit: 10)
        return tried?.status == 0
        #else
        return false
        #endif
    }()

    private static let unshare = ["unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--fork", "--kill-child", "--mount-proc"]

    /// Run by `sh` inside the namespaces: `$1` read-only paths follow, then the command. Each path is bound onto
    /// itself and remounted read-only; loopback is brought up (in-process emulators need none, the socket server
    /// does). Exit status 97 when the sandbox cannot be made.
    private static let script = """
        n=$1; shift
        while [ "$n" -gt 0 ]; do
          mount --bind "$1" "$1" 2>/dev/null && mount -o remount,bind,ro "$1" 2>/dev/null || exit 97
          shift; n=$((n - 1))
        done
        ip link set lo up 2>/dev/null
        exec "$@"
        """
}
