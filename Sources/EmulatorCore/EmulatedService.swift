import Foundation

/// A REST service the kit emulates: a request and the service's state in, a response (or a stream of events) out.
///
/// The core (`Emulator`) does everything else the same way for every service: the unique host and the
/// `session` of the URLProtocol transport, the socket server (`EmulatorServer`), the request log, injected faults
/// and latency, and the lock that serves requests one at a time. Firebase (module FirebaseEmulator) is the first service.
///
/// To add one, say a `/todos` API:
/// 1. A module `TodoEmulator` depending on EmulatorCore only, with a struct `TodoService: EmulatedService` that holds
///    the state (the todos, the next id) and answers in `respond(to:)`. Keep it a pure function of request and state:
///    no locks, sleeps or I/O (the core adds those), so it answers the same over both transports.
/// 2. `public typealias TodoEmulator = Emulator<TodoService>`, and in `extension Emulator where Service == TodoService`
///    a convenience `init` and whatever tests read (`withService { $0.todos }`).
/// 3. Its own error body (`errorResponse`), so `inject(.httpError(…))` looks like the real service's errors.
/// 4. Tests pinned to recorded exchanges in Fixtures/, replayed through `session` and through an `EmulatorServer`.
/// A live stream (Server-Sent Events) is an `EventStream` returned from `respond(to:)` and kept in the state; later
/// requests `send` to it, and drop it once `isCancelled` (the client left).
public protocol EmulatedService {
    /// The domain of this service's emulated hosts: each emulator answers at `lab-<8 hex>.<hostDomain>`. Use a
    /// `.invalid` domain (RFC 2606): it never resolves, so a request that escapes the session reaches no real server.
    static var hostDomain: String { get }

    /// The headers of the service's JSON answers; an injected `.malformedBody` carries them too.
    var jsonHeaders: [String: String] { get }

    /// Answers one request, changing the state as the real service would. Called under the emulator's lock, one
    /// request at a time, so it must be quick and must not block.
    mutating func respond(to request: ServiceRequest) -> ServiceReply

    /// The service's own error answer with this status and message (for faults and refusals).
    func errorResponse(status: Int, message: String) -> EmulatorResponse
}

extension EmulatedService {
    public var jsonHeaders: [String: String] { ["Content-Type": "application/json; charset=utf-8"] }

    /// `{"error":"<message>"}`, as many JSON APIs answer; override to match the real service byte for byte.
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        .raw(status: status, headers: jsonHeaders, body: JSONValue.object(["error": .string(message)]).jsonData)
    }
}

/// What a service answers: one complete response, or a stream that stays open and receives events later.
public enum ServiceReply {
    case response(EmulatorResponse)
    /// Only the socket server can deliver it; the URLProtocol transport refuses it with a message saying so.
    case stream(EventStream)
}
