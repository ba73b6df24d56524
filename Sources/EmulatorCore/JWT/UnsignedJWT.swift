import Foundation

/// JSON Web Tokens as Firebase's local emulators make and read them: `{"alg":"none","typ":"JWT"}`, claims, and an
/// empty signature (`<header>.<claims>.`), each part base64url without padding (RFC 7519, RFC 7515 §2). The Auth
/// emulator makes them; the Realtime Database emulator reads `auth=` with them. Nothing here signs or verifies: an
/// emulator token is worthless outside the emulators, by design.
public enum UnsignedJWT {
    /// Tokens longer than this are refused unread (a real ID token is about 1 KB).
    public static let maximumLength = 16 * 1024

    /// A token with these claims, in this order (the order is only cosmetic: readers compare values).
    public static func make(claims: [(String, JSONValue)]) -> String {
        let header = #"{"alg":"none","typ":"JWT"}"#
        let body = "{" + claims.map { JSONValue.string($0.0).description + ":" + $0.1.description }.joined(separator: ",") + "}"
        return base64URL(Data(header.utf8)) + "." + base64URL(Data(body.utf8)) + "."
    }

    /// The token's header and claims, both JSON objects; nil when `token` is not a JWT at all (wrong number of
    /// parts, not base64url, not JSON objects, too long). The signature is ignored, as the emulators ignore it.
    public static func decode(_ token: String) -> (header: [String: JSONValue], claims: [String: JSONValue])? {
        guard token.utf8.count <= maximumLength else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2,
            let headerData = data(base64URL: parts[0]), let claimsData = data(base64URL: parts[1]),
            let header = (try? JSONValue(data: headerData))?.objectValue,
            let claims = (try? JSONValue(data: claimsData))?.objectValue
        else { return nil }
        return (header, claims)
    }

    /// Base64url without padding (RFC 4648 §5).
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads base64url, or plain base64, with or without padding; nil when it is neither.
    public static func data<Text: StringProtocol>(base64URL text: Text) -> Data? {
        var plain = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while plain.hasSuffix("=") { plain.removeLast() }
        guard !plain.isEmpty, plain.count % 4 != 1 else { return nil }
        plain += String(repeating: "=", count: (4 - plain.count % 4) % 4)
        return Data(base64Encoded: plain)
    }
}
