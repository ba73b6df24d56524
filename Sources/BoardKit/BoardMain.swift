import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run board`: parse, connect, sign in, then the screen or one script command.
public enum BoardMain {
    public static func run(_ arguments: [String]) -> Never {
        setvbuf(stdout, nil, _IOLBF, 0)
        let options: BoardOptions
        do {
            options = try BoardOptions.parse(arguments)
        } catch let usage as BoardUsageError {
            if let message = usage.message { fputs("board: \(message)\n\(BoardOptions.usage)\n", stderr) }
            else { print(BoardOptions.usage) }
            exit(usage.message == nil ? 0 : 2)
        } catch {
            fputs("board: \(error)\n", stderr)
            exit(2)
        }
        let connection: BoardConnection
        do {
            connection = try BoardConnection.open(options)
        } catch {
            fputs("board: \(error)\n", stderr)
            exit(1)
        }
        CrashGuard.install()
        let signIn: BoardSignIn.Outcome
        switch BoardSignIn.run(options, service: connection.signIn, prompter: .terminal) {
        case .success(let outcome): signIn = outcome
        case .failure(let failure):
            fputs("board: \(failure.statusText)\n", stderr)
            exit(1)
        }
        // Signed in, the user posts as themselves: their email is the sender.
        let sender = signIn.user?.email ?? options.sender
        if options.command == .interactive {
            let app = BoardApp(service: connection.service, serverLabel: connection.label, sender: sender,
                               live: connection.live, signIn: signIn, pages: connection.pages)
            withExtendedLifetime(connection) { TerminalBoard.run(app) }  // the embedded emulator's socket stays open
        }
        let output = BoardScript.Output(line: { print($0) }, error: { fputs($0 + "\n", stderr) })
        BoardScript.run(options.command, sender: sender, service: connection.service, output: output) { status in
            _ = connection  // keeps the embedded emulator alive until the command is done
            exit(status)
        }
        dispatchMain()
    }
}
