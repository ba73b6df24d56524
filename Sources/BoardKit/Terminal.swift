#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal: raw mode on the alternate screen while the board runs, and put back as it was on every way out.
/// `restore()` is async-signal-safe (it only calls tcsetattr and write on memory set up in advance), so the signal
/// handlers of `CrashGuard` call it too.
public enum Terminal {
    // Allocated once, before any handler can run: a signal handler must not allocate.
    private static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    private static let rawFlag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// Reset the style, wrap lines again, show the cursor, leave the alternate screen.
    private static let leave: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()

    static var isRaw: Bool { rawFlag.pointee == 1 }

    public static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 }

    /// Keys arrive one by one, unechoed; Ctrl-C still sends SIGINT, which `CrashGuard` turns into a clean exit.
    public static func enterRawMode() -> Bool {
        _ = leave
        rawFlag.pointee = 0
        guard tcgetattr(STDIN_FILENO, saved) == 0 else { return false }
        var raw = saved.pointee
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        rawFlag.pointee = 1
        signal(SIGTSTP, SIG_IGN)  // Ctrl-Z would leave the shell in raw mode
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        return true
    }

    public static func restore() {
        guard rawFlag.pointee != 0 else { return }
        let screen = rawFlag.pointee == 1
        rawFlag.pointee = 0
        tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
        if screen { _ = systemWrite(OutputCapture.terminal, leave.baseAddress, leave.count) }
    }

    /// One line typed without echo (a password), before the screen is up; nil at the end of input. Echo comes back
    /// on every way out: `CrashGuard`'s Ctrl-C calls `restore()` too (flag 2: the terminal's modes only, no screen).
    static func readHiddenLine() -> String? {
        _ = leave
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, saved) == 0 else { return readLine() }
        var quiet = saved.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO)
        rawFlag.pointee = 2
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            restore()
            write("\n")  // the Enter that was not echoed
        }
        return readLine()
    }

    /// Columns and rows, 80×24 when the terminal does not say.
    public static func size() -> (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(OutputCapture.terminal, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Draws every line in place: no scrolling, no flicker from clearing the whole screen.
    public static func draw(_ lines: [ScreenLine]) {
        guard !CrashGuard.hasCrashed else { return }  // the crash note stays on screen
        var frame = ""
        for (row, line) in lines.enumerated() {
            frame += "\u{1B}[\(row + 1);1H" + ansi(line.style) + line.text + "\u{1B}[0m"
        }
        write(frame)
    }

    static func ansi(_ style: ScreenLine.Style) -> String {
        switch style {
        case .plain: return ""
        case .bar, .selected: return "\u{1B}[7m"
        case .heading: return "\u{1B}[1m"
        case .dim: return "\u{1B}[2m"
        case .error: return "\u{1B}[1;31m"
        }
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(OutputCapture.terminal, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// write(2), named apart from `Terminal.write`.
@inline(__always)
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
