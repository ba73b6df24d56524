import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure to inject into the next request, so tests can check how learner code copes.
/// A fault replaces the server's work entirely: the database is not read or changed by a faulted request.
public enum Fault: Equatable {
    /// Firebase's error body (`{\n  "error" : "<message>"\n}\n`) with this status.
    case httpError(status: Int, message: String)
    /// No HTTP response at all: delivered through `urlProtocol(_:didFailWithError:)` as `URLError(code)`.
    case transportError(URLError.Code)
    /// 200 with this text as the body (meant to be invalid JSON) and JSON headers.
    case malformedBody(String)

    /// 401 `Permission denied`: what expired test-mode rules or a bad token give.
    public static let permissionDenied = Fault.httpError(status: 401, message: ErrorText.permissionDenied)
    /// 500 `An internal error occurred`.
    public static let internalError = Fault.httpError(status: 500, message: ErrorText.internalError)

    var response: EmulatorResponse {
        switch self {
        case .httpError(let status, let message):
            return .firebaseError(status: status, message: message)
        case .transportError(let code):
            return EmulatorResponse(statusCode: 0, transportError: URLError(code))
        case .malformedBody(let text):
            return .raw(status: 200, headers: EmulatorResponse.jsonHeaders, body: Data(text.utf8))
        }
    }
}
