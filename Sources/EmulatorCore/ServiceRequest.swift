import Foundation

/// One HTTP request as every emulated service reads it, whichever transport brought it: effective method, the
/// percent-decoded path and its segments, an optional `.json` format suffix, query and body.
public struct ServiceRequest {
    /// The method as sent.
    public let httpMethod: String
    /// After `X-HTTP-Method-Override` (header or query), which Firebase and other REST APIs honour on POST.
    public let method: String
    public let url: URL
    /// Percent-decoded, without a `.json` suffix: "/a/b", "/" for the root.
    public let path: String
    /// The path's segments; nil when one cannot be percent-decoded.
    public let segments: [String]?
    /// The path ended in `.json` (Firebase requires it; Rails-style APIs accept it).
    public let hasJSONSuffix: Bool
    public let query: [String: String]
    public let headers: [String: String]
    /// nil when the request has no body or an empty one.
    public let body: Data?
    /// The request came from an upload task whose body a URLProtocol cannot see (Darwin); `body` is then nil.
    public let uploadBodyHidden: Bool
    /// The request came from a download task (`downloadTask(with:)`, async `download(from:)`), served by the URLProtocol.
    public internal(set) var fromDownloadTask = false
    /// When the emulator received it.
    public let receivedAt: Date
    /// A GET or a HEAD: it reads and changes nothing (anything else is a write).
    public var readsOnly: Bool { method == "GET" || method == "HEAD" }

    public init(method httpMethod: String, url: URL, headers: [String: String], body: Data?,
                uploadBodyHidden: Bool = false, receivedAt: Date = Date()) {
        self.url = url
        self.headers = headers
        self.body = body?.isEmpty == true ? nil : body
        self.uploadBodyHidden = uploadBodyHidden
        self.receivedAt = receivedAt
        // As sent: methods are case-sensitive (RFC 9110 §9.1), so a real server refuses "put" and so does the emulator.
        self.httpMethod = httpMethod

        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        self.query = query

        let override = Self.header("X-HTTP-Method-Override", in: headers) ?? query["x-http-method-override"]
        method = self.httpMethod == "POST" ? (override?.uppercased() ?? self.httpMethod) : self.httpMethod

        // The encoded path keeps a trailing slash and escapes, which `URL.path` may drop or decode.
        let encodedPath = components?.percentEncodedPath ?? url.path
        hasJSONSuffix = encodedPath.hasSuffix(".json")
        let withoutSuffix = hasJSONSuffix ? String(encodedPath.dropLast(5)) : encodedPath
        let decoded = withoutSuffix.split(separator: "/").map { $0.removingPercentEncoding }
        segments = decoded.contains(where: { $0 == nil }) ? nil : decoded.map { $0! }
        path = "/" + (segments ?? withoutSuffix.split(separator: "/").map(String.init)).joined(separator: "/")
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { Self.header(name, in: headers) }

    /// Header names are case-insensitive.
    public static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { HeaderName.equal($0.key, name) }?.value
    }
}
