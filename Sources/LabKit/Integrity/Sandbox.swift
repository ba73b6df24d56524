import Foundation

/// Least privilege for the learner's code while its tests run, where the platform offers it (Linux user
/// namespaces, through util-linux's `unshare`, `setpriv` and `prlimit`). It protects the machine, not only the kit:
/// - the whole file system is read-only; `/tmp` is a private, size-capped scratch folder, new for each test process
///   (nothing shared between processes or learners), and it is the only place the code can write;
/// - the instructor's home (`$HOME`, `/root`, `/home`), every learner's checkout, the kit's Solutions/ and its
///   `.lab/` (other learners' grading copies) are not visible at all: only the copy under test (`root`) and the
///   Swift toolchain it runs on are put back, read-only;
/// - no network but a private loopback; a private PID namespace with its own /proc, so killing the test process
///   kills everything the learner's code started;
/// - limits (`Limits`): processes, address space, CPU time, the size of any file it writes (its output included).
/// Run as root, the code runs as an unprivileged user (`nobody`) outside its namespace, or the kernel would not
/// count its processes; when that user cannot read the kit (a kit in a private home), it runs as root, without the
/// process limit, and reports say so. Elsewhere the tests run without a sandbox, and reports say so
/// (`Sandbox.unavailableNote`).
struct Sandbox {
    /// The kit copy whose tests run: visible, read-only, and the working folder.
    var root: URL
    /// Folders (or files) that must not be visible at all: learners' checkouts, the kit itself when `root` is a
    /// private copy of it, report folders.
    var hidden: [URL] = []

    struct Limits {
        /// Tasks (processes and threads) in the sandbox: an XCTest process uses about 20, but Lesson 7's test of calls
        /// from many threads at once peaked at 264 (libdispatch's workers, URLSession's), and at 256 a call the tests
        /// sent to a global queue never started: a correct solution was graded "did not return within 2 s".
        var tasks = 1024
        /// Address space, bytes.
        var memory = 4 << 30
        /// The largest file it may write (its output, a results stream, a scratch file), bytes; a write past it
        /// fails (SIGXFSZ is ignored), it does not kill the process.
        static let fileSize = 8 << 20
        /// The private /tmp, bytes.
        static let scratch = "64m"
        /// CPU seconds in all.
        var cpuSeconds = 120
    }
    var limits = Limits()

    /// `command`, to be run inside the sandbox; unchanged when no sandbox is available.
    func wrap(_ command: [String]) -> [String] {
        guard let mode = mode else { return command }
        return mode.prefix + ["/bin/sh", "-c", script(), "sandbox"] + command
    }

    /// Why the tests ran with less protection than the sandbox gives, for reports; nil when they ran in one.
    var unavailableNote: String? {
        switch mode {
        case nil: return "the tests ran without a sandbox (no user namespaces here): learner code could reach the network and the file system"
        case .asRoot?: return "the tests ran in a sandbox without a process limit: `lab` runs as root and an unprivileged user cannot read the kit here (put it in a folder others may read to have one)"
        case .unprivileged?: return nil
        }
    }

    enum Mode {
        /// Outside its namespaces the code runs as `nobody` (or as the user who runs `lab`, when that is not root).
        case unprivileged
        /// As root outside: the kernel counts no process limit for root.
        case asRoot

        var prefix: [String] {
            let unshare = ["unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--ipc", "--uts", "--fork",
                           "--kill-child", "--mount-proc"]
            guard self == .unprivileged, getuid() == 0 else { return unshare }
            return ["setpriv", "--reuid=\(Sandbox.nobody)", "--regid=\(Sandbox.nobody)", "--clear-groups"] + unshare
        }
    }

    static let nobody = 65534

    /// How the sandbox can be made here (a container may forbid user namespaces), tried once per `lab` run and
    /// folder: a kit that `nobody` cannot read falls back to `asRoot`.
    var mode: Mode? {
        Self.modes.lock.lock()
        defer { Self.modes.lock.unlock() }
        let key = root.standardizedFileURL.path
        if let known = Self.modes.found[key] { return known }
        var found: Mode?
        #if os(Linux)
        for mode in [Mode.unprivileged, .asRoot] {
            let command = mode.prefix + ["/bin/sh", "-c", Sandbox(root: root).script(), "sandbox", "/bin/sh", "-c",
                                         "test -r Package.swift && test -w /tmp && ! test -w Package.swift"]
            if let tried = try? WatchedProcess.run(command, in: root, limit: 10), tried.status == 0 { found = mode; break }
        }
        #endif
        Self.modes.found[key] = .some(found)
        return found
    }

    private final class Modes: @unchecked Sendable {
        let lock = NSLock()
        var found: [String: Mode?] = [:]
    }
    private static let modes = Modes()

    /// The shell script run inside the namespaces, then `exec "$@"`. Exit status 97 when the sandbox cannot be made.
    func script() -> String {
        let root = self.root.standardizedFileURL.path
        let home = ProcessInfo.processInfo.environment["HOME"].map { [$0] } ?? []
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        // Under /tmp is hidden already: the private scratch folder takes its place.
        let hide = Self.covering((home + ["/root", "/home", "/var/tmp", temporary] + hidden.map(\.standardizedFileURL.path))
            .filter { !Self.inside($0, "/tmp") && FileManager.default.fileExists(atPath: $0) })
        let hideInRoot = [root + "/Solutions", root + "/.lab"].filter { FileManager.default.fileExists(atPath: $0) }
        // Kept aside and put back: the copy under test, and the toolchain when it is in a hidden folder (a home).
        let visible = [root] + Self.toolchain.filter { tool in tool != root && (hide + ["/tmp"]).contains { Self.inside(tool, $0) } }
        // `mount -n`: the system's mount table is read-only by now, and libmount must not try to write it.
        var lines = [
            "set -u",
            "fail() { echo \"lab: the sandbox could not be made ($1)\" >&2; exit 97; }",
            // Read-only first, everything but /proc. /dev too: a devtmpfs is the host's, and root (the code runs as root
            // when `nobody` cannot read the kit) could fill it with files; its devices stay usable (/dev/null takes writes).
            "for m in $(awk '{ print $5 }' /proc/self/mountinfo); do case \"$m\" in /proc|/proc/*) ;; *) mount -n -o remount,bind,ro \"$m\" 2>/dev/null || fail \"read-only $m\";; esac; done",
            // What stays visible is kept aside (a bind keeps its read-only flag) before the folders it is in are hidden.
            "mount -n -t tmpfs -o size=64k,mode=0755 lab-keep /dev/shm || fail 'keep'",
        ]
        for (index, path) in visible.enumerated() {
            lines.append("mkdir /dev/shm/\(index) && mount -n --rbind \(Self.quoted(path)) /dev/shm/\(index) || fail 'keep \(index)'")
        }
        lines.append("mount -n -t tmpfs -o size=\(Limits.scratch),mode=1777 lab-scratch /tmp || fail 'scratch'")
        // A copy under /tmp (a CI clone) is put back inside the scratch folder: the folders around it there are
        // hidden, read-only ones, or the code could write where the kit seems to be.
        let aroundInScratch = Set(visible.filter { Self.inside($0, "/tmp") && $0 != "/tmp" }
            .compactMap { $0.dropFirst(5).split(separator: "/").first.map { "/tmp/\($0)" } }).sorted()
        for path in aroundInScratch {
            lines.append("mkdir -p \(Self.quoted(path)) && mount -n -t tmpfs -o size=64k,mode=0755 lab-hidden \(Self.quoted(path)) || fail 'hide'")
        }
        func hiding(_ path: String) -> String {
            var isFolder: ObjCBool = false
            let isHiddenFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            return isHiddenFolder
                ? "mount -n -t tmpfs -o size=64k,mode=0755 lab-hidden \(Self.quoted(path)) || fail 'hide'"
                : "mount -n --bind /dev/null \(Self.quoted(path)) || fail 'hide'"
        }
        lines += hide.map(hiding)
        for (index, path) in visible.enumerated() {
            lines.append("mkdir -p \(Self.quoted(path)) 2>/dev/null; mount -n --move /dev/shm/\(index) \(Self.quoted(path)) || fail 'put back \(index)'")
        }
        lines += hideInRoot.map(hiding)
        // The hiding folders become read-only too, and an empty /dev/shm takes the place of the one used above.
        for path in hide + aroundInScratch + hideInRoot { lines.append("mount -n -o remount,bind,ro \(Self.quoted(path)) || fail 'read-only hidden'") }
        lines += [
            "mount -n -t tmpfs -o size=1m,mode=1777 lab-shm /dev/shm || fail 'shm'",
            "ip link set lo up 2>/dev/null",
            "export HOME=/tmp TMPDIR=/tmp",
            "cd \(Self.quoted(root)) || fail 'cd'",
            "trap '' XFSZ",
            "exec prlimit --nproc=\(limits.tasks) --as=\(limits.memory) --cpu=\(limits.cpuSeconds) --fsize=\(Limits.fileSize) --core=0 -- \"$@\"",
        ]
        return lines.joined(separator: "\n")
    }

    /// The Swift toolchain the test binary loads its libraries from (`…/usr` of the `swift` on PATH), when it is
    /// inside a folder the sandbox hides (a toolchain installed in the home folder).
    static let toolchain: [String] = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            return [swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path]
        }
        return []
    }()

    /// Fewer folders that hide at least `paths`: a path inside another is dropped, and folders that share a parent
    /// (a class's checkouts, side by side) become that parent — never `/`. Hiding more is safe (what the tests need
    /// is put back), and each folder costs a mount per test process: with a class of 20 checkouts, one each was half
    /// of what starting a test process cost.
    static func covering(_ paths: [String]) -> [String] {
        var folders = outermost(paths.filter { $0 != "/" })
        let byParent = Dictionary(grouping: folders) { ($0 as NSString).deletingLastPathComponent }
        for (parent, children) in byParent where children.count > 1 && parent != "/" && !parent.isEmpty {
            folders = folders.filter { !children.contains($0) } + [parent]
        }
        return outermost(folders)
    }

    /// `paths` without those inside another.
    static func outermost(_ paths: [String]) -> [String] {
        let unique = Set(paths).sorted()
        return unique.filter { path in !unique.contains { $0 != path && inside(path, $0) } }
    }

    static func inside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// `text` as one shell word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
