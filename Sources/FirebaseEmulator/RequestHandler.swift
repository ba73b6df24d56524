import Foundation

/// The REST semantics as a pure function: one request and the state in, one response out (state updated).
/// No locking, no faults, no timing: the emulator core adds those.
enum RequestHandler {
    /// A request refused with a Firebase error response.
    struct Rejection: Error {
        let response: EmulatorResponse
        init(_ status: Int, _ message: String) { response = .firebaseError(status: status, message: message) }
    }

    static let supportedMethods: Set<String> = ["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE"]

    static func respond(to request: ServiceRequest, state: inout FirebaseService) -> EmulatorResponse {
        do {
            return try respondOrReject(request, state: &state)
        } catch let rejection as Rejection {
            return rejection.response
        } catch {
            return .firebaseError(status: 500, message: ErrorText.internalError)  // unreachable: only Rejection is thrown
        }
    }

    private static func respondOrReject(_ request: ServiceRequest, state: inout FirebaseService) throws -> EmulatorResponse {
        // Firebase's own check comes first: without `.json` it is not the REST API at all (403 as firetest; inferred).
        guard request.hasJSONSuffix else { return .plainText(status: 403, ErrorText.missingJSONSuffix) }
        if request.method == "OPTIONS" { return .corsPreflight(request) }
        guard supportedMethods.contains(request.method) else {
            throw Rejection(405, ErrorText.methodNotAllowed(request.method))
        }
        guard let path = request.segments, Validation.isValidPath(path) else { throw Rejection(400, ErrorText.invalidPath) }
        if let refusal = RequestLimits.refusal(of: request) { throw Rejection(400, refusal) }
        // `/.priority.json` reads, sets or removes a priority [REF "Priorities"]; nothing else can be done there.
        if path.last == DataTree.priorityKey && !["GET", "HEAD", "PUT", "DELETE"].contains(request.method) {
            throw Rejection(400, ErrorText.invalidPath)
        }

        let print = request.query["print"] ?? (state.answersWritesSilently && !request.readsOnly ? "silent" : nil)
        // `print=silent`: the work is done, the answer is 204 with no body [REF].
        func success(_ value: JSONValue) -> EmulatorResponse {
            print == "silent" ? .noContent() : .json(value, pretty: print == "pretty")
        }

        switch request.method {
        case "GET":
            if let unchanged = ConditionalRequests.notModified(request, at: path, tree: state.tree) { return unchanged }
            let answer = ReadOptions.applied(to: success(try read(request, at: path, state: state)), request)
            return ConditionalRequests.tagging(answer, request, at: path, tree: state.tree)
        case "HEAD":
            let get = success(read(at: path, shallow: false, tree: state.tree))
            return EmulatorResponse(statusCode: get.statusCode, headers: get.headers, body: Data())
        case "DELETE":
            if let stale = ConditionalRequests.refusal(of: request, at: path, tree: state.tree) { return stale }
            state.set(.null, at: path)
            return ConditionalRequests.tagging(success(.null), request, at: path, tree: state.tree)
        default:
            break
        }

        let body = try parseBody(request)
        switch request.method {
        case "PUT":
            if path.last == DataTree.priorityKey && !Validation.isPriority(body) { throw Rejection(400, ErrorText.invalidPriority) }
            let value = try prepare(body, at: path, state: state)
            if let stale = ConditionalRequests.refusal(of: request, at: path, tree: state.tree) { return stale }
            state.set(value, at: path)
            return ConditionalRequests.tagging(success(value), request, at: path, tree: state.tree)
        case "POST":
            let name = state.pushIDs.next()
            let value = try prepare(body, at: path + [name], state: state)
            state.set(value, at: path + [name])
            return success(.object(["name": .string(name)]))
        default:  // PATCH
            guard case .object(let updates) = body else { throw Rejection(400, ErrorText.invalidJSON) }
            // Check every child before writing any, so a refused PATCH changes nothing.
            var prepared: [FirebaseService.Update] = []
            var echo: [String: JSONValue] = [:]
            for key in updates.keys.sorted() {
                let target = path + key.split(separator: "/").map(String.init)
                if target.last == DataTree.priorityKey && !Validation.isPriority(updates[key]!) {
                    throw Rejection(400, ErrorText.invalidPriority)
                }
                let value = try prepare(updates[key]!, at: target, state: state)
                prepared.append(FirebaseService.Update(key: key, target: target, value: value))
                echo[key] = value
            }
            state.update(prepared, at: path)
            return success(.object(echo))  // PATCH answers with the request's data, not the merged result [REF]
        }
    }

    /// A GET's answer: the data at `path`, shallow or filtered by the request's query.
    private static func read(_ request: ServiceRequest, at path: [String], state: FirebaseService) throws -> JSONValue {
        let shallow = request.query["shallow"] == "true"
        let query = try self.query(of: request, at: path, state: state)
        if shallow && query != nil { throw Rejection(400, ErrorText.shallowWithQuery) }
        if let query = query { return DataTree.presented(query.apply(to: state.tree.stored(at: path))) }
        // `format=export`: priorities included, as Firebase's export format writes them [REF].
        if request.query["format"] == "export" && !shallow { return state.tree.read(at: path, withPriorities: true) }
        return read(at: path, shallow: shallow, tree: state.tree)
    }

    /// The request's query, checked against the indexes; nil when it has none.
    static func query(of request: ServiceRequest, at path: [String], state: FirebaseService) throws -> Query? {
        guard !request.query.isEmpty else { return nil }  // the common case, kept cheap
        let query: Query?
        do {
            query = try Query.parse(request.query)
        } catch let refusal as Query.Refusal {
            throw Rejection(400, refusal.message)
        }
        if let child = query?.requiredIndex, !state.indexes.isIndexed(child, at: path) {
            throw Rejection(400, ErrorText.indexNotDefined(child, path: path))
        }
        return query
    }

    static func read(at path: [String], shallow: Bool, tree: DataTree) -> JSONValue {
        let value = tree.read(at: path)
        // `shallow=true`: an object's children are replaced by `true` [RETR].
        guard shallow, case .object(let children) = tree.stored(at: path), children[DataTree.valueKey] == nil else { return value }
        return .object(children.filter { $0.key != DataTree.priorityKey }.mapValues { _ in .bool(true) })
    }

    /// The body as JSON with Firebase's checks: present and valid JSON, then every key valid.
    private static func parseBody(_ request: ServiceRequest) throws -> JSONValue {
        // Depth first, on the raw bytes: nothing recursive may see a body nested thousands of levels deep.
        if let data = request.body, NestingLimit.isTooDeep(data) { throw Rejection(400, ErrorText.tooDeep) }
        guard let data = request.body, let parsed = try? JSONParser.parse(data) else {
            throw Rejection(400, ErrorText.invalidJSON)
        }
        if let key = Validation.firstInvalidKey(in: parsed.keys, topLevelKeysArePaths: request.method == "PATCH") {
            throw Rejection(400, ErrorText.invalidKey(line: key.line, column: key.column))
        }
        let usesPriorities = parsed.keys.contains { $0.name == DataTree.priorityKey || $0.name == DataTree.valueKey }
        if usesPriorities && Validation.misusesPriorities(parsed.value) { throw Rejection(400, ErrorText.invalidPriority) }
        return parsed.value
    }

    /// Depth and string-size limits, then server values resolved against what is stored at `target` now.
    private static func prepare(_ value: JSONValue, at target: [String], state: FirebaseService) throws -> JSONValue {
        let size = Validation.measure(value)
        guard target.count + size.depth <= Validation.maximumDepth else { throw Rejection(400, ErrorText.tooDeep) }
        guard size.longestString <= state.maximumStringBytes else { throw Rejection(400, ErrorText.stringTooLong) }
        do {
            return try ServerValues.resolve(value, existing: state.tree.stored(at: target), now: state.clock())
        } catch is ServerValues.IncrementOverflow {
            throw Rejection(400, ErrorText.incrementOverflow)
        } catch {
            throw Rejection(400, ErrorText.unknownServerValue)
        }
    }
}
