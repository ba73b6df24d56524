import Foundation
import XCTest
import FirebaseEmulator
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// The checks of §9.4: `auth=` on a request, the refresh's shape, one refresh per expiry, tokens kept secret.
extension Lesson9TestCase {
    /// The one database request of a call; stops the test when it sent none or several.
    func theDatabaseRequest(file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        let requests = firebase.requests
        guard requests.count == 1, let request = requests.first else {
            let why = needlessRefresh.map { " " + $0 } ?? (requests.isEmpty ? unsentURL : "")
            throw fail("database(_:_:body:) should send exactly one request here; \(databaseTraffic).\(why) See LESSONS.md §9.4.", file: file, line: line)
        }
        return request
    }

    /// Stops the test unless `request` signs in with `?auth=<token>`, naming what it sent instead.
    func checkAuth(of request: RecordedRequest, is token: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let sent = request.query["auth"]
        if sent == token { return }
        let head = "database sent \(brief(request))"
        let message: String
        if sent == nil, let header = request.header("Authorization"), header.contains(token) {
            message = """
                \(head) with the ID token in an Authorization header. Firebase's database reads an ID token from \
                `auth=` only: `Authorization: Bearer` is for Google OAuth2 access tokens (of service accounts), and a \
                Firebase ID token there is refused. Add URLQueryItem(name: "auth", value: idToken).
                """
        } else if sent == nil, request.query["access_token"] == token {
            message = "\(head): `access_token=` is for Google OAuth2 access tokens. An ID token goes as `auth=<ID token>`."
        } else if sent == nil, request.url.absoluteString.range(of: "%3Fauth=", options: .caseInsensitive) != nil {
            message = """
                \(head): the `?auth=…` went into the path, escaped as %3F, because appendingPathComponent escapes a \
                `?` — the query is empty and the ID token sits in the path. Append only "<path>.json", and add \
                URLQueryItem(name: "auth", value: idToken) with URLComponents.
                """
        } else if sent == nil {
            message = "\(head) without `auth=` in the query: the rules see nobody signed in. Add URLQueryItem(name: \"auth\", value: idToken) to every database URL."
        } else if let sent = sent, sent != token, sent.removingPercentEncoding == token {
            message = """
                \(head): auth= is <\(tokenNames.first { $0.token == token }?.name ?? "the ID token")> percent-encoded twice, once \
                by your code and once by URLQueryItem, which encodes its value itself. Give it the token as it is.
                """
        } else if let ahead = refreshedAhead(sent: sent) {
            message = "\(head): " + ahead
        } else if tokenNames.contains(where: { $0.token == sent && $0.name.contains("refresh") }) {
            message = "\(head): the refresh token as `auth=`. The database takes the ID token; the refresh token only ever goes to Secure Token, to get a new ID token."
        } else {
            message = "\(head); expected auth=<\(tokenNames.first { $0.token == token }?.name ?? "the ID token")>: send the ID token kept now (after a refresh, the new one)."
        }
        throw fail(message + " See LESSONS.md §9.4.", file: file, line: line)
    }

    /// Stops the test unless the call succeeded after exactly one refresh.
    func checkRefreshedOnce(_ outcome: Result<Data, Error>, what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let refreshes = refreshRequests.count
        if refreshes == 0, let again = auth.requests.first(where: { $0.path.hasSuffix("accounts:signInWithPassword") || $0.path.hasSuffix("accounts:signUp") }) {
            throw fail("""
                After \(what), database signed in again with the email and password (\(brief(again))) instead of refreshing. \
                Keeping the password to sign in again keeps it in memory for as long as the app runs, and a changed \
                password ends the sign-in anyway: trade the refresh token at Secure Token (POST <secureTokenURL>?key=, \
                grant_type=refresh_token&refresh_token=<refresh token>) and forget the password once signed in. See LESSONS.md §9.4.
                """, file: file, line: line)
        }
        if case .failure(let error) = outcome, let refresh = refreshRequests.first, !(200...299).contains(refresh.response.statusCode) {
            let refreshTokens = tokenNames.filter { $0.name.contains("refresh") }.map(\.token)
            let fields = Self.formOrJSON(refresh.bodyText ?? "")
            let sent = fields["refresh_token"] ?? fields["refreshToken"] ?? ""
            if let wrong = wrongRefresh(refresh, refreshToken: refreshTokens.contains(sent) ? sent : refreshTokens.first ?? "") {
                throw fail("After \(what), database threw \(Self.describe(error)) after a refused refresh. " + wrong, file: file, line: line)
            }
        }
        let sent = firebase.requests
        if case .failure(let error) = outcome, refreshes >= 1, sent.count >= 2, let expired = sent[0].query["auth"],
           sent[1].query["auth"] == expired, sent[0].response.statusCode == 401,
           sent[1].method == sent[0].method, sent[1].path == sent[0].path {
            throw fail("""
                After \(what), database retried with the expired ID token again (\(brief(sent[1]))) and threw \
                \(Self.describe(error)), though it refreshed (\(refreshTraffic)): the retry went out before the refresh's \
                new ID token was there. `try await` the refresh and send the token it gives (a refresh left running in a \
                `Task { }` of its own is not waited for). See LESSONS.md §9.4.
                """, file: file, line: line)
        }
        if refreshes > 1 {
            throw fail("""
                After \(what), database refreshed \(refreshes) times (\(databaseTraffic)). One expiry needs one refresh: \
                while a refresh is under way, other requests wait for it and use its token, and a request whose \
                token was already replaced just retries with the new one. See LESSONS.md §9.4.
                """, file: file, line: line)
        }
        if case .failure(let error) = outcome, refreshRequests.contains(where: { $0.response.statusCode == 200 }),
           error is DecodingError || { if case .decoding? = error as? SignInError { return true } else { return false } }() {
            throw fail("""
                After \(what), the refresh answered 200 and database threw \(Self.describe(error)): the refresh's answer is \
                snake_case, {"id_token", "refresh_token", "user_id", "expires_in": "3600"…}, unlike sign-in's idToken. \
                Decode it into snake_case names (id_token) with no key strategy, or into camelCase names (idToken) with \
                .convertFromSnakeCase — not both: the strategy renames the keys before they are matched, and user_id \
                becomes userId, not userID (name it userId, or map it with CodingKeys). See LESSONS.md §9.4.
                """, file: file, line: line)
        }
        if case .failure(let error) = outcome, refreshes == 1, sent.count == 2, sent[0].response.statusCode == 401,
           let retry = sent.last {
            if tokenNames.contains(where: { $0.token == retry.query["auth"] && $0.name.contains("refresh") }) {
                throw fail("""
                    After \(what), database sent the retry with the refresh token as auth= (\(brief(retry))) and threw \
                    \(Self.describe(error)). The refresh answers two tokens: keep its id_token as the ID token (sent as \
                    auth=) and its refresh_token as the refresh token, not the other way round. See LESSONS.md §9.4.
                    """, file: file, line: line)
            }
            if (200...299).contains(retry.response.statusCode) {
                throw fail("""
                    After \(what), database refreshed and sent the retry, which was answered \
                    \(retry.response.statusCode) (\(databaseTraffic)), and still threw \(Self.describe(error)): return \
                    the retry's answer, not the first one's. See LESSONS.md §9.4.
                    """, file: file, line: line)
            }
        }
        if case .failure(let error) = outcome {
            var clock = ""
            if case .status(401, "Auth token is expired")? = error as? SignInError, refreshes == 0 {
                clock = " The server's clock decides when a token has expired, not the device's: a refresh ahead of time, by the token's exp, may help, but a 401 Auth token is expired is always a reason to refresh."
            }
            throw fail("""
                After \(what), database threw \(Self.describe(error)) (\(databaseTraffic); \(refreshTraffic)). On 401 \
                "Auth token is expired": refresh the token, then send the request again with the new one.\(clock) See LESSONS.md §9.4.
                """, file: file, line: line)
        }
        if refreshes == 0 {
            throw fail("After \(what), nothing was refreshed (\(databaseTraffic)). See LESSONS.md §9.4.", file: file, line: line)
        }
    }

    /// What is wrong with a refresh, or nil when it is `POST …/token?key=` with grant_type and the refresh token.
    func wrongRefresh(_ request: RecordedRequest, refreshToken: String) -> String? {
        let head = "The refresh was \(brief(request))"
        if request.method != "POST" || request.path != "/securetoken.googleapis.com/v1/token" {
            return "\(head): it is a POST to <secureTokenURL> itself (\(auth.secureTokenURL.path)). See LESSONS.md §9.4."
        }
        if !sendsTheAPIKey(request) { return "\(head): the Auth APIs need `?key=<apiKey>`. See LESSONS.md §9.4." }
        let type = (request.header("Content-Type") ?? "none").lowercased()
        let isJSON = (try? JSONValue(data: Data((request.bodyText ?? "").utf8)))?.objectValue != nil
        if isJSON && !type.hasPrefix("application/json") {
            return "\(head): a JSON body with Content-Type: \(type). Label it application/json: Secure Token reads a body by its Content-Type (URLSession on Apple's platforms labels an unlabelled body a form). See LESSONS.md §9.4."
        }
        if !isJSON && type.hasPrefix("application/json") {
            return "\(head): a form body labelled Content-Type: application/json, which Secure Token would read as JSON and refuse. Label it application/x-www-form-urlencoded. See LESSONS.md §9.4."
        }
        // Google's APIs read a field by its JSON name too: {"grantType", "refreshToken"} is what Firebase's iOS SDK sends.
        let fields = Self.formOrJSON(request.bodyText ?? "")
        if (fields["grant_type"] ?? fields["grantType"]) != "refresh_token" {
            return "\(head), and its body has no grant_type=refresh_token: send the form grant_type=refresh_token&refresh_token=<refresh token>. See LESSONS.md §9.4."
        }
        if (fields["refresh_token"] ?? fields["refreshToken"]) != refreshToken {
            return "\(head): its refresh_token is \(masked(fields["refresh_token"] ?? fields["refreshToken"] ?? "missing")), not the refresh token kept at sign-in. See LESSONS.md §9.4."
        }
        return nil
    }

    /// A form body (`a=1&b=2`) or a JSON object's strings, by name.
    static func formOrJSON(_ text: String) -> [String: String] {
        if let object = try? JSONValue(data: Data(text.utf8)), let fields = object.objectValue {
            return fields.compactMapValues(\.stringValue)
        }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    /// Stops the test when a token is anywhere but the `auth=` of a database URL, or was printed.
    func checkTokensKept(printed: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (token, name) in tokenNames {
            if printed.contains(token) {
                throw fail("The code printed <\(name)>. Never print a token: whoever reads the log could act as the user for an hour (a refresh token: for good). See LESSONS.md §9.1.", file: file, line: line)
            }
            for request in auth.requests + firebase.requests {
                var url = request.url.absoluteString
                if firebase.requests.contains(where: { $0.url == request.url }), let auth = request.query["auth"], auth == token, !name.contains("refresh") {
                    url = url.replacingOccurrences(of: "auth=" + token, with: "")
                }
                if url.contains(token) {
                    throw fail("\(brief(request)) has <\(name)> in its URL\(name.contains("refresh") ? "" : " outside `auth=`"). A refresh token goes in the body of the refresh only; an ID token in `auth=` of database URLs only. See LESSONS.md §9.1.", file: file, line: line)
                }
            }
        }
    }
}
