import Foundation

extension EmulatorResponse {
    /// Headers of every Firebase JSON answer, success or error [SAVE]. Content-Length is added per body.
    static let jsonHeaders = [
        "Content-Type": "application/json; charset=utf-8",
        "Access-Control-Allow-Origin": "*",
        "Cache-Control": "no-cache",
    ]

    static func json(_ value: JSONValue, status: Int = 200, pretty: Bool = false) -> EmulatorResponse {
        // Pretty output ends with a newline, as Firebase's pretty error bodies do.
        let text = pretty ? value.firebaseText(pretty: true) + "\n" : value.firebaseText()
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

    /// A browser's CORS preflight (`OPTIONS` before a PUT/PATCH with a JSON body): allowed from any origin, so a web
    /// app can write as it can on Firebase. Firebase does not document its preflight answer; these headers are the
    /// usual permissive ones (inferred), echoing the headers the browser asks for.
    static func corsPreflight(_ request: ServiceRequest) -> EmulatorResponse {
        var headers = jsonHeaders
        headers["Access-Control-Allow-Methods"] = "GET, PUT, POST, PATCH, DELETE, OPTIONS"
        headers["Access-Control-Allow-Headers"] = request.header("Access-Control-Request-Headers") ?? "Content-Type"
        headers["Access-Control-Max-Age"] = "3600"
        return raw(status: 200, headers: headers, body: Data())
    }

    /// `print=silent`: 204 and nothing else.
    static func noContent() -> EmulatorResponse {
        raw(status: 204, headers: jsonHeaders, body: Data())
    }
}

extension JSONValue {
    /// JSON as Firebase writes it: keys in Firebase's order, those that are 32-bit integers first, numerically
    /// (`{"9":…,"10":…,"-x":…,"A":…}`), as its `orderBy="$key"` sorts them [RETR "How Data is Ordered"].
    func firebaseText(pretty: Bool = false) -> String {
        text(pretty: pretty, keysOrderedBy: QueryOrder.keyPrecedes)
    }
}

extension Fault {
    /// 401 `Permission denied`: what expired test-mode rules or a bad token give.
    public static let permissionDenied = Fault.httpError(status: 401, message: ErrorText.permissionDenied)
    /// 500 `An internal error occurred`.
    public static let internalError = Fault.httpError(status: 500, message: ErrorText.internalError)
}
