import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server the options name, and the learner's code pointed at it.
public struct BoardConnection {
    public let service: BoardService
    /// For the title bar: where the board talks.
    public let label: String
    /// Keeps the embedded emulator alive while the board runs.
    private let embedded: EmbeddedServer?

    public static func open(_ options: BoardOptions) throws -> BoardConnection {
        switch options.server {
        case .url(let url):
            // Generic on purpose: `lab serve`, a real Firebase, anything that speaks Firebase's REST.
            let service = LessonBoardService(baseURL: url, session: .shared, timeout: options.timeout)
            return BoardConnection(service: service, label: url.absoluteString, embedded: nil)
        case .embedded(let database, let latency):
            let server = try EmbeddedServer(databaseExport: database ?? EmbeddedServer.sampleDatabase, latency: latency)
            let service = LessonBoardService(baseURL: server.baseURL, session: server.session, timeout: options.timeout)
            let name = database?.lastPathComponent ?? "sample database"
            return BoardConnection(service: service, label: "embedded emulator, \(name)", embedded: server)
        }
    }
}
