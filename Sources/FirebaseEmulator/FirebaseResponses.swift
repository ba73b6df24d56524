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
}

extension Fault {
    /// 401 `Permission denied`: what expired test-mode rules or a bad token give.
    public static let permissionDenied = Fault.httpError(status: 401, message: ErrorText.permissionDenied)
    /// 500 `An internal error occurred`.
    public static let internalError = Fault.httpError(status: 500, message: ErrorText.internalError)
}
