#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every way the process can end abruptly puts the terminal back first. Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) exit
/// quietly; a crash — a force unwrap of nil in the learner's code, say — prints one line naming the function that
/// was running and its LESSONS.md section, instead of a stack trace, and exits with status 70.
public enum CrashGuard {
    private static let capacity = 512
    // The note a crash prints, kept up to date by `entering`/`leaving`: a handler can only copy bytes that exist.
    private static let note = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private static let noteLength = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private static let unknownCrash = "board: the board itself crashed (not your code): please report it.\n"

    public static func install() {
        set(unknownCrash)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                Terminal.restore()
                _exit(128 + received)
            }
        }
        for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            signal(signalNumber) { _ in
                Terminal.restore()
                _ = systemWrite(STDERR_FILENO, CrashGuard.note, CrashGuard.noteLength.pointee)
                _exit(70)
            }
        }
    }

    /// The learner's code for `feature` starts running: a crash from now on is theirs.
    static func entering(_ feature: BoardFeature) {
        set("\nboard: stopped — your \(feature.function) crashed (\(feature.place)).\n"
            + "       `swift run lab check Lesson\(feature.lesson)` shows where; then run the board again.\n")
    }

    static func leaving(_ feature: BoardFeature) {
        set(unknownCrash)
    }

    private static func set(_ text: String) {
        let bytes = Array(text.utf8.prefix(capacity))
        noteLength.pointee = 0
        bytes.withUnsafeBufferPointer { note.update(from: $0.baseAddress!, count: bytes.count) }
        noteLength.pointee = bytes.count
    }
}
