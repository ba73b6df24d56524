import Foundation

/// The `/todos` API as a service on the emulator core: its state (`TodoStore`) and json-server's answers.
///
/// Routes, as json-server serves a `todos` collection (Fixtures/todos/README.md gives sources and inferences):
/// `GET /todos` (equality filters such as `?userId=1`), `GET /todos/<id>`, `POST /todos` (201, the stored todo with
/// its new id), `PUT`/`PATCH /todos/<id>` (200, the result), `DELETE /todos/<id>` (200 `{}`). Anything missing is
/// 404 `{}`. A body is read only when the request says `Content-Type: application/json`; otherwise it counts as `{}`.
public struct TodoService: EmulatedService {
    /// `.invalid` never resolves: a request that escapes the session cannot reach the real JSONPlaceholder.
    public static let hostDomain = "jsonplaceholder.invalid"

    var store: TodoStore

    public init(todos: [JSONValue] = []) {
        store = TodoStore(todos)
    }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        let response = TodoRoutes.respond(to: request, store: &store)
        // HEAD: a GET's status and headers (Content-Length included), no body.
        guard request.method == "HEAD" else { return .response(response) }
        return .response(EmulatorResponse(statusCode: response.statusCode, headers: response.headers))
    }

    /// json-server answers a missing resource with `{}`; other errors carry `{"error": "<message>"}` (inferred).
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        let body: JSONValue = status == 404 ? .object([:]) : .object(["error": .string(message)])
        return .raw(status: status, headers: jsonHeaders, body: body.jsonData)
    }
}
