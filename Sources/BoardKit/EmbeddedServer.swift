// The board's only use of FirebaseEmulator, and only its public API: the emulator is being split into a shared core
// with a socket server (`lab serve`), and this file is all that has to follow.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator

/// The default server: an in-process Firebase emulator loaded with a database export. Nothing to set up, and
/// nothing leaves the machine; its posts last as long as the board runs. The learner's REST calls go through its
/// URLProtocol `session`; a stream needs a real socket, so live updates get the same emulator on 127.0.0.1 too.
public final class EmbeddedServer {
    private let emulator: FirebaseEmulator
    private let lock = NSLock()
    private var socketServer: EmulatorServer?

    /// The course's sample database, found from this source file: `swift run board` runs from the kit's checkout.
    public static let sampleDatabase = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/databases/message-board-sample.json")

    /// - latency: seconds before every answer, to see how the board (and your code) copes with a slow server.
    public init(databaseExport: URL = EmbeddedServer.sampleDatabase, latency: TimeInterval = 0) throws {
        emulator = try FirebaseEmulator(databaseExport: databaseExport)
        emulator.latency = latency
    }

    public var baseURL: URL { emulator.baseURL }
    public var session: URLSession { emulator.session }

    /// The emulator over HTTP on 127.0.0.1 (a free port), started on first use: where a `ForumListener` can stream.
    public func streamingBaseURL() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let socketServer { return URL(string: "http://127.0.0.1:\(socketServer.port)/")! }
        let server = EmulatorServer(serving: emulator, port: 0)
        try server.start()
        socketServer = server
        return URL(string: "http://127.0.0.1:\(server.port)/")!
    }

    deinit { socketServer?.stop() }
}
