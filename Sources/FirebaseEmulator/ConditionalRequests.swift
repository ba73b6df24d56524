import Foundation

/// Conditional requests [REF "Conditional Requests": https://firebase.google.com/docs/reference/rest/database, and
/// https://firebase.blog/posts/2017/07/introducing-conditional-rest-requests]: a GET with `X-Firebase-ETag: true`
/// answers the location's ETag in an `ETag` header; a PUT or DELETE with `if-match: <ETag>` is done only when the
/// location still has that ETag (`null_etag` when it holds nothing), else 412 with the current value and ETag.
enum ConditionalRequests {
    static let nullETag = "null_etag"

    /// An opaque tag of a stored value: equal values, equal tags. Firebase's are opaque too (base64 of a hash); the
    /// emulator's are two 64-bit FNV-1a hashes of the value's compact JSON, base64-encoded.
    static func etag(of stored: JSONValue) -> String {
        guard stored != .null else { return nullETag }
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in stored.description.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte) ^ 0x5a) &* 0x100_0000_01b3
        }
        var bytes = [UInt8]()
        for word in [first, second] { bytes += (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        return Data(bytes).base64EncodedString()
    }

    /// `X-Firebase-ETag: true`: the client asks for the ETag.
    static func wantsETag(_ request: ServiceRequest) -> Bool {
        request.header("X-Firebase-ETag")?.lowercased() == "true"
    }

    /// For a PUT or DELETE with `if-match`: nil when the write may go ahead, else the 412 answer, whose body is the
    /// current value and whose `ETag` is the current one.
    static func refusal(of request: ServiceRequest, at path: [String], tree: DataTree) -> EmulatorResponse? {
        guard let expected = request.header("if-match") else { return nil }
        let current = etag(of: tree.stored(at: path))
        guard expected != current else { return nil }
        return EmulatorResponse.json(tree.read(at: path), status: 412).adding("ETag", current)
    }

    /// Names a header of conditional requests (`X-Firebase-ETag`, `if-match`, `if-none-match`): one pass over the
    /// headers, so requests without them (nearly all) pay almost nothing.
    static func isConditional(_ request: ServiceRequest) -> Bool {
        request.headers.keys.contains { name in
            HeaderName.equal(name, "X-Firebase-ETag") || HeaderName.equal(name, "if-match") || HeaderName.equal(name, "if-none-match")
        }
    }

    /// For a GET with `if-none-match` equal to the current ETag: 304 Not Modified, no body.
    static func notModified(_ request: ServiceRequest, at path: [String], tree: DataTree) -> EmulatorResponse? {
        guard isConditional(request), let tag = request.header("if-none-match"), tag == etag(of: tree.stored(at: path)) else {
            return nil
        }
        return EmulatorResponse.raw(status: 304, headers: EmulatorResponse.jsonHeaders, body: Data()).adding("ETag", tag)
    }

    /// The ETag header on a successful answer when the request asked for it or was conditional.
    static func tagging(_ response: EmulatorResponse, _ request: ServiceRequest, at path: [String], tree: DataTree) -> EmulatorResponse {
        guard isConditional(request),
            wantsETag(request) || request.header("if-match") != nil || request.header("if-none-match") != nil
        else { return response }
        return response.adding("ETag", etag(of: tree.stored(at: path)))
    }
}

extension EmulatorResponse {
    func adding(_ header: String, _ value: String) -> EmulatorResponse {
        var headers = self.headers
        headers[header] = value
        return EmulatorResponse(statusCode: statusCode, headers: headers, body: body, transportError: transportError)
    }
}
