import Foundation
import XCTest
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.3: `signIn(email:password:)` POSTs to `accounts:signInWithPassword?key=`, keeps and returns the
/// user's id and tokens, and tells a wrong password from an unknown email.
final class ForumSignInTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.signIn

    // MARK: The request

    func test_signIn_postsToSignInWithPasswordWithTheKey() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        _ = try signIn()
        let request = try theAuthRequest(of: exercise)
        if let wrong = wrongAuthRequest(request, operation: "accounts:signInWithPassword", exercise) { XCTFail(wrong) }
    }

    func test_signIn_bodyIsJSONWithEmailAndPassword() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        _ = try signIn()
        let request = try theAuthRequest(of: exercise)
        if let wrong = wrongSignInBody(request, email: Self.adaEmail, exercise) { XCTFail(wrong) }
    }

    func test_signIn_passwordNeverInAURLOrPrinted() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        let printed = try captureOutput { _ = try signIn() }
        try checkPasswordKept(secret: Self.adaPassword, printed: printed, exercise)
    }

    func test_signIn_passwordWithSpacesAtItsEnds_isSentAsTyped() throws {
        let password = "  difference engine  "   // spaces are characters of a password like any other
        try makeAccount(Self.benEmail, password)
        let outcome = try signIn(Self.benEmail, password)
        guard case .failure = outcome else { return }
        let sent = auth.requests.last?.bodyJSON?["password"].stringValue
        guard let sent = sent, sent != password else { return }   // the other tests say what else is wrong
        throw fail("""
            Ben's password begins and ends with two spaces (\(password.count) characters); signIn sent one of \
            \(sent.count) characters\(sent == password.trimmingCharacters(in: .whitespacesAndNewlines) ? ", the spaces at its ends cut off" : ""), \
            and Auth refused it (\(Self.describe(outcome))). Send the password exactly as typed: trimming (or changing) \
            it sends another password than the one the account was made with. (Trimming the email is fine: an address \
            has no spaces.) See \(exercise.reference).
            """)
    }

    // MARK: The user

    func test_signIn_returnsTheUsersIDAndTokens() throws {
        let uid = try makeAccount(Self.adaEmail, Self.adaPassword)
        let outcome = try signIn()
        try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise)
        XCTAssertEqual(try? outcome.get().userID, uid, "signIn returned the user id \((try? outcome.get().userID) ?? "?"); Ada's account is \(uid): `localId` in the answer. See \(exercise.reference).")
    }

    func test_signIn_keepsTheCredentials() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        let forum = self.forum!
        let outcome = try outcomeKeptOnReturn(of: "signIn", exercise) {
            try await forum.signIn(email: Self.adaEmail, password: Self.adaPassword)
        } ?? signIn(settle: false)
        guard case .success(let returned) = outcome else { return try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise) }
        XCTAssertEqual(forum.credentials, returned, """
            After signIn returned \(returned), `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"): keep what \
            you return. See \(exercise.reference).
            """)
    }

    // MARK: What it throws

    func test_signIn_wrongPassword_throwsWrongPassword() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        let outcome = try signIn(Self.adaEmail, Self.benPassword)
        try expectFailure(outcome, .wrongPassword, after: "Auth answered 400 INVALID_PASSWORD", exercise)
        try checkRefusalSentOnce("Auth answered 400 INVALID_PASSWORD", exercise)
    }

    func test_signIn_unknownEmail_throwsUnknownEmail() throws {
        let outcome = try signIn(Self.benEmail, Self.benPassword)
        try expectFailure(outcome, .unknownEmail, after: "Auth answered 400 EMAIL_NOT_FOUND (\(Self.benEmail) has no account)", exercise)
    }

    func test_signIn_invalidLoginCredentials_isNotAnUnknownEmail() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        auth.withService { $0.improvedEmailPrivacy = true }  // email enumeration protection: one message for both mistakes
        let outcome = try signIn(Self.adaEmail, Self.benPassword)
        let error = outcome.error as? SignInError
        if error == .wrongPassword || error == .auth("INVALID_LOGIN_CREDENTIALS") { return }
        throw fail("""
            With email enumeration protection on (new Firebase projects have it), Auth answered Ada's sign-in with a wrong \
            password 400 INVALID_LOGIN_CREDENTIALS, and signIn \(Self.describe(outcome)). That message does not say \
            which of the two was wrong — on purpose, so that nobody can find out who has an account: it is \
            .auth("INVALID_LOGIN_CREDENTIALS") (any other message: .auth(message)), or at most .wrongPassword ("check \
            your email and password"); never .unknownEmail, which tells the user the address has no account. See \(exercise.reference).
            """)
    }

    func test_signIn_otherMessage_throwsAuthWithTheMessage() throws {
        let outcome = try signIn("ada.example.com", Self.adaPassword)
        try expectFailure(outcome, .auth("INVALID_EMAIL"), after: "Auth answered 400 INVALID_EMAIL (\"ada.example.com\" is no email address)", exercise)
    }

    func test_signIn_lostConnection_throwsTransport() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        for _ in 0..<3 { auth.inject(.transportError(.networkConnectionLost)) }  // a client may try again once
        let outcome = try signIn()
        try expectTransport(outcome, after: "The connection was lost before Auth answered", exercise)
    }

    func test_signIn_failure_keepsNoCredentials() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        _ = try signIn(Self.adaEmail, Self.benPassword)
        XCTAssertNil(forum.credentials, """
            After a sign-in refused with INVALID_PASSWORD, `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"): \
            a refused sign-in signs nobody in. See \(exercise.reference).
            """)
    }

    func test_signIn_failureWhileSignedIn_leavesTheCredentialsAsTheyWere() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        let first = try signIn()
        guard case .success(let ada) = first else {
            return try checkCredentials(first, answeredBy: try theAuthRequest(of: exercise), exercise)
        }
        _ = try signIn(Self.adaEmail, Self.benPassword)
        XCTAssertEqual(forum.credentials, ada, """
            Ada was signed in; a second sign-in refused with INVALID_PASSWORD left `credentials` \
            \(forum.credentials.map { "\($0)" } ?? "nil"). A refused sign-in leaves the credentials as they were: keep new \
            ones only from a 2xx answer, and change nothing before. See \(exercise.reference).
            """)
    }

    func test_signIn_asAnotherUser_keepsTheNewUsersCredentials() throws {
        try makeAccount(Self.adaEmail, Self.adaPassword)
        let benID = try makeAccount(Self.benEmail, Self.benPassword)
        guard case .success = try signIn() else { return }   // Ada's own sign-in: the tests above say what is wrong
        auth.clearRequests()
        let outcome = try signIn(Self.benEmail, Self.benPassword)
        guard case .success(let ben) = outcome else {
            return try checkCredentials(outcome, answeredBy: try theAuthRequest(of: exercise), exercise)
        }
        if ben.userID != benID {
            throw fail("""
                Ada was signed in, and Ben signed in on the same device without signing out first: signIn returned \
                \(ben), user \(ben.userID), not Ben's (\(benID))\(auth.requests.isEmpty ? ", without asking Auth" : ""). \
                A sign-in always asks Auth, whoever is signed in, and returns the answer's credentials: someone already \
                signed in is no reason to skip it ("already logged in"), and a password is checked only by Auth. See \
                \(exercise.reference).
                """)
        }
        XCTAssertEqual(forum.credentials, ben, """
            Ada was signed in, and Ben signed in on the same device without signing out first; signIn returned Ben's \
            credentials (user \(benID)) but `credentials` is \(forum.credentials.map { "\($0)" } ?? "nil"). A successful \
            sign-in replaces whoever was signed in: keep every 2xx answer's credentials, not only when nobody is signed \
            in. See \(exercise.reference).
            """)
    }
}
