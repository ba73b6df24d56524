import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the emulator answered: status, headers and body bytes, or a transport error that stands for
/// "no HTTP response at all" (status 0): `EmulatorURLProtocol` fails the task with it, the socket server drops the
/// connection.
public struct EmulatorResponse {
    /// 0 when a transport error was injected.
    public let statusCode: Int
    public let headers: [String: String]
    public let body: Data
    public let transportError: URLError?

    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), transportError: URLError? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.transportError = transportError
    }

    /// The body as JSON; nil when it is empty or not valid JSON.
    public var bodyJSON: JSONValue? { try? JSONValue(data: body) }

    /// The body as UTF-8 text; nil when it is not UTF-8.
    public var bodyText: String? { String(data: body, encoding: .utf8) }
}

extension EmulatorResponse {
    /// A complete answer; Content-Length is set from the body.
    public static func raw(status: Int, headers: [String: String], body: Data) -> EmulatorResponse {
        var headers = headers
        headers["Content-Length"] = String(body.count)
        return EmulatorResponse(statusCode: status, headers: headers, body: body)
    }
}
