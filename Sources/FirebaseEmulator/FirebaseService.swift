import Foundation

/// The Realtime Database as a service on the emulator core: its state, and `RequestHandler` as its answer.
public struct FirebaseService: EmulatedService {
    /// `.invalid` never resolves: a request that escapes the session cannot reach the real Firebase.
    public static let hostDomain = "firebaseio.invalid"

    var tree: DataTree
    var pushIDs: PushIDGenerator
    /// `var` so a write under rules can run at one instant (Rules/RulesGate.swift): `now` in the rules equals its server timestamps.
    var clock: () -> Date
    /// Seconds between `keep-alive` events on an idle stream.
    public var keepAliveInterval = FirebaseService.defaultKeepAliveInterval
    var listeners: [Listener] = []
    /// Security rules (Rules/): nil, the default, allows everything and ignores `auth=`, as the kit always did.
    public var rules: SecurityRules?

    public init(database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
                randomness: PushIDGenerator.Randomness = .system) {
        tree = DataTree(database)
        pushIDs = PushIDGenerator(clock: clock, randomness: randomness)
        self.clock = clock
    }

    public var jsonHeaders: [String: String] { EmulatorResponse.jsonHeaders }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        // fb-auth hook: with rules, `auth=` and the rules decide first (Rules/RulesGate.swift).
        if let rules = rules { return respondUnderRules(rules, to: request) }
        return respondUnchecked(to: request)
    }

    mutating func respondUnchecked(to request: ServiceRequest) -> ServiceReply {
        Self.wantsEventStream(request) ? listen(request) : .response(RequestHandler.respond(to: request, state: &self))
    }

    /// Firebase's error body, byte for byte: `{\n  "error" : "<message>"\n}\n` [FBL].
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        .firebaseError(status: status, message: message)
    }
}
