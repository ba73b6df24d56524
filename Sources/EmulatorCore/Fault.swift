import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure to inject into the next request, so tests can check how learner code copes.
/// A fault replaces the service's work entirely: its state is not read or changed by a faulted request.
public enum Fault: Equatable {
    /// The service's own error body (`EmulatedService.errorResponse`) with this status.
    case httpError(status: Int, message: String)
    /// No HTTP response at all: `URLError(code)` through the URLProtocol, a dropped connection over a socket.
    case transportError(URLError.Code)
    /// 200 with this text as the body (meant to be invalid JSON) and the service's JSON headers.
    case malformedBody(String)
    /// This status with this text as the body and the service's JSON headers: a success other than the one the
    /// service usually sends, or a failure whose body is chosen by the test (one that looks like a success, say).
    case answer(status: Int, body: String)
    /// This status with this text as the body and this Content-Type: a page from something in front of the service,
    /// such as a proxy's or load balancer's HTML error page (`502 Bad Gateway`, `text/html`).
    case page(status: Int, contentType: String, body: String)

    func response<Service: EmulatedService>(from service: Service) -> EmulatorResponse {
        switch self {
        case .httpError(let status, let message):
            return service.errorResponse(status: status, message: message)
        case .transportError(let code):
            return EmulatorResponse(statusCode: 0, transportError: URLError(code))
        case .malformedBody(let text):
            return .raw(status: 200, headers: service.jsonHeaders, body: Data(text.utf8))
        case .answer(let status, let text):
            return .raw(status: status, headers: service.jsonHeaders, body: Data(text.utf8))
        case .page(let status, let contentType, let text):
            return .raw(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }
    }
}
