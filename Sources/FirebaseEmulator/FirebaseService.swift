import Foundation

/// The Realtime Database as a service on the emulator core: its state, and `RequestHandler` as its answer.
public struct FirebaseService: EmulatedService {
    /// `.invalid` never resolves: a request that escapes the session cannot reach the real Firebase.
    public static let hostDomain = "firebaseio.invalid"

    var tree: DataTree
    var pushIDs: PushIDGenerator
    let clock: () -> Date
    /// Seconds between `keep-alive` events on an idle stream.
    public var keepAliveInterval = FirebaseService.defaultKeepAliveInterval
    var listeners: [Listener] = []
    /// The rules' `.indexOn` entries: which children `orderBy` may name. None by default, as in a database whose
    /// rules have no `.indexOn` (the Firebase emulator's open default rules have none).
    public var indexes = QueryIndexes()
    /// The databases `?ns=<name>` names, other than the default one (`tree`).
    var namespaces: [String: Namespace] = [:]

    public init(database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
                randomness: PushIDGenerator.Randomness = .system) {
        tree = DataTree(database)
        pushIDs = PushIDGenerator(clock: clock, randomness: randomness)
        self.clock = clock
    }

    public var jsonHeaders: [String: String] { EmulatorResponse.jsonHeaders }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        inNamespace(of: request) { service in
            Self.wantsEventStream(request) ? service.listen(request) : .response(RequestHandler.respond(to: request, state: &service))
        }
    }

    /// Firebase's error body, byte for byte: `{\n  "error" : "<message>"\n}\n` [FBL].
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        .firebaseError(status: status, message: message)
    }
}
