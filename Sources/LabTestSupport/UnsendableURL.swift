import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request was never sent because of its URL: URLError -1000 (`badURL`) or -1002 (`unsupportedURL`), made by the
/// learner's own guard or by URLSession. The cause is read from the URL the error names, in one place, so every lesson
/// names the mistake it sees (a file URL, a URL percent-encoded whole, the path alone, a guard that could not build
/// the URL) rather than the one its tests' authors expected.
public enum UnsendableURL {
    /// Whether `error` is URLError -1000 or -1002.
    public static func matches(_ error: Error) -> Bool {
        [.badURL, .unsupportedURL].contains((error as? URLError)?.code)
    }

    /// The cause and the fix, a sentence to follow "…without sending any request: "; nil for any other error.
    /// `show` writes the URL into the message (a lesson hides its tokens with it); `colonFix`, a lesson's own words
    /// for a colon read as a scheme, where its API has one in a path (`accounts:signUp`).
    public static func explanation(of error: Error, showing show: (String) -> String = { $0 },
                                   colonFix: String? = nil) -> String? {
        guard let urlError = error as? URLError, matches(urlError) else { return nil }
        let fix = "Build the URL from the base URL itself — `baseURL.appendingPathComponent(…)` cannot fail — and " +
            "percent-encode only a value you put into it."
        guard let url = urlError.failingURL else {
            // URLSession always names the URL it refused: an error without one was made by the learner's code.
            return """
                your own code made this URLError (it names no URL) and gave up before sending. If it could not build \
                the URL: with URLComponents, `url` is nil when the components have a host and a `path` that does not \
                start with "/" (the path is the whole path, from the root: `components.path = "/" + …`); \
                `URL(string:)` is nil for text that is no URL (a space in it, say). \(fix)
                """
        }
        let text = url.absoluteString
        let refused = "URLSession could not send \(show(text)) (URLError \(urlError.code.rawValue))"
        if url.isFileURL {
            return """
                \(refused): that is a file URL (`file://…`), a path on this computer, not an address on a server. \
                `URL(fileURLWithPath:)` makes one from whatever text it is given, a web address too (its `https://` \
                becomes folders of the path); `URL(string:)` reads a URL written as text. \(fix)
                """
        }
        if text.range(of: "%3A", options: .caseInsensitive) != nil || text.range(of: "%2F", options: .caseInsensitive) != nil {
            return """
                \(refused): the whole URL was percent-encoded, so it has no scheme and host any more \
                (`addingPercentEncoding(withAllowedCharacters:)` with `.urlHostAllowed` encodes the `:` and every `/`, with \
                `.urlPathAllowed` the `:`). \(fix)
                """
        }
        if let scheme = url.scheme, !["http", "https"].contains(scheme.lowercased()) {
            return """
                \(refused): it reads "\(scheme):" as the URL's scheme, and no session sends that: \
                \(colonFix ?? "the text before the first colon of a URL without `https://` is taken for its scheme. " + fix)
                """
        }
        return """
            \(refused): it has no scheme and host (`https://…`) to send to. A string of the path alone makes such \
            a URL: `URL(string: "<id>.json")` is relative to nothing, `baseURL.path` is only the path, \
            `baseURL.host` lacks the scheme, and `URLComponents(url:resolvingAgainstBaseURL: false)` of a URL made \
            `relativeTo:` keeps only its relative part. \(fix)
            """
    }
}
