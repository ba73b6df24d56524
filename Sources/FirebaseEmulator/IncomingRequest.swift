import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLRequest taken apart the way Firebase reads it: effective method, path segments, `.json` suffix, query.
struct IncomingRequest {
    let httpMethod: String
    /// After `X-HTTP-Method-Override` (header or query), which Firebase honours on POST [REF].
    let method: String
    let url: URL
    /// Percent-decoded, without `.json`: "/a/b", "/" for the root.
    let path: String
    /// The path's segments; nil when one cannot be percent-decoded.
    let segments: [String]?
    let hasJSONSuffix: Bool
    let query: [String: String]
    let headers: [String: String]
    /// nil when the request has no body or an empty one.
    let body: Data?
    /// The request came from an upload task whose body a URLProtocol cannot see (Darwin); `body` is then nil.
    let uploadBodyHidden: Bool
    /// When the emulator received it.
    let receivedAt: Date

    /// `task`: the task that sent it, when a URLProtocol serves it; an upload task's body is taken from there.
    init(_ request: URLRequest, task: URLSessionTask? = nil) {
        url = request.url ?? URL(string: "about:blank")!
        headers = request.allHTTPHeaderFields ?? [:]
        receivedAt = Date()
        var body = Self.body(of: request)
        var hidden = false
        if body == nil {
            switch UploadTaskBody.find(in: task) {
            case .recovered(let data): body = data.isEmpty ? nil : data
            case .hidden: hidden = true
            case .notAnUploadTask: break
            }
        }
        self.body = body
        uploadBodyHidden = hidden
        httpMethod = (request.httpMethod ?? "GET").uppercased()

        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        self.query = query

        let override = Self.header("X-HTTP-Method-Override", in: headers) ?? query["x-http-method-override"]
        method = httpMethod == "POST" ? (override?.uppercased() ?? httpMethod) : httpMethod

        // The encoded path keeps a trailing slash and escapes, which `URL.path` may drop or decode.
        let encodedPath = components?.percentEncodedPath ?? url.path
        hasJSONSuffix = encodedPath.hasSuffix(".json")
        let withoutSuffix = hasJSONSuffix ? String(encodedPath.dropLast(5)) : encodedPath
        let decoded = withoutSuffix.split(separator: "/").map { $0.removingPercentEncoding }
        segments = decoded.contains(where: { $0 == nil }) ? nil : decoded.map { $0! }
        path = "/" + (segments ?? withoutSuffix.split(separator: "/").map(String.init)).joined(separator: "/")
    }

    /// Header names are case-insensitive.
    static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Linux keeps `httpBody`; Darwin moves the body into `httpBodyStream` before a URLProtocol sees it.
    static func body(of request: URLRequest) -> Data? {
        if let body = request.httpBody { return body.isEmpty ? nil : body }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data.isEmpty ? nil : data
    }
}
