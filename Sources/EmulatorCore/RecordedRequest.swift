import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request the emulator received, with its answer: what graded tests assert on and show in failures.
public struct RecordedRequest {
    /// The effective method, after `X-HTTP-Method-Override`.
    public let method: String
    /// The method as sent.
    public let httpMethod: String
    public let url: URL
    /// Percent-decoded path without the `.json` suffix, e.g. "/695398C4-…/messages"; "/" for the root.
    public let path: String
    public let hasJSONSuffix: Bool
    public let query: [String: String]
    /// The headers as the transport saw them (only those set on the URLRequest itself reach a URLProtocol on Linux).
    public let headers: [String: String]
    /// From `httpBody`, drained from `httpBodyStream`, taken from an upload task (on Linux) or read from the socket;
    /// nil when there was no (or an empty) body.
    public let body: Data?
    /// True when the request came from an upload task whose body no URLProtocol can see (Darwin): `body` is nil
    /// although the learner's code sent one.
    public let uploadBodyHidden: Bool
    /// True when a download task sent it. On Linux, swift-corelibs-foundation hands a download task that a URLProtocol
    /// serves no file (its handler gets a nil location and no error), so the answer never reaches the learner's code.
    public let fromDownloadTask: Bool
    /// When the emulator received the request (its answer follows after `latency`).
    public let receivedAt: Date
    /// What the emulator answered; for a transport fault, status 0 and the error.
    public let response: EmulatorResponse
    /// The client cancelled the task (or left) before `response` was delivered: the service answered — and changed
    /// its state — but the client never received it.
    public internal(set) var wasCancelled = false
    /// The entry's number in its emulator's log (0 for stray requests).
    let number: Int

    init(_ request: ServiceRequest, response: EmulatorResponse, number: Int = 0) {
        method = request.method
        httpMethod = request.httpMethod
        url = request.url
        path = request.path
        hasJSONSuffix = request.hasJSONSuffix
        query = request.query
        headers = request.headers
        body = request.body
        uploadBodyHidden = request.uploadBodyHidden
        fromDownloadTask = request.fromDownloadTask
        receivedAt = request.receivedAt
        self.response = response
        self.number = number
    }

    /// The body as JSON; nil when there is none or it is not valid JSON.
    public var bodyJSON: JSONValue? { body.flatMap { try? JSONValue(data: $0) } }

    /// The body as UTF-8 text.
    public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { ServiceRequest.header(name, in: headers) }

    /// One line for failure messages: `PUT /abc.json  body: {"title":"x"}  -> 200`.
    public var summary: String {
        var line = method == httpMethod ? method : "\(method) (sent as \(httpMethod) with an override)"
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        line += " " + (components?.percentEncodedPath ?? path)
        if let query = components?.percentEncodedQuery { line += "?" + query }
        if let json = bodyJSON {
            line += "  body: " + Self.shortened(json.description)
        } else if let text = bodyText {
            line += "  body (not JSON): " + Self.shortened(text.debugDescription)
        } else if body != nil {
            line += "  body: \(body!.count) bytes, not UTF-8"
        } else if uploadBodyHidden {
            line += "  body: sent by an upload task, which a URLProtocol cannot see"
        }
        if wasCancelled {
            line += "  -> cancelled by the client before the \(response.statusCode) answer arrived"
        } else if let error = response.transportError {
            line += "  -> transport error URLError(\(error.code.rawValue))"
        } else {
            line += "  -> \(response.statusCode)"
        }
        return line
    }

    private static func shortened(_ text: String) -> String {
        text.count <= 300 ? text : text.prefix(300) + "… (\(text.count) characters)"
    }
}

extension RecordedRequest: CustomStringConvertible {
    public var description: String { summary }
}
