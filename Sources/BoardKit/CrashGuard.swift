import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every way the process can end abruptly puts the terminal back first. Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) exit
/// quietly. A crash — a force unwrap of nil in the learner's code, say — is never a stack trace: on the screen, the
/// status line names the function that was running and its LESSONS.md section until a key is pressed; then (and in
/// scripts at once) the same words go to standard error and the board exits with status 70.
public enum CrashGuard {
    /// What a crash says, kept up to date by `entering`/`leaving`: a signal handler can only copy bytes that exist.
    private static let note = SignalSafeText()
    /// The same on the screen's last four lines, drawn over the status line.
    private static let screenNote = SignalSafeText()
    private static let crashed = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private static let unknownCrash = "board: stopped by a crash."

    /// True once a crash is on the screen: the board must draw nothing more, and its next key leaves.
    static var hasCrashed: Bool { crashed.pointee != 0 }

    public static func install() {
        crashed.pointee = 0
        update {}
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                Terminal.restore()
                _exit(128 + received)
            }
        }
        for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            signal(signalNumber) { _ in
                if Terminal.isRaw {
                    CrashGuard.crashed.pointee = 1
                    var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                    nanosleep(&pause, nil)  // lets a redraw under way finish before the note covers it
                    CrashGuard.screenNote.write(to: OutputCapture.terminal)
                    var key: UInt8 = 0
                    _ = read(STDIN_FILENO, &key, 1)  // or the main queue takes the key and calls `leave()`
                }
                CrashGuard.leave()
            }
        }
    }

    /// After a crash: the terminal back, the note on standard error, exit status 70.
    static func leave() -> Never {
        Terminal.restore()
        OutputCapture.printedBeforeCrash.write(to: OutputCapture.errors)  // often the clue: a debugging print
        note.write(to: OutputCapture.errors)
        _exit(70)
    }

    private static let lock = NSLock()
    private static var running: BoardFeature?
    private static var runtimeReason: String?

    /// The learner's code for `feature` starts running: a crash from now on is theirs.
    static func entering(_ feature: BoardFeature) {
        update { running = feature; runtimeReason = nil }
    }

    static func leaving(_ feature: BoardFeature) {
        update { if running == feature { running = nil } }
    }

    /// The Swift runtime's words for a crash under way ("X.swift:36: Unexpectedly found nil…"), from the output.
    static func runtimeSaid(_ reason: String) {
        update { runtimeReason = reason }
    }

    private static func update(_ change: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change()
        guard let feature = running else { return say(unknownCrash, runtimeReason ?? "", "") }
        say("board: your \(feature.function) crashed (\(feature.place)).", runtimeReason ?? "",
            "`swift run lab check Lesson\(feature.lesson)` shows where; then run the board again.")
    }

    private static func say(_ text: String, _ reason: String, _ advice: String) {
        note.set("\n" + ([text] + [reason, advice].filter { !$0.isEmpty }).joined(separator: "\n       ") + "\n")
        // The last four lines, from the rule above the status line down; no line wraps (DECAWM off) or scrolls.
        let width = Terminal.size().width
        let line = { (text: String, style: String) in "\u{1B}[2K" + style + " " + TextWidth.fit(text, to: width - 2) + "\u{1B}[0m" }
        let red = "\u{1B}[1;31m"
        screenNote.set("\u{1B}[?7l\u{1B}[999;1H\u{1B}[3A" + line(text, red) + "\r\n" + line(reason, red) + "\r\n"
            + line(advice, red) + "\r\n" + line("press any key to leave", "\u{1B}[7m"))
    }
}

/// Text a signal handler can write: its bytes live in memory allocated once, up front.
final class SignalSafeText {
    private let capacity: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    private let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init(capacity: Int = 1024) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
        count.pointee = 0
    }

    func set(_ text: String) {
        let utf8 = Array(text.utf8.prefix(capacity))
        count.pointee = 0
        utf8.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: utf8.count) }
        count.pointee = utf8.count
    }

    /// What `write` would write.
    var text: String { String(decoding: UnsafeBufferPointer(start: bytes, count: count.pointee), as: UTF8.self) }

    func write(to descriptor: Int32) {
        _ = systemWrite(descriptor, bytes, count.pointee)
    }
}
