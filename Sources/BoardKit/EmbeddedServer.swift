// The board's only use of the emulators, and only their public API: this file is all that has to follow them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseAuthEmulator
import FirebaseEmulator

/// The default server: an in-process Firebase emulator loaded with a database export, under the board's security
/// rules, beside an Auth emulator with one sample account (Lesson 9). Nothing to set up, and nothing leaves the
/// machine; its posts last as long as the board runs. The learner's REST calls go through its URLProtocol `session`
/// (which reaches both emulators); a stream needs a real socket, so live updates get the same emulator on 127.0.0.1 too.
public final class EmbeddedServer {
    let emulator: FirebaseEmulator
    private let auth: FirebaseAuthEmulator
    private let lock = NSLock()
    private var socketServer: EmulatorServer?

    /// The course's sample database, found from this source file: `swift run board` runs from the kit's checkout.
    public static let sampleDatabase = kitFolder.appendingPathComponent("Fixtures/databases/message-board-sample.json")
    /// Lesson 9's rules on the board's layout (Fixtures/board/README.md).
    public static let rulesFile = kitFolder.appendingPathComponent("Fixtures/board/message-board.rules.json")
    /// The account the Auth emulator starts with; `board --help` and the README give it.
    public static let sampleAccount = (email: "ada@example.com", password: "analytical-engine")
    /// Any key works on the emulator; the learner's `ForumSession` sends it as `?key=`.
    public static let apiKey = "board"

    private static var kitFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// - databaseExport: nil for the course's sample with the long thread (`LongThread`) added.
    /// - latency: seconds before every answer, to see how the board (and your code) copes with a slow server.
    public init(databaseExport: URL? = nil, latency: TimeInterval = 0) throws {
        emulator = try FirebaseEmulator(databaseExport: databaseExport ?? Self.sampleDatabase)
        if databaseExport == nil { emulator.load(LongThread.added(to: emulator.database)) }
        try emulator.setRules(String(contentsOf: Self.rulesFile, encoding: .utf8))
        emulator.latency = latency
        auth = FirebaseAuthEmulator()
        auth.keepsLatestRequests = 1  // the board never reads the Auth log, and its requests hold passwords
        auth.latency = latency
        try createSampleAccount()
    }

    public var baseURL: URL { emulator.baseURL }
    public var session: URLSession { emulator.session }
    /// Where the learner's `ForumSession` signs in: the Auth emulator, reached through `session` too.
    public var signInEndpoints: SignInEndpoints {
        SignInEndpoints(identityToolkitURL: auth.identityToolkitURL, secureTokenURL: auth.secureTokenURL, apiKey: Self.apiKey)
    }

    /// The sample account, made as an administrator would: straight to the Auth emulator, not through learner code.
    private func createSampleAccount() throws {
        var request = URLRequest(url: URL(string: auth.identityToolkitURL.absoluteString + "accounts:signUp?key=\(Self.apiKey)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "email": Self.sampleAccount.email, "password": Self.sampleAccount.password, "returnSecureToken": true,
        ])
        let response = auth.handle(request)
        guard response.statusCode == 200 else {
            throw EmbeddedServerError("the Auth emulator refused the sample account (\(response.statusCode))")
        }
        auth.clearRequests()  // its request held the password
    }

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

struct EmbeddedServerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
