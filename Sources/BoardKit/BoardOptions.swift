import Foundation

/// The board's command line: the screen by default, or one scriptable command.
public struct BoardOptions: Equatable {
    public enum Command: Equatable {
        case interactive
        case list
        case show(thread: String)
        case newThread(title: String)
        case post(thread: String, text: String)
    }

    public enum Server: Equatable {
        /// The in-process emulator, from this database export (nil: the sample), answering `latency` seconds late.
        case embedded(database: URL?, latency: TimeInterval)
        /// Any Firebase-style REST server, through `URLSession.shared`.
        case url(URL)
    }

    public var command = Command.interactive
    public var server = Server.embedded(database: nil, latency: 0)
    public var sender: String
    public var timeout: TimeInterval = 10
    /// Who signs in (Lesson 9), when given on the command line; else the screen asks.
    public var email: String?
    public var password: String?

    public static let usage = """
        usage: swift run board [--url URL] [--sender NAME]     the Message Board, on your Lessons 1, 4, 8, 9 and 10 code
               swift run board --list                           the threads: identifier, messages, title
               swift run board --show THREAD                    a thread's messages, oldest first
               swift run board --new-thread "Title"             your Lesson 1 PUT
               swift run board --post THREAD --text "Hi" [--sender NAME]   your Lesson 1 POST
        THREAD is a thread's identifier or its title.
        The screen signs in first with your Lesson 9 signIn (enter no email to go on as a guest, posting with Lesson 1);
        the embedded emulator has one account: \(EmbeddedServer.sampleAccount.email), password \(EmbeddedServer.sampleAccount.password).
        A thread longer than a page opens at its newest page (your Lesson 10 newestPage); l loads older (olderPage).
          --url URL          a server instead of the embedded emulator: http://127.0.0.1:9000/ (lab serve),
                             https://<your-db>.firebaseio.com/
          --database FILE    the embedded emulator's database export (default: the course's sample)
          --latency SECONDS  the embedded emulator answers that late (to watch a slow server)
          --sender NAME      who posts as a guest (default: your user name); signed in, your email
          --email EMAIL      sign in as this user instead of being asked (scripts too: --post as that user)
          --password PASS    with --email (ps shows it: the screen asks without echo when it is left out)
          --timeout SECONDS  how long to wait for your code's completion (default: 10)
        """

    /// - environment: `USER` names the default sender.
    public static func parse(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BoardOptions {
        var options = BoardOptions(sender: environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "me")
        var database: URL?
        var latency: TimeInterval = 0
        var url: URL?
        var postTarget: String?
        var text: String?
        var rest = arguments[...]

        func value(of flag: String) throws -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                throw BoardUsageError("\(flag) needs a value")
            }
            return next
        }
        func seconds(of flag: String) throws -> TimeInterval {
            let text = try value(of: flag)
            guard let number = TimeInterval(text), number >= 0 else { throw BoardUsageError("\(flag) takes seconds, not \(text)") }
            return number
        }
        func setCommand(_ command: Command) throws {
            guard options.command == .interactive else { throw BoardUsageError("one command at a time") }
            options.command = command
        }

        while let argument = rest.popFirst() {
            switch argument {
            case "--list": try setCommand(.list)
            case "--show": try setCommand(.show(thread: try value(of: argument)))
            case "--new-thread": try setCommand(.newThread(title: try value(of: argument)))
            case "--post":
                postTarget = try value(of: argument)
                try setCommand(.post(thread: postTarget!, text: ""))
            case "--text": text = try value(of: argument)
            case "--sender": options.sender = try value(of: argument)
            case "--email": options.email = try value(of: argument)
            case "--password": options.password = try value(of: argument)
            case "--url": url = try serverURL(try value(of: argument))
            case "--database": database = URL(fileURLWithPath: try value(of: argument))
            case "--latency": latency = try seconds(of: argument)
            case "--timeout": options.timeout = try seconds(of: argument)
            case "--help", "-h": throw BoardUsageError(nil)
            default: throw BoardUsageError("unknown argument \(argument)")
            }
        }
        if let postTarget {
            guard let text, !text.isEmpty else { throw BoardUsageError("--post needs --text \"your message\"") }
            options.command = .post(thread: postTarget, text: text)
        } else if text != nil {
            throw BoardUsageError("--text goes with --post")
        }
        if options.password != nil, options.email == nil { throw BoardUsageError("--password goes with --email") }
        if let url {
            guard database == nil, latency == 0 else { throw BoardUsageError("--database and --latency are for the embedded emulator, not --url") }
            guard options.email == nil else { throw BoardUsageError("--email signs in to the embedded emulator's Auth emulator, not --url") }
            options.server = .url(url)
        } else {
            options.server = .embedded(database: database, latency: latency)
        }
        return options
    }

    /// An http(s) URL whose path ends in "/": the lessons append `<id>.json` and `.json` to it.
    static func serverURL(_ text: String) throws -> URL {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false else {
            throw BoardUsageError("--url needs an http or https URL, like http://127.0.0.1:9000/")
        }
        if !components.path.hasSuffix("/") { components.path += "/" }
        guard let url = components.url else { throw BoardUsageError("--url \(text) is not a URL") }
        return url
    }
}

/// A command line the board cannot run; `message` nil asks for the usage alone (`--help`).
public struct BoardUsageError: Error, Equatable {
    public let message: String?

    public init(_ message: String?) {
        self.message = message
    }
}
