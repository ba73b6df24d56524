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
                                 idleInterval: keepAliveInterval)
        stream.send(Self.event("put", path: [], data: tree.read(at: path)))
        listeners.append(Listener(path: path, stream: stream))
        return .stream(stream)
    }

    /// PUT, POST and DELETE: writes `value` at `target`; each listener whose data changed gets a `put`.
    mutating func set(_ value: JSONValue, at target: [String]) {
        listeners.removeAll { $0.stream.isCancelled }
        let watched = listeners.map { Self.deeper($0.path, target) }
        let before = watched.map { $0.map { tree.read(at: $0) } }
        tree.write(value, at: target)
        for (index, listener) in listeners.enumerated() {
            guard let location = watched[index], let old = before[index] else { continue }
            let new = tree.read(at: location)
            if new != old { listener.stream.send(Self.event("put", path: Array(location.dropFirst(listener.path.count)), data: new)) }
        }
    }

    /// PATCH at `path`: listeners at or above it get one `patch` with the updated children; listeners below it a
    /// `put` of their own location when it changed.
    mutating func update(_ updates: [Update], at path: [String]) {
        listeners.removeAll { $0.stream.isCancelled }
        let watched = listeners.map { Self.deeper($0.path, path) }
        let before = watched.map { $0.map { tree.read(at: $0) } }
        for update in updates { tree.write(update.value, at: update.target) }
        for (index, listener) in listeners.enumerated() {
            guard let location = watched[index], let old = before[index] else { continue }
            let new = tree.read(at: location)
            guard new != old else { continue }
            if location == path {
                var children: [String: JSONValue] = [:]
                for update in updates { children[update.key] = tree.read(at: update.target) }
                listener.stream.send(Self.event("patch", path: Array(path.dropFirst(listener.path.count)), data: .object(children)))
            } else {
                listener.stream.send(Self.event("put", path: [], data: new))
            }
        }
    }

    /// Sends every open stream its last event and closes it.
    mutating func endStreams(_ ending: StreamEnding) {
        for listener in listeners {
            switch ending {
            case .cancel: listener.stream.send(Self.event("cancel", data: "null"))
            case .authRevoked: listener.stream.send(Self.event("auth_revoked", data: JSONValue.string("credential is no longer valid").description))
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
        return event(name, data: "{\"path\":\(pathText),\"data\":\(data.description)}")
    }

    static func event(_ name: String, data: String) -> Data {
        Data("event: \(name)\ndata: \(data)\n\n".utf8)
    }
}

extension Emulator where Service == FirebaseService {
    /// Ends every open stream the way Firebase does when the rules stop allowing the read (`.cancel`) or the
    /// credential expires (`.authRevoked`).
    public func endStreams(_ ending: FirebaseService.StreamEnding) {
        withService { $0.endStreams(ending) }
    }

    /// Streams open now (those whose client left are counted until the next write notices).
    public var openStreamCount: Int { withService { $0.listeners.filter { !$0.stream.isCancelled }.count } }
}
