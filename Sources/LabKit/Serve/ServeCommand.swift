import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FirebaseEmulator
import FirebaseAuthEmulator

/// `lab serve`: the Firebase emulator on a real port, for curl, a learner's own app and live streams.
public enum ServeCommand {
    public static let usage = """
          lab serve [--port 9000] [--database <export.json> | --empty] [--latency <ms>] [--keep-alive <s>]
                    [--auth-port 9099] [--rules database.rules.json]
                                  the Firebase emulator on http://127.0.0.1:9000/, starting from the sample
                                  database; one line per request; live updates with Accept: text/event-stream;
                                  Firebase Auth's REST sign-in on http://127.0.0.1:9099/ (--auth-port 0: a free
                                  port; with --port 0 it is 0 too unless given); --rules: Firebase security
                                  rules checked against auth=<ID token> (without it every request is allowed),
                                  and its ".indexOn" entries name the children queries may order by
        """

    /// Firebase's own emulator listens on 9000, so URLs from its documentation work unchanged.
    static let defaultPort: UInt16 = 9000
    static let sampleDatabase = "Fixtures/databases/message-board-sample.json"

    struct Options: Equatable {
        var port = ServeCommand.defaultPort
        /// nil: the sample database (or an empty one outside the kit).
        var database: String?
        var empty = false
        var latencyMilliseconds = 0.0
        var keepAliveSeconds = FirebaseService.defaultKeepAliveInterval
        /// nil: 9099, or a free port when `port` is 0 (so tests and a second `lab serve --port 0` never clash).
        var authPort: UInt16?
        /// A `database.rules.json` (its rules, and its `.indexOn` entries for queries); nil: no rules, every
        /// request allowed, no indexes.
        var rules: String?

        static func parse(_ arguments: [String]) throws -> Options {
            var options = Options()
            var rest = arguments[...]
            func value(of option: String) throws -> String {
                guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw UsageError("\(option) needs a value") }
                return value
            }
            while let argument = rest.popFirst() {
                switch argument {
                case "--port":
                    let text = try value(of: "--port")
                    guard let port = UInt16(text) else { throw UsageError("--port must be a number from 0 to 65535, not \(text)") }
                    options.port = port
                case "--database": options.database = try value(of: "--database")
                case "--rules": options.rules = try value(of: "--rules")
                case "--empty": options.empty = true
                case "--latency":
                    let text = try value(of: "--latency")
                    guard let milliseconds = Double(text), milliseconds >= 0 else {
                        throw UsageError("--latency takes milliseconds, e.g. --latency 300, not \(text)")
                    }
                    options.latencyMilliseconds = milliseconds
                case "--keep-alive":
                    let text = try value(of: "--keep-alive")
                    guard let seconds = Double(text), seconds > 0 else {
                        throw UsageError("--keep-alive takes seconds between keep-alive events, e.g. --keep-alive 5, not \(text)")
                    }
                    options.keepAliveSeconds = seconds
                case "--auth-port":
                    let text = try value(of: "--auth-port")
                    guard let port = UInt16(text) else { throw UsageError("--auth-port must be a number from 0 to 65535, not \(text)") }
                    options.authPort = port
                default:
                    let known = ["--port", "--database", "--empty", "--latency", "--keep-alive", "--auth-port", "--rules"]
                    throw UsageError("unknown option \(argument)" + (Spelling.closest(to: argument, among: known).map { ". Did you mean \($0)?" } ?? ""))
                }
            }
            if options.empty && options.database != nil { throw UsageError("give --database or --empty, not both") }
            return options
        }
    }

    /// Starts the server and blocks until Ctrl-C (SIGINT) or SIGTERM.
    public static func run(_ arguments: [String], output: @escaping (String) -> Void) throws -> Int32 {
        let options = try Options.parse(arguments)
        let server: Servers
        do {
            server = try start(options, output: output)
        } catch let error as EmulatorServer.StartError {
            output("lab serve: \(error)")
            return 1
        }
        waitForInterrupt()
        output("Stopping.")
        server.stop()
        return 0
    }

    /// The emulator and its server, started, with the lines that tell the learner what to do.
    static func start(_ options: Options, kitRoot: URL? = try? KitRoot.find(), output: @escaping (String) -> Void) throws -> Servers {
        let (database, source) = try database(for: options, kitRoot: kitRoot)
        let emulator = FirebaseEmulator(database: database)
        emulator.rules = try rules(for: options)
        if let loaded = emulator.rules { emulator.queryIndexes = loaded.queryIndexes }
        emulator.withService { $0.keepAliveInterval = options.keepAliveSeconds }
        emulator.latency = options.latencyMilliseconds / 1000
        emulator.keepsLatestRequests = 1000  // the terminal shows every request; memory stays bounded however long it runs
        emulator.keepsLatestRequestBytes = 64 << 20  // …however large the bodies: 1000 polls of 8 MB would keep 8 GB
        let server = EmulatorServer(serving: emulator, port: options.port)
        let lines = NSLock()  // connections log from their own threads: one whole line at a time
        server.onRequest = { served in
            lines.lock()
            output(served.line)
            lines.unlock()
        }
        try server.start()
        let auth: EmulatorServer
        do {
            auth = try startAuth(port: options.authPort ?? (options.port == 0 ? 0 : authDefaultPort), log: server.onRequest)
        } catch {
            server.stop()
            throw error
        }
        let url = "http://127.0.0.1:\(server.port)"
        output("""
            Firebase emulator on \(url)/  (\(source)\(options.latencyMilliseconds > 0 ? ", \(Int(options.latencyMilliseconds)) ms latency" : ""))
              try it:    curl '\(url)/.json?print=pretty'
              write:     curl -X PUT -d '{"title":"Hello","identifier":"my-thread"}' '\(url)/my-thread.json'  (LESSONS.md §1.7)
              live:      curl -N -H 'Accept: text/event-stream' '\(url)/.json'
              your code: baseURL = URL(string: "\(url)/")!  (?ns=<name> picks another database, empty at first, as in Firebase's emulator)
            \(rulesBanner(options))
            \(authBanner(port: auth.port))
            One line per request below. Ctrl-C stops.
            """)
        return Servers(database: server, auth: auth)
    }

    private static func database(for options: Options, kitRoot: URL?) throws -> (JSONValue, String) {
        if options.empty { return (.null, "empty database") }
        if let path = options.database {
            let url = URL(fileURLWithPath: path)
            do {
                return (try FirebaseEmulator(databaseExport: url).database, "database: \(path)")
            } catch {
                throw UsageError("\(error)")
            }
        }
        guard let root = kitRoot else { return (.null, "empty database: the sample is found only inside the kit's folder") }
        let sample = root.appendingPathComponent(sampleDatabase)
        guard let emulator = try? FirebaseEmulator(databaseExport: sample) else { return (.null, "empty database: \(sampleDatabase) is missing") }
        return (emulator.database, "the sample database, \(sampleDatabase)")
    }

    /// Blocks the calling thread until SIGINT or SIGTERM.
    private static func waitForInterrupt() {
        let received = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)  // handled by the dispatch source instead of ending the process at once
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
    }
}
