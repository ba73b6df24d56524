import Foundation
import XCTest
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.2: `signUp(email:password:)` POSTs email and password to Identity Toolkit's `accounts:signUp?key=`,
/// keeps and returns the new user's id and tokens, and throws the Auth errors as their own cases.
final class ForumSignUpTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.signUp

    // MARK: The request

    func test_signUp_postsToAccountsSignUpWithTheKey() throws {
        _ = try signUp()
        let request = try theAuthRequest(of: exercise)
        if let wrong = wrongAuthRequest(request, operation: "accounts:signUp", exercise) { XCTFail(wrong) }
    }

    func test_signUp_bodyIsJSONWithEmailAndPassword() throws {
        _ = try signUp()
        let request = try theAuthRequest(of: exercise)
        if let wrong = wrongSignInBody(request, email: Self.adaEmail, exercise) { XCTFail(wrong) }
    }

    func test_signUp_passwordNeverInAURLOrPrinted() throws {
        let printed = try captureOutput { _ = try signUp() }
        try checkPasswordKept(secret: Self.adaPassword, printed: printed, exercise)
    }

    func test_signUp_passwordWithSpacesAtItsEnds_isSentAsTyped() throws {
        let password = "  difference engine  "   // spaces are characters of a password like any other
        _ = try signUp(Self.benEmail, password)
        guard let sent = auth.requests.last?.bodyJSON?["password"].stringValue, sent != password else { return }
        throw fail("""
            Ben's new password begins and ends with two spaces (\(password.count) characters); signUp sent one of \
            \(sent.count) characters\(sent == password.trimmingCharacters(in: .whitespacesAndNewlines) ? ", the spaces at its ends cut off" : ""). \
            Send the password exactly as typed: an account made with a trimmed password refuses the password its user \
            typed, at the next sign-in. (Trimming the email is fine: an address has no spaces.) See \(exercise.reference).
            """)
    }

    // MARK: The new user

    func test_signUp_returnsTheNewUsersIDAndTokens() throws {
        let outcome = try signUp()
        try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise)
    }

    func test_signUp_keepsTheCredentials() throws {
        let forum = self.forum!
        let outcome = try outcomeKeptOnReturn(of: "signUp", exercise) {
            try await forum.signUp(email: Self.adaEmail, password: Self.adaPassword)
        } ?? signUp(settle: false)
        guard case .success(let returned) = outcome else { return try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise) }
        XCTAssertEqual(forum.credentials, returned, """
            After signUp returned \(returned), `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"): keep what \
            you return — every later database request needs the ID token, a refresh the refresh token. See \(exercise.reference).
            """)
    }

    func test_signUp_anotherSessionStaysSignedOut() throws {
        let outcome = try signUp()
        guard case .success = outcome else { return try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise) }
        let other = ForumSession(databaseURL: firebase.baseURL, identityToolkitURL: auth.identityToolkitURL,
                                 secureTokenURL: auth.secureTokenURL, apiKey: Self.apiKey, session: firebase.session)
        XCTAssertNil(other.credentials, """
            Ada signed up with one ForumSession, and another, new ForumSession has `credentials` \
            \(other.credentials.map { "\($0)" } ?? "nil"): the credentials are kept where every ForumSession finds them, a \
            static (or global) property or UserDefaults (a plain file, no place for tokens either). Keep them in the instance — a stored property in the state block of \
            ForumSession.swift — so each session is its own sign-in. See \(exercise.reference).
            """)
    }

    // MARK: What it throws

    func test_signUp_emailAlreadyUsed_throwsEmailAlreadyInUse() throws {
        try makeAccount(Self.adaEmail, Self.benPassword)
        let outcome = try signUp()
        try expectFailure(outcome, .emailAlreadyInUse, after: "Auth answered 400 EMAIL_EXISTS (\(Self.adaEmail) has an account)", exercise)
        try checkRefusalSentOnce("Auth answered 400 EMAIL_EXISTS (\(Self.adaEmail) has an account)", exercise)
    }

    func test_signUp_weakPassword_throwsWeakPassword() throws {
        let outcome = try signUp(Self.adaEmail, "12345")
        try expectFailure(outcome, .weakPassword, after: "Auth answered 400 \"WEAK_PASSWORD : Password should be at least 6 characters\"", exercise)
    }

    func test_signUp_otherMessage_throwsAuthWithTheWholeMessage() throws {
        let message = "OPERATION_NOT_ALLOWED : Password sign-in is disabled for this project"
        for _ in 0..<2 { auth.inject(.httpError(status: 400, message: message)) }
        let outcome = try signUp()
        let situation = "Auth answered 400 \"\(message)\" (the project has turned email sign-up off)"
        if case .failure(SignInError.auth(let text)) = outcome, text != message, message.hasPrefix(text) {
            throw fail("""
                \(situation), and signUp threw .auth("\(text)"): the code without its detail. A message with no case of \
                its own is .auth(message), the whole message as Auth sent it, detail included: cut at " : " only to \
                compare with the codes you know (§9.1). See \(exercise.reference).
                """)
        }
        try expectFailure(outcome, .auth(message), after: situation, exercise)
    }

    func test_signUp_anEmailWithAPlusAndASixCharacterPassword_signsUp() throws {
        let email = "ada+forum@example.com", password = "sesame"
        let outcome = try signUp(email, password)
        guard case .failure(let error) = outcome else { return }
        if auth.requests.isEmpty {
            throw fail("""
                signUp(email: "\(email)", password: <6 characters>) threw \(Self.describe(error)) without asking Auth. \
                Auth takes both: an address may have a + before its @ (ada+forum@example.com reaches Ada, sorted into a \
                folder), and a password needs at least 6 characters. Leave those checks to Auth (its WEAK_PASSWORD and \
                INVALID_EMAIL say what is wrong), or check exactly Auth's rules: a stricter rule of your own (8 \
                characters, an email pattern without +) refuses accounts Auth would make. See \(exercise.reference).
                """)
        }
        throw fail("""
            signUp(email: "\(email)", password: <6 characters>) threw \(Self.describe(error)) (\(authTraffic)); Auth \
            takes that address and a password of at least 6 characters: expected the new user's credentials. See \
            \(exercise.reference).
            """)
    }

    func test_signUp_lostConnection_throwsTransport() throws {
        for _ in 0..<3 { auth.inject(.transportError(.networkConnectionLost)) }  // a client may try again once
        let outcome = try signUp()
        try expectTransport(outcome, after: "The connection was lost before Auth answered", exercise)
    }

    func test_signUp_anErrorPageThatIsNotJSON_throwsStatus() throws {
        let page = "<html><body><h1>503 Service Unavailable</h1></body></html>"
        for _ in 0..<3 { auth.inject(.page(status: 503, contentType: "text/html", body: page)) }  // a client may try again once
        let outcome = try signUp()
        switch outcome {
        case .failure(SignInError.status(503, _)): return
        case .failure(SignInError.decoding(let what)):
            throw fail("""
                Google's front end answered 503 with an HTML page, and signUp threw .decoding(\(what)): it read a refusal \
                as if it were the tokens. Any status outside 2xx is a refusal, not only Auth's 400: look at the status \
                first, and throw .status(503, the page's text) when the body is not Auth's error JSON. .decoding is for a \
                2xx answer without the tokens. See \(exercise.reference) and §9.1.
                """)
        case .failure(let error as SignInError):
            throw fail("""
                Google's front end answered 503 with an HTML page, not Auth's JSON error, and signUp threw \
                \(Self.describe(error)); expected .status(503, …): a refusal whose body is not Auth's error is its status \
                and its text. See \(exercise.reference) and §9.1.
                """)
        case .failure(let error):
            throw fail("""
                Google's front end answered 503 with an HTML page, not Auth's JSON error, and signUp threw \
                \(Self.describe(error)); expected .status(503, …). Read the error body with `try?` and, when it is not \
                {"error": {"message": …}}, throw .status(code, the body as text): the decoder's own error is none of \
                SignInError's cases, and the app switches over those. See \(exercise.reference) and §9.1.
                """)
        case .success(let value):
            throw fail("Google's front end answered 503 with an HTML page, and signUp returned \(value): only a 2xx answer signs in; a 503 is .status(503, …). See \(exercise.reference) and §9.1.")
        }
    }

    func test_signUp_anAnswerWithoutTheTokens_throwsDecoding() throws {
        auth.inject(.answer(status: 200, body: #"{"kind": "identitytoolkit#SignupNewUserResponse", "email": "ada@example.com"}"#))
        let outcome = try signUp()
        if case .success(let value) = outcome {
            throw fail("""
                Auth answered 200 with no localId, idToken or refreshToken, and signUp returned \(value)\
                \(forum.credentials == nil ? "" : ", and kept it"): a user with no tokens, whose every request is refused. A 2xx \
                answer without the three fields is not a sign-in: throw .decoding(what is missing) and keep nothing \
                (optional fields filled with "" hide that). See \(exercise.reference) and §9.1.
                """)
        }
        if let error = outcome.error, !(error is SignInError) {
            throw fail("""
                Auth answered 200 with no localId, idToken or refreshToken, and signUp threw \(Self.describe(error)); \
                expected .decoding(what is missing): decode with `try?` (or catch the DecodingError) and throw \
                SignInError.decoding, so the app switches over one type. See \(exercise.reference) and §9.1.
                """)
        }
        XCTAssertNil(forum.credentials, "Auth answered 200 with no tokens, and signUp threw \(Self.describe(outcome.error)) but kept \(forum.credentials.map { "\($0)" } ?? "nil"): keep credentials only from a complete answer. See \(exercise.reference).")
    }

    func test_signUp_failure_keepsNoCredentials() throws {
        _ = try signUp(Self.adaEmail, "12345")
        XCTAssertNil(forum.credentials, """
            After a sign-up refused with WEAK_PASSWORD, `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"): a \
            refused sign-up signs nobody in. Keep credentials only from a 2xx answer. See \(exercise.reference).
            """)
    }

    func test_signUp_failureWhileSignedIn_leavesTheCredentialsAsTheyWere() throws {
        let first = try signUp(Self.benEmail, Self.benPassword)
        guard case .success(let ben) = first else {
            return try checkCredentials(first, answeredBy: try theAuthRequest(of: exercise), exercise)
        }
        guard forum.credentials == ben else { return }  // not kept at all: test_signUp_keepsTheCredentials says so
        _ = try signUp(Self.benEmail, Self.benPassword)  // his email again: EMAIL_EXISTS
        XCTAssertEqual(forum.credentials, ben, """
            Ben was signed in; a second sign-up refused with EMAIL_EXISTS left `credentials` \
            \(forum.credentials.map { "\($0)" } ?? "nil"). A refused sign-up leaves the credentials as they were: \
            whoever was signed in stays signed in. Keep new ones only from a 2xx answer, and change nothing before \
            (no sign-out first). See \(exercise.reference).
            """)
    }
}
