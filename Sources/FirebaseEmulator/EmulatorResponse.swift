import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the emulator answered: status, headers and body bytes, or a transport error that stands for
/// "no HTTP response at all" (status 0). `EmulatorURLProtocol` turns the latter into `didFailWithError`.
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
    /// Headers of every Firebase JSON answer, success or error [SAVE]. Content-Length is added per body.
    static let jsonHeaders = [
        "Content-Type": "application/json; charset=utf-8",
        "Access-Control-Allow-Origin": "*",
        "Cache-Control": "no-cache",
    ]

    static func json(_ value: JSONValue, status: Int = 200, pretty: Bool = false) -> EmulatorResponse {
        // Pretty output ends with a newline, as Firebase's pretty error bodies do.
        let text = pretty ? value.prettyText + "\n" : value.description
        return raw(status: status, headers: jsonHeaders, body: Data(text.utf8))
    }

    /// Firebase's error body, byte for byte: `{\n  "error" : "<message>"\n}\n` [FBL].
    static func firebaseError(status: Int, message: String) -> EmulatorResponse {
        json(.object(["error": .string(message)]), status: status, pretty: true)
    }

    static func plainText(status: Int, _ text: String) -> EmulatorResponse {
        var headers = jsonHeaders
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return raw(status: status, headers: headers, body: Data(text.utf8))
    }

    /// `print=silent`: 204 and nothing else.
    static func noContent() -> EmulatorResponse {
        raw(status: 204, headers: jsonHeaders, body: Data())
    }

    static func raw(status: Int, headers: [String: String], body: Data) -> EmulatorResponse {
        var headers = headers
        headers["Content-Length"] = String(body.count)
        return EmulatorResponse(statusCode: status, headers: headers, body: body)
    }
}
