import Foundation
import XCTest
import FirebaseEmulator
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// The checks of §9.2 and §9.3: the Auth request's shape, its body, the credentials, and the password kept secret.
extension Lesson9TestCase {
    /// What is wrong with a sign-up or sign-in request, or nil when it is `POST …/v1/<operation>?key=<apiKey>`.
    func wrongAuthRequest(_ request: RecordedRequest, operation: String, _ exercise: Exercise) -> String? {
        let sent = brief(request)
        let endpoint = "/identitytoolkit.googleapis.com/v1/\(operation)"
        if request.method != "POST" {
            return "\(exercise.function) sent \(sent). Signing in is a POST: it sends the email and password in the body. See \(exercise.reference)."
        }
        if request.url.absoluteString.range(of: "%3F", options: .caseInsensitive) != nil {
            return """
                \(exercise.function) POSTed to \(masked(request.url.absoluteString)): the `?key=…` went into the path, escaped \
                as %3F, because appendingPathComponent escapes a `?` (the path then names no endpoint). Append only \
                "\(operation)", and add the key as URLQueryItem(name: "key", value: apiKey) with URLComponents. See \(exercise.reference).
                """
        }
        // The emulator reads "v1//accounts:signUp" as "v1/accounts:signUp" (it joins empty segments); Google's
        // front end routes the path as written, so two slashes are a path no endpoint has.
        let writtenPath = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        if writtenPath.contains("//") {
            return """
                \(exercise.function) POSTed to \(writtenPath): two slashes in a row. identityToolkitURL already ends in /, \
                and "\\(identityToolkitURL)/\(operation)" adds another, so the path has an empty segment that names no \
                endpoint of Identity Toolkit (its front end does not read // as /). Use \
                identityToolkitURL.appendingPathComponent("\(operation)"), which adds exactly one: \(endpoint). See \(exercise.reference).
                """
        }
        if request.path != endpoint {
            return """
                \(exercise.function) POSTed to \(request.path). The endpoint is <identityToolkitURL>/\(operation) \
                (identityToolkitURL.appendingPathComponent("\(operation)")), here \(endpoint). See \(exercise.reference).
                """
        }
        if !sendsTheAPIKey(request) {
            return """
                \(exercise.function) sent \(sent): \(request.query["key"].map { "key=\($0)" } ?? "no key") in the query. \
                Every Auth request names the project with `?key=<apiKey>` (a URLQueryItem); without it the Auth API \
                answers 403. See \(exercise.reference).
                """
        }
        return nil
    }

    /// Whether an Auth request names the project: `?key=<apiKey>`, or the `X-Goog-Api-Key` header, which Google's
    /// APIs and the Auth emulator read as well.
    func sendsTheAPIKey(_ request: RecordedRequest) -> Bool {
        request.query["key"] == Self.apiKey || (request.query["key"] == nil && request.header("X-Goog-Api-Key") == Self.apiKey)
    }

    /// What is wrong with the body of a sign-up or sign-in, or nil when it is JSON with the email and the password.
    func wrongSignInBody(_ request: RecordedRequest, email: String, _ exercise: Exercise) -> String? {
        guard let fields = request.bodyJSON?.objectValue else {
            let interpolated = (request.bodyText ?? "").contains(Self.adaPassword) ? """
                 Ada's password has quotes and a backslash, and the body holds it as it is: built by string \
                interpolation, it is no JSON. Let JSONEncoder (or JSONSerialization) write it: they escape what needs it.
                """ : ""
            return """
                \(exercise.function)'s POST has no JSON object as its body (\(masked(request.bodyText ?? "no body"))).\(interpolated) \
                Send {"email": …, "password": …, "returnSecureToken": true}, encoded by JSONEncoder, as `httpBody`, \
                with `Content-Type: application/json`. See \(exercise.reference).
                """
        }
        if let type = request.header("Content-Type"), type.lowercased().hasPrefix("application/json") {} else {
            return """
                \(exercise.function) sent its JSON body with Content-Type: \(request.header("Content-Type") ?? "none"). Set \
                `Content-Type: application/json`: without it URLSession on Apple's platforms labels a body a form, and \
                Firebase cannot read it. See \(exercise.reference).
                """
        }
        if fields["email"]?.stringValue != email {
            return "\(exercise.function) sent the email as \(fields["email"].map { "\($0)" } ?? "nothing") (keys: \(fields.keys.sorted())); expected \"email\": \"\(email)\". See \(exercise.reference)."
        }
        if fields["password"]?.stringValue == nil {
            return "\(exercise.function)'s body has no \"password\" (keys: \(fields.keys.sorted())): the password goes in the body, under that key. See \(exercise.reference)."
        }
        // Google's REST APIs read a field by its proto name too: `return_secure_token` (a snake_case encoder) is the same field.
        let returnSecureToken = fields["returnSecureToken"] ?? fields["return_secure_token"]
        if returnSecureToken != .bool(true) && returnSecureToken?.stringValue != "true" {
            return """
                \(exercise.function)'s body has no "returnSecureToken": true (keys: \(fields.keys.sorted())). Without it \
                Firebase Auth answers no refresh token (the kit's emulator answers one anyway, as Firebase's own Auth \
                emulator does). See \(exercise.reference).
                """
        }
        return nil
    }

    /// Stops the test when a call whose request Auth refused (400) sent it again: the same answer comes back, and each
    /// try is one more failed attempt on the account.
    func checkRefusalSentOnce(_ situation: String, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let sent = auth.requests
        guard sent.count > 1, sent.allSatisfy({ $0.response.statusCode == 400 }) else { return }
        throw fail("""
            \(situation), and \(exercise.function) sent the same request \(sent.count) times (\(authTraffic)). A refusal is \
            Auth's answer, not a failure to reach it: sending it again gets the same answer, sends the password once more, \
            and counts as one more failed attempt (Firebase blocks an account after too many: TOO_MANY_ATTEMPTS_TRY_LATER). \
            Try again only when no answer came (a lost connection), if at all. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// Stops the test unless the call threw `.transport`, after the emulator failed its request as a lost connection.
    func expectTransport<T>(_ outcome: Result<T, Error>, after situation: String, _ exercise: Exercise,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        if case .failure(let error) = outcome, case .transport? = error as? SignInError { return }
        let lost = (auth.requests + firebase.requests).filter { $0.response.transportError != nil }
        if lost.count > 2 {
            throw fail("""
                \(situation), and \(exercise.function) sent it \(lost.count) times, each time the connection was lost, \
                and then \(Self.describe(outcome)). Trying again once may be fine; trying for as long as the connection \
                is lost never tells the user and keeps the radio on: after at most one more try, throw \
                .transport(URLError). See \(exercise.reference) and §9.1.
                """, file: file, line: line)
        }
        let did: String
        switch outcome {
        case .success(let value): did = "returned \(value)"
        case .failure(let error as URLError): did = "threw the URLError itself (code \(error.code.rawValue))"
        case .failure(let error): did = "threw \(Self.describe(error))"
        }
        throw fail("""
            \(situation), and \(exercise.function) \(did); expected .transport(URLError). Catch the URLError that \
            `session.data(for:)` throws and throw SignInError.transport(error), so the app switches over one type. See \
            \(exercise.reference) and §9.1.
            """, file: file, line: line)
    }

    /// Stops the test unless the call succeeded with exactly the user id and tokens Auth answered.
    func checkCredentials(_ outcome: Result<Credentials, Error>, answeredBy request: RecordedRequest, _ exercise: Exercise,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = request.response.bodyJSON
        guard case .success(let got) = outcome else {
            let decoding = (outcome.error as? SignInError).map { if case .decoding = $0 { return true } else { return false } } ?? false
                || outcome.error is DecodingError
            // Sign-in's answer has "registered": true: a [String: String] cast fails on it, where sign-up's passes.
            let fields = answer?.objectValue ?? [:]
            let notStrings = fields.filter { $0.value.stringValue == nil }.keys.sorted()
            let notStringsText = notStrings.map { "\"\($0)\": \(fields[$0].map { "\($0)" } ?? "")" }.joined(separator: ", ")
            let mixed = decoding && !notStrings.isEmpty ? """
                 Not every field is a string: the answer also has \(notStringsText), so a [String: String] cast (or a \
                struct that reads it as a String) fails on it; read the three fields you need, as strings.
                """ : ""
            let asStrings = """
                 as strings (expiresIn is a string too, "3600": leave out the fields you do not use), under the names the \
                answer spells them, localId, idToken and refreshToken (a property is matched by its exact name: localID or \
                userId is no key of the answer; rename with CodingKeys)
                """
            throw fail("""
                Auth answered \(request.response.statusCode) with the user's localId, idToken and refreshToken, and \
                \(exercise.function) threw \(Self.describe(outcome.error)).\(mixed) Decode those three fields of the answer\
                \(decoding ? asStrings : ""). \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        let expected = Credentials(userID: answer?["localId"].stringValue ?? "", idToken: answer?["idToken"].stringValue ?? "",
                                   refreshToken: answer?["refreshToken"].stringValue ?? "")
        guard got != expected else { return }
        var wrong: [String] = []
        if got.userID != expected.userID { wrong.append("userID is \(masked(got.userID)), the answer's localId \(expected.userID)") }
        if got.idToken != expected.idToken { wrong.append("idToken is \(got.idToken.isEmpty ? "empty" : "<" + masked(got.idToken) + ">"), not the answer's idToken") }
        if got.refreshToken != expected.refreshToken { wrong.append("refreshToken is \(got.refreshToken.isEmpty ? "empty" : masked(got.refreshToken)), not the answer's refreshToken") }
        throw fail("\(exercise.function) returned the wrong credentials: \(wrong.joined(separator: "; ")). Each comes from the answer's field of that name. See \(exercise.reference).",
                   file: file, line: line)
    }

    /// Stops the test when `secret` is in any URL sent (to either emulator, or anywhere else) or in `printed`.
    func checkPasswordKept(secret: String, printed: String, _ exercise: Exercise,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        let urls = (auth.requests + firebase.requests).map(\.url.absoluteString)
            + Self.requestsThroughSharedSession.compactMap { $0.url?.absoluteString }
        if urls.contains(where: { $0.contains(secret) || $0.contains(encoded) }) {
            throw fail("""
                \(exercise.function) put the password in a URL. URLs end up in server logs, proxies and crash reports: \
                the password goes in the POST's body, and nowhere else. See LESSONS.md §9.1 and \(exercise.reference).
                """, file: file, line: line)
        }
        if printed.contains(secret) {
            throw fail("""
                \(exercise.function) printed the password (in what it wrote to the output). Never print a password or \
                a token: the output ends up in logs. Print the email, or nothing. See LESSONS.md §9.1.
                """, file: file, line: line)
        }
        if let (_, name) = tokenNames.first(where: { printed.contains($0.token) }) {
            throw fail("""
                \(exercise.function) printed <\(name)> (in what it wrote to the output, e.g. the answer's JSON). Never \
                print a token: whoever reads the log can act as the user (an ID token for an hour, a refresh token for \
                good). See LESSONS.md §9.1.
                """, file: file, line: line)
        }
    }

    /// Runs `body` with the process's standard output going to a file, and returns what was written there (and
    /// writes it to the real output too). `print` from any thread meanwhile is caught.
    func captureOutput(_ body: () throws -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lesson9-output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let handle = FileHandle(forWritingAtPath: file.path) else { try body(); return "" }
        fflush(stdout)
        let saved = dup(STDOUT_FILENO)
        dup2(handle.fileDescriptor, STDOUT_FILENO)
        var thrown: Error?
        do { try body() } catch { thrown = error }
        fflush(stdout)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        handle.closeFile()
        let printed = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        print(printed, terminator: "")
        if let error = thrown { throw error }
        return printed
    }
}
