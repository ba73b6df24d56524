import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server the options name, and the learner's code pointed at it.
public struct BoardConnection {
    public let service: BoardService
    /// For the title bar: where the board talks.
    public let label: String
    /// The open thread's messages as they change (Lesson 8): over the same server, through a socket that streams.
    public let live: LiveUpdates?
    /// A long thread a page at a time (Lesson 10).
    public let pages: ThreadPaging
    /// Where the board signs in (Lesson 9): the embedded emulator's Auth emulator; nil for `--url`.
    public let signIn: SignInService?
    /// Keeps the embedded emulator alive while the board runs.
    private let embedded: EmbeddedServer?

    public static func open(_ options: BoardOptions) throws -> BoardConnection {
        switch options.server {
        case .url(let url):
            // Generic on purpose: `lab serve`, a real Firebase, anything that speaks Firebase's REST.
            let service = LessonBoardService(baseURL: url, session: .shared, timeout: options.timeout)
            return BoardConnection(service: service, label: url.absoluteString, live: Lesson8Live(baseURL: url),
                                   pages: Lesson10Pages(baseURL: url, session: .shared, timeout: options.timeout),
                                   signIn: nil, embedded: nil)
        case .embedded(let database, let latency):
            let server = try EmbeddedServer(databaseExport: database, latency: latency)
            let service = LessonBoardService(baseURL: server.baseURL, session: server.session, timeout: options.timeout,
                                             auth: server.signInEndpoints)
            let name = database?.lastPathComponent ?? "sample database"
            // Without a socket (a sandbox that forbids listening), the board runs as before Lesson 8: r refreshes.
            // Scripts never stream: only the screen opens a port.
            let streams = options.command == .interactive
            let live = streams ? (try? server.streamingBaseURL()).map { Lesson8Live(baseURL: $0) } : nil
            return BoardConnection(service: service, label: "embedded emulator, \(name)", live: live,
                                   pages: Lesson10Pages(baseURL: server.baseURL, session: server.session, timeout: options.timeout),
                                   signIn: service, embedded: server)
        }
    }
}
