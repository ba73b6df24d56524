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
    /// Keeps the embedded emulator alive while the board runs.
    private let embedded: EmbeddedServer?

    public static func open(_ options: BoardOptions) throws -> BoardConnection {
        switch options.server {
        case .url(let url):
            // Generic on purpose: `lab serve`, a real Firebase, anything that speaks Firebase's REST.
            let service = LessonBoardService(baseURL: url, session: .shared, timeout: options.timeout)
            return BoardConnection(service: service, label: url.absoluteString, live: Lesson8Live(baseURL: url), embedded: nil)
        case .embedded(let database, let latency):
            let server = try EmbeddedServer(databaseExport: database ?? EmbeddedServer.sampleDatabase, latency: latency)
            let service = LessonBoardService(baseURL: server.baseURL, session: server.session, timeout: options.timeout)
            let name = database?.lastPathComponent ?? "sample database"
            // Without a socket (a sandbox that forbids listening), the board runs as before Lesson 8: r refreshes.
            // Scripts never stream: only the screen opens a port.
            let streams = options.command == .interactive
            let live = streams ? (try? server.streamingBaseURL()).map { Lesson8Live(baseURL: $0) } : nil
            return BoardConnection(service: service, label: "embedded emulator, \(name)", live: live, embedded: server)
        }
    }
}
