import Foundation

/// json-server's answers for one collection, as a pure function: one request and the store in, one response out.
enum TodoRoutes {
    static let collection = "todos"

    static func respond(to request: ServiceRequest, store: inout TodoStore) -> EmulatorResponse {
        // `/todos/1.json` is not a route of json-server: the `.json` suffix is part of the id, which matches nothing.
        // Nor is `//todos/1` (a base URL that ends in `/`, then "/todos" pasted after it): json-server mounts each
        // collection with `router.use('/todos', …)`, and Express matches that mount path, `^\/todos`, against the
        // path as sent, so a leading empty segment reaches json-server's catch-all, 404 `{}`. (An empty segment after
        // the collection, `/todos//1`, is routed: Express trims the matched `/todos/` and routes the rest, `/1`.)
        guard let segments = request.segments, !request.hasJSONSuffix, !startsWithEmptySegment(request),
              segments.first == collection, segments.count <= 2 else {
            return notFound
        }
        let id = segments.count == 2 ? segments[1] : nil
        switch (request.method, id) {
        case ("GET", nil), ("HEAD", nil):
            return json(.array(store.all.filter { matches($0, request.query) }))
        case ("GET", let id?), ("HEAD", let id?):
            return store.find(id).map { json($0) } ?? notFound
        case ("POST", nil):
            do {
                return json(try store.insert(body(of: request)), status: 201)
            } catch {
                return json(["error": "Insert failed, duplicate id"], status: 500)
            }
        case ("PUT", let id?), ("PATCH", let id?):
            let updated = store.update(id, with: body(of: request), replacing: request.method == "PUT")
            return updated.map { json($0) } ?? notFound
        case ("DELETE", let id?):
            return store.remove(id) ? json(.object([:])) : notFound
        default:
            return notFound
        }
    }

    /// The path as sent begins with two slashes (`//todos/4`): an empty first segment, which `segments` drops.
    static func startsWithEmptySegment(_ request: ServiceRequest) -> Bool {
        let sent = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? request.url.path
        return sent.hasPrefix("//")
    }

    /// The JSON object in the body, read only with `Content-Type: application/json` (json-server's body parser);
    /// without that header, or when the body is not a JSON object, the fields are none: `{}`.
    static func body(of request: ServiceRequest) -> [String: JSONValue] {
        guard let type = request.header("Content-Type")?.lowercased(),
              type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/json",
              let data = request.body, let value = try? JSONValue(data: data)
        else { return [:] }
        return value.objectValue ?? [:]
    }

    /// json-server's filters: `?userId=1&completed=true` keeps todos whose fields print as those values.
    /// Parameters that start with `_` (paging, sorting) are not emulated and ignored.
    static func matches(_ todo: JSONValue, _ query: [String: String]) -> Bool {
        query.allSatisfy { name, wanted in
            name.hasPrefix("_") || text(of: todo[name]) == wanted
        }
    }

    private static func text(of value: JSONValue) -> String? {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let string): return string
        case .number: return TodoStore.idText(value) ?? value.description
        default: return nil
        }
    }

    static let notFound = json(.object([:]), status: 404)

    static func json(_ value: JSONValue, status: Int = 200) -> EmulatorResponse {
        .raw(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: value.jsonData)
    }
}
