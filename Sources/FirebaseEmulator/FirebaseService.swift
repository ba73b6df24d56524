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
    /// The rules' `.indexOn` entries: which children `orderBy` may name. None by default, as in a database whose
    /// rules have no `.indexOn` (the Firebase emulator's open default rules have none).
    public var indexes = QueryIndexes()
    /// The databases `?ns=<name>` names, other than the default one (`tree`).
    var namespaces: [String: Namespace] = [:]
    /// What unread stream events may hold (`StreamBudget`); tests give a small one to run the same scenario fast.
    public var streamBudget = StreamBudget.shared
    /// The longest string a write may hold, in UTF-8 bytes: Firebase's 10 MB [LIMITS]; tests may lower it.
    public var maximumStringBytes = Validation.maximumStringBytes
    /// Answer every write (PUT, POST, PATCH, DELETE) as if it asked for `?print=silent`: the work is done, the answer is
    /// 204 No Content with no body. Off by default, as on Firebase; tests turn it on to check that code counts any
    /// status in 200...299 as a success, not only 200.
    public var answersWritesSilently = false

    public init(database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
                randomness: PushIDGenerator.Randomness = .system) {
        tree = DataTree(database)
        pushIDs = PushIDGenerator(clock: clock, randomness: randomness)
        self.clock = clock
    }

    public var jsonHeaders: [String: String] { EmulatorResponse.jsonHeaders }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        // `?ns=` picks the database (Namespaces.swift); in it, `/.settings/rules.json` reads or replaces its rules
        // (Rules/RulesSettings.swift), and with rules, `auth=` and the rules decide first (Rules/RulesGate.swift).
        inNamespace(of: request) { service in
            if let settings = service.rulesSettings(request) { return .response(settings) }
            if let rules = service.rules { return service.respondUnderRules(rules, to: request) }
            return service.respondUnchecked(to: request)
        }
    }

    mutating func respondUnchecked(to request: ServiceRequest) -> ServiceReply {
        Self.wantsEventStream(request) ? listen(request) : .response(RequestHandler.respond(to: request, state: &self))
    }

    /// Firebase's error body, byte for byte: `{\n  "error" : "<message>"\n}\n` [FBL].
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        .firebaseError(status: status, message: message)
    }
}
