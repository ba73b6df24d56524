import Foundation

/// Firebase's live updates over REST [REF streaming]: GET with `Accept: text/event-stream` keeps the response open;
/// the first event is `put` at "/" with the data at the listened location, then every write that changes data at or
/// under it becomes a `put` or `patch` event with a path relative to that location. Each event is
/// `event: <name>\ndata: <JSON>\n\n`, as EventSource (Server-Sent Events) frames it.
extension FirebaseService {
    /// Firebase does not document its keep-alive interval; 30 s is what clients observe (inferred). `lab serve
    /// --keep-alive` and tests set their own.
    public static let defaultKeepAliveInterval: TimeInterval = 30

    /// A client listening at `path`.
    struct Listener {
        let path: [String]
        let stream: EventStream
        /// A stream of a query sees only the query's result.
        var query: Query? = nil
        /// Who opened it: new rules may stop them reading (Rules/RulesChange.swift).
        var reader = RequestAuth.signedOut
    }

    /// One child of a PATCH: the key as sent ("a/b" allowed), where it lands, and the resolved value.
    struct Update {
        let key: String
        let target: [String]
        let value: JSONValue
    }

    /// How the server ends a stream it will no longer serve.
    public enum StreamEnding {
        /// `cancel`: the rules no longer allow reading the location. Data: null.
        case cancel
        /// `auth_revoked`: the credential the stream was opened with is no longer valid. Data: a string.
        case authRevoked
        /// No event: the server just closes the stream (a restart, a proxy's idle limit), and the client sees it end.
        case closed
    }

    static func wantsEventStream(_ request: ServiceRequest) -> Bool {
        request.method == "GET" && (request.header("Accept") ?? "").lowercased().contains("text/event-stream")
    }

    /// Starts a stream at the request's location, or answers as a GET would when that fails (no `.json`, bad path).
    mutating func listen(_ request: ServiceRequest) -> ServiceReply {
        let check = RequestHandler.respond(to: request, state: &self)
        guard check.statusCode == 200, let path = request.segments else { return .response(check) }
        var headers = EmulatorResponse.jsonHeaders
        headers["Content-Type"] = "text/event-stream; charset=utf-8"
        headers["Content-Length"] = nil
        let stream = EventStream(headers: headers, idleEvent: Self.event("keep-alive", data: "null"),
                                 idleInterval: keepAliveInterval, budget: streamBudget)
        let query = try? RequestHandler.query(of: request, at: path, state: self)  // checked by the GET above
        let listener = Listener(path: path, stream: stream, query: query ?? nil, reader: RequestAuth.of(request, now: clock()))
        stream.send(Self.event("put", path: [], data: query == nil ? tree.read(at: path) : DataTree.presented(view(of: listener, at: path))))
        listeners.append(listener)
        return .stream(stream)
    }

    /// PUT, POST and DELETE: writes `value` at `target`; each listener whose data changed gets a `put`.
    mutating func set(_ value: JSONValue, at target: [String]) {
        let watched = watchedLocations(of: target)
        tree.write(value, at: target)
        var shared = SharedEvents()
        for (listener, location, old) in watched {
            let new = view(of: listener, at: location)
            guard new != old else { continue }
            send(changesFrom: old, to: new, to: listener) {
                shared.event(for: listener.path) { Self.event("put", path: Array(location.dropFirst(listener.path.count)), data: new) }
            }
        }
    }

    /// PATCH at `path`: listeners at or above it get one `patch` with the updated children; listeners below it a
    /// `put` of their own location when it changed.
    mutating func update(_ updates: [Update], at path: [String]) {
        let watched = watchedLocations(of: path)
        for update in updates { tree.write(update.value, at: update.target) }
        var shared = SharedEvents()
        for (listener, location, old) in watched {
            let new = view(of: listener, at: location)
            guard new != old else { continue }
            send(changesFrom: old, to: new, to: listener) {
                shared.event(for: listener.path) {
                    guard location == path else { return Self.event("put", path: [], data: new) }
                    var children: [String: JSONValue] = [:]
                    for update in updates { children[update.key] = tree.read(at: update.target) }
                    return Self.event("patch", path: Array(path.dropFirst(listener.path.count)), data: .object(children))
                }
            }
        }
    }

    /// The open listeners a write at `target` can concern, each with the location it watches and what it sees there
    /// now. Listeners whose client left are forgotten here.
    private mutating func watchedLocations(of target: [String]) -> [(Listener, [String], JSONValue)] {
        listeners.removeAll { $0.stream.isCancelled }
        return listeners.compactMap { listener in
            guard let location = Self.deeper(listener.path, target) else { return nil }
            let watched = listener.query == nil ? location : listener.path  // a query watches its whole window
            return (listener, watched, view(of: listener, at: watched))
        }
    }

    /// What a listener sees at `location`: the data there, or (for a query) its result in storage form.
    private func view(of listener: Listener, at location: [String]) -> JSONValue {
        guard let query = listener.query else { return tree.read(at: location) }
        return query.apply(to: tree.stored(at: location))
    }

    /// A plain listener gets `event()`; a query's listener gets a `put` for each child that entered, left or changed
    /// in its window, so its view stays equal to the query's result.
    private func send(changesFrom old: JSONValue, to new: JSONValue, to listener: Listener,
                      event: () -> Data) {
        guard listener.query != nil else { return listener.stream.send(event()) }
        guard old.objectValue != nil || old == .null, new.objectValue != nil || new == .null else {
            return listener.stream.send(Self.event("put", path: [], data: DataTree.presented(new)))
        }
        let keys = Set((old.objectValue ?? [:]).keys).union((new.objectValue ?? [:]).keys)
        for key in keys.sorted(by: QueryOrder.keyPrecedes) where old[key] != new[key] {
            listener.stream.send(Self.event("put", path: [key], data: DataTree.presented(new[key])))
        }
    }

    /// One write's events, built once per listened location: listeners at one place share one buffer (a 1 MB write
    /// to 50 listeners holds 1 MB, not 50).
    private struct SharedEvents {
        private var built: [[String]: Data] = [:]

        mutating func event(for listened: [String], _ make: () -> Data) -> Data {
            if let event = built[listened] { return event }
            let event = make()
            built[listened] = event
            return event
        }
    }

    /// Sends every open stream its last event and closes it.
    mutating func endStreams(_ ending: StreamEnding) {
        for listener in listeners {
            switch ending {
            case .cancel: listener.stream.send(Self.event("cancel", data: "null"))
            case .authRevoked: listener.stream.send(Self.event("auth_revoked", data: JSONValue.string("credential is no longer valid").description))
            case .closed: break
            }
            listener.stream.finish()
        }
        listeners.removeAll()
    }

    /// Of a listener's location and a write's target, the deeper one when one lies within the other (where the
    /// listener's data can change); nil when they are apart.
    private static func deeper(_ listened: [String], _ written: [String]) -> [String]? {
        if written.starts(with: listened) { return written }
        if listened.starts(with: written) { return listened }
        return nil
    }

    /// `event: put` / `data: {"path":"/a","data":…}`: path first, as Firebase writes it.
    static func event(_ name: String, path: [String], data: JSONValue) -> Data {
        let pathText = JSONValue.string("/" + path.joined(separator: "/")).description
        return event(name, data: "{\"path\":\(pathText),\"data\":\(data.firebaseText())}")
    }

    static func event(_ name: String, data: String) -> Data {
        Data("event: \(name)\ndata: \(data)\n\n".utf8)
    }
}

extension Emulator where Service == FirebaseService {
    /// Ends every open stream the way Firebase does when the rules stop allowing the read (`.cancel`) or the
    /// credential expires (`.authRevoked`), or closes it without an event (`.closed`).
    public func endStreams(_ ending: FirebaseService.StreamEnding) {
        withService { $0.endStreams(ending) }
    }

    /// Streams open now (those whose client left are counted until the next write notices).
    public var openStreamCount: Int { withService { $0.listeners.filter { !$0.stream.isCancelled }.count } }
}
