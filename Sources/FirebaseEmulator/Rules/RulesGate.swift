import Foundation

/// The request path under security rules: who is asking (`auth=`), whether the rules let them, then the usual
/// answer. Reads are checked before they run; a write runs first on a copy of the state with no listeners, so the
/// rules see exactly the data it would leave (server values resolved, the push ID chosen), and then for real only
/// when the rules allow it. Denied: 401 `{"error" : "Permission denied"}`, the state untouched, no event sent.
extension FirebaseService {
    mutating func respondUnderRules(_ rules: SecurityRules, to request: ServiceRequest) -> ServiceReply {
        let now = clock()
        let auth: RuleValue
        var expires: Date?
        switch RequestAuth.of(request, now: now) {
        case .admin: return respondUnchecked(to: request)
        case .refused(let text): return .response(.firebaseError(status: 401, message: text))
        case .signedOut: auth = .null
        case .user(let value, let expiry): (auth, expires) = (value, expiry)
        }
        // What the handler refuses by itself (no `.json`, a bad path, an unknown method) touches no data: let it.
        guard request.hasJSONSuffix, RequestHandler.supportedMethods.contains(request.method),
            let path = request.segments, path.allSatisfy(Validation.isValidPathSegment)
        else { return respondUnchecked(to: request) }
        let context = SecurityRules.Context(auth: auth, now: now)
        let denied = ServiceReply.response(.firebaseError(status: 401, message: ErrorText.permissionDenied))

        if request.readsOnly {
            guard rules.canRead(path, tree: tree.root, context: context) else { return denied }
            let reply = respondUnchecked(to: request)
            if case .stream(let stream) = reply, let expires = expires { Self.revoke(stream, at: expires, clock: clock) }
            return reply
        }
        // The trial and the write itself run at the rules' `now`, so `{".sv": "timestamp"}` resolves to exactly `now`.
        let realClock = clock
        clock = { now }
        defer { clock = realClock }
        var trial = self
        trial.listeners = []
        let trialResponse = RequestHandler.respond(to: request, state: &trial)
        guard (200..<300).contains(trialResponse.statusCode) else { return .response(trialResponse) }  // refused, nothing written
        let written = Self.writtenLocations(request, path: path, before: tree.root, after: trial.tree.root)
        guard rules.canWrite(written, old: tree.root, new: trial.tree.root, context: context) else { return denied }
        return respondUnchecked(to: request)
    }

    /// The locations a successful write changed: the URL's for PUT and DELETE, one per key for PATCH, the new
    /// child for POST (found by comparing the trees, so `print=silent` needs no body).
    private static func writtenLocations(_ request: ServiceRequest, path: [String], before: JSONValue, after: JSONValue) -> [[String]] {
        switch request.method {
        case "PATCH":
            let keys = request.body.flatMap { try? JSONValue(data: $0) }?.objectValue?.keys.sorted() ?? []
            return keys.map { path + $0.split(separator: "/").map(String.init) }
        case "POST":
            let old = RuleSnapshot(tree: before, path: path).value.objectValue ?? [:]
            let new = RuleSnapshot(tree: after, path: path).value.objectValue ?? [:]
            let added = new.keys.filter { old.index(forKey: $0) == nil }.sorted()  // a push ID is always new: no values compared
            return added.isEmpty ? [path + ["-"]] : added.map { path + [$0] }
        default:
            return [path]
        }
    }

    /// Ends `stream` with `auth_revoked` when the token it was opened with expires (REF "Streaming": "sent when
    /// the supplied auth parameter is no longer valid"), as Firebase does for ID tokens after their hour: when the
    /// time it had left has passed, or sooner when the service's clock passes its expiry — a test's clock moves when
    /// the test says (`advance`), and the stream then ends within 0.1 s, not after the seconds it had left.
    private static func revoke(_ stream: EventStream, at expiry: Date, clock: @escaping () -> Date,
                               latest: DispatchTime? = nil) {
        let left = expiry.timeIntervalSince(clock())
        let latest = latest ?? .now() + max(0, left)
        guard left <= 0 || DispatchTime.now() >= latest else {
            DispatchQueue.global().asyncAfter(deadline: min(.now() + 0.1, latest)) { [weak stream] in
                guard let stream = stream, !stream.isCancelled else { return }
                revoke(stream, at: expiry, clock: clock, latest: latest)
            }
            return
        }
        stream.send(event("auth_revoked", data: JSONValue.string("credential is no longer valid").description))
        stream.finish()
    }
}
