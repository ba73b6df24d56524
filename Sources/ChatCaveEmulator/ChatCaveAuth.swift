import Foundation

/// HTTP Basic authentication as ChatCave checks it on every request (RFC 7617): `Authorization: Basic
/// base64(user:password)` for a known user. A refusal is a 401 with a JSON body and deliberately no
/// `WWW-Authenticate` header: with one, URLSession on Linux (Swift 6.3.1) never calls the completion handler.
enum ChatCaveAuth {
    /// The signed-in user, or why the request is refused.
    static func user(of request: ServiceRequest, users: [String: String]) -> Result<String, Refusal> {
        if request.url.user != nil || request.url.password != nil {
            return .failure(Refusal("credentials in the URL are refused: they end up in logs and histories; send them in the Authorization header"))
        }
        guard let header = request.header("Authorization") else {
            return .failure(Refusal("this request has no Authorization header; every ChatCave request needs `Authorization: Basic <base64 of user:password>`"))
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else {
            return .failure(Refusal("the Authorization header must use the Basic scheme: `Basic <base64 of user:password>`"))
        }
        guard let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else {
            return .failure(Refusal("the Basic credentials are not base64 of `user:password`"))
        }
        let user = String(text[..<colon])
        let password = String(text[text.index(after: colon)...])
        guard let expected = users[user], expected == password else {
            return .failure(Refusal("wrong user name or password"))
        }
        return .success(user)
    }

    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
