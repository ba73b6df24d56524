import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive board: the keyboard and a spinner tick feed the app on the main queue, and every change
/// redraws. The main queue stays free (the learner's code runs elsewhere), so a learner's hop to it still runs.
public enum TerminalBoard {
    public static func run(_ app: BoardApp) -> Never {
        guard Terminal.isInteractive, Terminal.enterRawMode() else {
            fputs("board: the screen needs a terminal. In scripts: board --list, --show, --new-thread, --post.\n", stderr)
            exit(2)
        }
        atexit { Terminal.restore() }
        _ = OutputCapture.start()
        app.size = Terminal.size()
        app.onChange = {
            if app.hasQuit {
                Terminal.restore()
                OutputCapture.replay()
                exit(0)
            }
            Terminal.draw(app.screen())
        }

        let keyboard = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        keyboard.setEventHandler {
            if CrashGuard.hasCrashed { CrashGuard.leave() }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else {  // the terminal went away
                app.quit()
                return app.onChange()
            }
            Key.decode(Array(buffer.prefix(count))).forEach(app.handle)
        }
        let spinner = DispatchSource.makeTimerSource(queue: .main)
        spinner.schedule(deadline: .now(), repeating: .milliseconds(120))
        spinner.setEventHandler { app.tick() }
        signal(SIGWINCH, SIG_IGN)  // delivered to the source below instead
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler {
            guard !CrashGuard.hasCrashed else { return }
            app.size = Terminal.size()
            Terminal.write("\u{1B}[2J")
            app.onChange()
        }
        [keyboard, spinner, resize].forEach { $0.resume() }

        app.start()
        app.onChange()
        withExtendedLifetime([keyboard, spinner, resize]) { dispatchMain() }
    }
}
