import Foundation
import XCTest
import FirebaseEmulator
import FirebaseAuthEmulator
import LabTestSupport
import LabSupport
import Lesson9

/// What the emulators saw and what a call gave, in words for failure messages: tokens are named ("ID token 2"),
/// never printed (they are long, and a message is no place for a credential).
extension Lesson9TestCase {
    /// Every token the Auth emulator handed out in this test, in order, with its name.
    var tokenNames: [(token: String, name: String)] {
        var names: [(String, String)] = []
        var ids = 0, refreshes = 0
        for request in setupAuthRequests + auth.requests {
            let answer = request.response.bodyJSON
            if let id = answer?["idToken"].stringValue ?? answer?["id_token"].stringValue, !names.contains(where: { $0.0 == id }) {
                ids += 1
                names.append((id, "ID token \(ids)"))
            }
            if let refresh = answer?["refreshToken"].stringValue ?? answer?["refresh_token"].stringValue,
               !names.contains(where: { $0.0 == refresh }) {
                refreshes += 1
                names.append((refresh, refreshes == 1 ? "the refresh token" : "refresh token \(refreshes)"))
            }
        }
        return names
    }

    /// `value` with every token and password replaced by its name.
    func masked(_ value: String) -> String {
        var text = value
        for (token, name) in tokenNames {
            text = text.replacingOccurrences(of: token, with: "<\(name)>")
            if let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != token {
                text = text.replacingOccurrences(of: encoded, with: "<\(name), percent-encoded>")
            }
        }
        for password in [Self.adaPassword, Self.benPassword] { text = text.replacingOccurrences(of: password, with: "<the password>") }
        return text
    }

    /// `GET /users/u1/name.json?auth=<ID token 1> -> 401 Auth token is expired`
    func brief(_ request: RecordedRequest) -> String {
        var line = "\(request.method) \(request.path)\(request.hasJSONSuffix ? ".json" : "")"
        if let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.query { line += "?" + query }
        line = masked(line)
        let status = request.response.statusCode
        line += " -> \(status)"
        if !(200...299).contains(status), let answer = request.response.bodyJSON {
            line += " " + (answer["error"].stringValue ?? answer["error"]["message"].stringValue ?? "")
        }
        return line
    }

    var databaseTraffic: String {
        let requests = firebase.requests
        if requests.isEmpty { return "the database received no request" }
        return "the database received \(requests.count): " + requests.prefix(4).map(brief).joined(separator: "; ") + (requests.count > 4 ? "; …" : "")
    }

    var refreshRequests: [RecordedRequest] { auth.requests.filter { $0.path.hasSuffix("/token") } }

    /// Why the client refreshed when no token had expired, read from the database's answers: a request without
    /// `auth=` (refused by the rules), or a 401 Permission denied taken for an expired token. Nil when it did not
    /// refresh, or no answer it had was a refusal by the rules.
    var needlessRefresh: String? {
        guard !refreshRequests.isEmpty else { return nil }
        let refused = firebase.requests.filter {
            $0.response.statusCode == 401 && $0.response.bodyJSON?["error"].stringValue == "Permission denied"
        }
        guard let first = refused.first else { return nil }
        if first.query["auth"] == nil {
            return """
                Its requests have no `auth=` (\(brief(first))): the rules see nobody signed in and refuse them, and a \
                refresh cannot change that. Add URLQueryItem(name: "auth", value: idToken) to every database URL; \
                a 401 Permission denied is then .permissionDenied, never a reason to refresh.
                """
        }
        return """
            The database answered \(brief(first)): that is the rules' refusal, not an expired token, and a new token \
            changes nothing. Refresh only on 401 Auth token is expired; a 401 Permission denied is .permissionDenied.
            """
    }

    var refreshTraffic: String {
        let count = refreshRequests.count
        return count == 1 ? "1 refresh" : "\(count) refreshes"
    }

    var authTraffic: String {
        let requests = auth.requests
        if requests.isEmpty { return "Auth received no request" }
        return "Auth received \(requests.count): " + requests.prefix(3).map(brief).joined(separator: "; ") + (requests.count > 3 ? "; …" : "")
    }

    /// A call's outcome in words.
    static func describe<T>(_ outcome: Result<T, Error>) -> String {
        switch outcome {
        case .success(let value): return value is Void ? "by returning, without an error" : "success (\(value))"
        case .failure(let error): return describe(error)
        }
    }

    static func describe(_ error: Error?) -> String {
        guard let error = error else { return "no error" }
        if let decoding = error as? DecodingError { return briefly(decoding) }
        guard let signInError = error as? SignInError else { return "\(type(of: error)): \(oneLine(error))" }
        switch signInError {
        case .transport(let urlError): return ".transport(URLError(\(urlError.code.rawValue)))"
        case .status(let code, let text): return ".status(\(code), \"\(text.prefix(60))\")"
        default: return "." + oneLine(signInError)
        }
    }

    /// The one request an Auth call sent; stops the test when it sent none or several.
    func theAuthRequest(of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        let requests = auth.requests
        guard requests.count == 1, let request = requests.first else {
            let signsInAgain = requests.count == 2 && requests[0].path.hasSuffix("accounts:signUp")
                && requests[1].path.hasSuffix("accounts:signInWithPassword") ? """
                 accounts:signUp already signs the new user in: its answer holds the localId, the ID token and the \
                refresh token. A sign-in after it sends the password a second time for tokens you have.
                """ : ""
            throw fail("""
                \(exercise.function) should send exactly one request to the Auth API; it sent \(requests.count) \
                (\(authTraffic); \(databaseTraffic)).\(requests.isEmpty ? unsentURL : signsInAgain) See \(exercise.reference).
                """, file: file, line: line)
        }
        return request
    }

    /// Why a call sent nothing, read from the transport error it threw: a URL that could not be sent (`UnsendableURL`:
    /// `URL(string: "accounts:signUp", relativeTo:)` reads `accounts:` as a scheme), or else a session other than the
    /// injected one (its request failed without reaching the emulator). Empty when it threw no transport error.
    var unsentURL: String {
        guard case .transport(let error)? = lastFailure as? SignInError else { return "" }
        if let why = UnsendableURL.explanation(of: error, showing: masked, colonFix: Self.colonInPath) {
            return " It threw .transport(URLError(\(error.code.rawValue))) without sending any request: \(why)"
        }
        return """
             It threw .transport(URLError(\(error.code.rawValue)))\(error.failingURL.map { " for " + masked($0.absoluteString) } ?? ""), which never reached \
            the test's emulator: it went through a session other than the injected `session` (a URLSession of its own, \
            made with URLSession(configuration:), or .shared), which cannot reach it. Send every request with \
            `session.data(for:)`.
            """
    }

    /// Lesson 9's words for a colon read as a scheme: its Auth API has one in every path.
    static let colonInPath = """
        URL(string:relativeTo:) reads the part before a colon as a scheme, so "accounts:signUp" is not relative to \
        anything. Build it with identityToolkitURL.appendingPathComponent("accounts:signUp") and the key as a URLQueryItem.
        """

    /// Why a request (or a stream) carried a refreshed ID token though nothing had expired: a refresh before
    /// every request. Nil when it carried no refreshed token, or a 401 Auth token is expired came first.
    func refreshedAhead(sent: String?) -> String? {
        guard let sent = sent, refreshRequests.contains(where: { $0.response.bodyJSON?["id_token"].stringValue == sent }),
              !firebase.requests.contains(where: { $0.response.statusCode == 401 }) else { return nil }
        return """
            a token from a refresh (\(refreshTraffic)) made before it, though nothing had expired. Send the kept ID \
            token: it is good for its hour. Refresh only when the database says so (401 Auth token is expired, or a \
            stream's auth_revoked): a refresh before every request doubles the requests and spends Secure Token's quota.
            """
    }

    /// Stops the test unless the call threw `wanted`; names the mistake from what it did instead.
    func expectFailure<T>(_ outcome: Result<T, Error>, _ wanted: SignInError, after situation: String, _ exercise: Exercise,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let error: Error
        switch outcome {
        case .success(let value):
            let signedUp = exercise.section == "9.3" && auth.requests.contains { $0.path.hasSuffix("accounts:signUp") } ? """
                 It signed the email up (POST accounts:signUp) instead: an account is made only when the user asks for \
                one (a mistyped email would get an account of its own).
                """ : ""
            throw fail("""
                \(situation), and \(exercise.function) returned \(value).\(signedUp) That is a failure: throw .\(wanted). See \
                \(exercise.reference) and §9.1.
                """, file: file, line: line)
        case .failure(let failure): error = failure
        }
        guard let got = error as? SignInError else {
            // Decoding the success's fields from a refusal's body is the usual way to get here: say so first.
            let decodedARefusal = error is DecodingError && !(auth.requests + firebase.requests).isEmpty ? """
                 A DecodingError means it read the refusal's body as if it were a success: look at the \
                status (HTTPURLResponse's statusCode) first; an answer outside 200...299 has Firebase's error body, \
                whose message says which SignInError it is.
                """ : ""
            throw fail("""
                \(situation), and \(exercise.function) threw \(Self.describe(error)): every failure is thrown as a \
                SignInError, here .\(wanted), so the app can switch over one type.\(decodedARefusal) See LESSONS.md §9.1.
                """, file: file, line: line)
        }
        guard got != wanted else { return }
        var advice = Self.advice(wanted: wanted, got: got)
        // An .auth text that is not the message Auth sent: a `try?` or a catch-all replaced its error with one of the
        // code's own, or the message was read from another field (errors[0].reason).
        if case .auth(let text) = got, let said = auth.requests.last?.response.bodyJSON?["error"]["message"].stringValue,
           !said.hasPrefix(text) {
            advice = """
                Auth answered \(said) (its error.message), and .auth("\(text.prefix(60))") is not that message: read \
                error.message of the answer's body and map it to its case. A `try?` (or a catch-all that throws an error \
                of your own) loses Auth's message: let the SignInError mapped from it out.
                """
        }
        if exercise.section == "9.2", wanted == .emailAlreadyInUse, let signIn = auth.requests.first(where: { $0.path.hasSuffix("accounts:signInWithPassword") }) {
            advice = """
                After the refusal it signed in with that email instead (\(brief(signIn))): a sign-up whose email has an \
                account is .emailAlreadyInUse, for the app to offer the sign-in; signing in behind the user's back sends \
                the password to another account's check.
                """
        }
        let sent = auth.requests + firebase.requests
        if case .transport = got, let last = sent.last, last.response.transportError == nil {
            advice = """
                Every request got an answer (the last: \(brief(last))): .transport is only for a request that gets none \
                (the URLError that session.data(for:) throws). A catch-all around your own `throw` turns every error \
                into .transport: catch URLError only, and check the status outside that do/catch.
                """
        }
        throw fail("\(situation), and \(exercise.function) threw \(Self.describe(got)); expected .\(wanted). "
                   + advice + " See \(exercise.reference) and §9.1.", file: file, line: line)
    }

    /// Why `got` is the wrong case for `wanted`, in a sentence.
    static func advice(wanted: SignInError, got: SignInError) -> String {
        switch (wanted, got) {
        case (.unknownEmail, .wrongPassword), (.wrongPassword, .unknownEmail):
            return "EMAIL_NOT_FOUND and INVALID_PASSWORD are two answers: no such account (offer to sign up), or the wrong password for an account that exists (offer to try again). Map each message to its own case."
        case (.auth(let message), .weakPassword), (.auth(let message), .emailAlreadyInUse):
            return "Only WEAK_PASSWORD and EMAIL_EXISTS are those two; any other message (\(message) here) is .auth(message), with the message as Auth sent it."
        case (.auth(let message), .wrongPassword), (.auth(let message), .unknownEmail):
            return "Only INVALID_PASSWORD and EMAIL_NOT_FOUND are those two; any other message (\(message) here) is .auth(message), with the message as Auth sent it."
        case (_, .decoding):
            return "Look at the status before decoding: a 2xx answer carries the tokens, any other an error body {\"error\": {\"message\": …}} to map to its case."
        case (.signInExpired, .auth(let message)):
            return "\(message) from the refresh means the sign-in is over: .signInExpired."
        case (_, .auth(let message)):
            return "The message \(message) has its own case: compare the code before any \" : \" detail (WEAK_PASSWORD's message goes on after it)."
        case (.weakPassword, .status), (.emailAlreadyInUse, .status), (.wrongPassword, .status), (.unknownEmail, .status):
            return "The Auth API's 400 says why in its body, {\"error\": {\"message\": …}}: decode it and map the message to its case."
        case (.permissionDenied, .signInExpired):
            return "A 401 whose error is \"Permission denied\" comes from the rules, not from an old token: refreshing cannot help. Only \"Auth token is expired\" calls for a refresh."
        case (.permissionDenied, .status):
            return "401 \"Permission denied\" is the rules' refusal, with its own case."
        case (.permissionDenied, .notSignedIn):
            return "The request carried Ada's ID token: she is signed in, and the rules refused this. .notSignedIn is only for a call made while nobody is signed in (nothing is sent); 401 \"Permission denied\" is .permissionDenied."

        case (.signInExpired, .status):
            return "A refused refresh (400 INVALID_REFRESH_TOKEN), or a 401 for a token refreshed a moment ago, means the sign-in is over: .signInExpired."
        case (.notSignedIn, _):
            return "With nobody signed in there is no token: throw .notSignedIn before sending anything."
        default:
            return "Map each answer to its own case (the table in §9.1)."
        }
    }
}
