import Foundation

/// GET's browser-facing parameters [REF "Query Parameters": https://firebase.google.com/docs/reference/rest/database]:
/// `callback=<name>` (JSONP) wraps the JSON in a call to that function; `download=<file name>` makes a browser save the
/// answer as a file. Firebase documents what they do, not the exact bytes: `name(<json>);` as
/// `application/javascript`, and `Content-Disposition: attachment; filename="<name>"`, are the usual forms (inferred).
enum ReadOptions {
    static func applied(to response: EmulatorResponse, _ request: ServiceRequest) -> EmulatorResponse {
        guard response.statusCode == 200, request.query["callback"] != nil || request.query["download"] != nil else {
            return response
        }
        var result = response
        if let callback = request.query["callback"], isFunctionName(callback) {
            var headers = response.headers
            headers["Content-Type"] = "application/javascript; charset=utf-8"
            var body = Data("\(callback)(".utf8)
            body.append(response.body)
            body.append(contentsOf: Array(");".utf8))
            result = .raw(status: 200, headers: headers, body: body)
        }
        if let name = request.query["download"], !name.isEmpty {
            let safe = name.filter { $0 != "\"" && $0 != "\r" && $0 != "\n" && $0 != "\\" }
            result = result.adding("Content-Disposition", "attachment; filename=\"\(safe)\"")
        }
        return result
    }

    /// A JavaScript identifier path such as `handle` or `app.handle`: nothing a page could be tricked into running.
    private static func isFunctionName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256 && name.unicodeScalars.allSatisfy { scalar in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "_$.".unicodeScalars.contains(scalar)
        }
    }
}
