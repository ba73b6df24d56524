@testable import BoardKit
import FirebaseEmulator
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Signing in on the learner's Lesson 9 code (Exercises/, or Solutions/ with LAB_SOLUTIONS=1), against the embedded
/// emulator with its sample account and rules, as `swift run board` does: it works, or it names the exercise.
final class BoardSignInTests: XCTestCase {
    private var server: EmbeddedServer!
    private var service: LessonBoardService!
    private let ada = EmbeddedServer.sampleAccount

    override func setUpWithError() throws {
        server = try EmbeddedServer()
        service = LessonBoardService(baseURL: server.baseURL, session: server.session, timeout: 2, auth: server.signInEndpoints)
    }

    /// A terminal that answers the board's questions from a script, and keeps what the board said.
    private final class ScriptedTerminal {
        var emails: [String]
        var passwords: [String]
        var said: [String] = []
        var asked: [String] = []

        init(emails: [String], passwords: [String]) {
            self.emails = emails
            self.passwords = passwords
        }

        var prompter: BoardSignIn.Prompter {
            BoardSignIn.Prompter(canAsk: true, ask: { prompt in
                self.asked.append(prompt)
                return self.emails.isEmpty ? nil : self.emails.removeFirst()
            }, askHidden: { prompt in
                self.asked.append(prompt)
                return self.passwords.isEmpty ? nil : self.passwords.removeFirst()
            }, say: { self.said.append($0) })
        }
    }

    private func options(_ arguments: [String] = []) throws -> BoardOptions {
        try BoardOptions.parse(arguments, environment: ["USER": "kim"])
    }

    private func screen(of app: BoardApp) -> String { app.screen().map(\.text).joined(separator: "\n") }

    func test_signIn_withTheSampleAccount_showsWhoIsSignedIn_orTheExerciseToFinish() throws {
        let terminal = ScriptedTerminal(emails: [ada.email], passwords: [ada.password])
        let outcome = try BoardSignIn.run(options(), service: service, prompter: terminal.prompter).get()
        XCTAssertEqual(terminal.asked, ["Email: ", "Password (not shown): "])
        XCTAssertTrue(terminal.said.first?.contains("\(ada.email), password \(ada.password)") ?? false, "the sample account is offered")
        XCTAssertFalse(terminal.said.dropFirst(2).joined().contains(ada.password), "the typed password is never shown: \(terminal.said)")
        let app = BoardApp(service: FakeBoardService(), serverLabel: "test", sender: outcome.user?.email ?? "kim", signIn: outcome)
        #if LAB_SOLUTIONS
        XCTAssertEqual(outcome.user?.email, ada.email)
        XCTAssertEqual(service.user, outcome.user)
        XCTAssertEqual(terminal.said.last, "Signed in as \(ada.email).")
        XCTAssertTrue(screen(of: app).contains("signed in as \(ada.email)"), screen(of: app))
        #else
        XCTAssertEqual(outcome, .notStarted(section: "9.3"))
        XCTAssertEqual(terminal.said.last, "sign-in: finish Lesson 9 §9.3 (signIn): until then you post as a guest, through Lesson 1.")
        XCTAssertTrue(screen(of: app).contains("sign-in: finish Lesson 9 §9.3"), screen(of: app))
        #endif
    }

    func test_aWrongPassword_showsTheLearnersError_andAsksAgain() throws {
        let terminal = ScriptedTerminal(emails: [ada.email, ada.email], passwords: ["not-the-password", ada.password])
        let outcome = try BoardSignIn.run(options(), service: service, prompter: terminal.prompter).get()
        #if LAB_SOLUTIONS
        XCTAssertTrue(terminal.said.contains("sign-in: your code threw SignInError.wrongPassword — Lesson 9 §9.3. Try again, "
            + "or enter no email to go on as a guest."), "\(terminal.said)")
        XCTAssertEqual(outcome.user?.email, ada.email, "the second try signs in")
        #else
        XCTAssertEqual(outcome, .notStarted(section: "9.3"), "a stub is not asked twice")
        #endif
    }

    func test_noEmail_goesOnAsAGuest() throws {
        let terminal = ScriptedTerminal(emails: [""], passwords: [])
        XCTAssertEqual(try BoardSignIn.run(options(), service: service, prompter: terminal.prompter).get(), .guest)
        XCTAssertEqual(terminal.asked, ["Email: "], "no password asked for")
    }

    /// Given on the command line, a refused sign-in ends the board with the learner's error (a stub's section).
    func test_aWrongPasswordOnTheCommandLine_isAFailure() throws {
        let terminal = ScriptedTerminal(emails: [], passwords: [])
        let options = try self.options(["--list", "--email", ada.email, "--password", "not-the-password"])
        let result = BoardSignIn.run(options, service: service, prompter: terminal.prompter)
        XCTAssertEqual(terminal.asked, [], "nothing asked: the command line said it all")
        guard case .failure(let failure) = result else { return XCTFail("signed in with a wrong password: \(result)") }
        #if LAB_SOLUTIONS
        XCTAssertEqual(failure.statusText, "sign-in: your code threw SignInError.wrongPassword — Lesson 9 §9.3")
        #else
        XCTAssertEqual(failure.statusText, "sign-in: finish Lesson 9 §9.3 (signIn)")
        #endif
    }

    private func waitUntilIdle(_ app: BoardApp, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while app.busy != nil, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertNil(app.busy, "the board still waits after 5 s", file: file, line: line)
    }

    /// The messages the server holds in the sample's "REST APIs" thread, by text.
    private var storedMessages: [String: [String: JSONValue]] {
        let messages = server.emulator.value(at: "\(Sample.restAPIs.identifier)/messages").objectValue ?? [:]
        return Dictionary(messages.values.compactMap { message in
            message.objectValue.flatMap { fields in fields["text"]?.stringValue.map { ($0, fields) } }
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Signed in, a post goes through the learner's `database("POST", …)` with the user's uid, as the rules require;
    /// a refusal (401) is said with Lesson 9's section.
    func test_signedIn_postsAsTheUser_andARefusalSaysSo() throws {
        let signedIn = BoardSignIn.wait { self.service.signIn(email: self.ada.email, password: self.ada.password, completion: $0) }
        guard case .success(let user) = signedIn else {
            #if LAB_SOLUTIONS
            XCTFail("the solutions' signIn failed: \(signedIn)")
            #endif
            return
        }
        let app = BoardApp(service: service, serverLabel: "test", sender: user.email, signIn: .signedIn(user))
        app.start()
        waitUntilIdle(app)
        guard let index = app.threads.firstIndex(where: { $0.title == "REST APIs" }) else { return XCTFail(screen(of: app)) }
        (0..<index).forEach { _ in app.handle(.down) }
        app.handle(.enter)
        app.handle(.character("p"))
        "Posted as Ada".forEach { app.handle(.character($0)) }
        app.handle(.enter)
        waitUntilIdle(app)
        XCTAssertEqual(app.status.text, "posted as \(ada.email) with your database(\"POST\") (Lesson 9)")
        let stored = storedMessages["Posted as Ada"]
        XCTAssertEqual(stored?["uid"]?.stringValue, user.userID, "the post carries its author's uid: \(storedMessages)")
        XCTAssertEqual(stored?["sender"]?.stringValue, ada.email)
        XCTAssertTrue(screen(of: app).contains("\(ada.email) · "), screen(of: app))

        server.emulator.inject(.permissionDenied)
        app.handle(.character("p"))
        "Refused".forEach { app.handle(.character($0)) }
        app.handle(.enter)
        waitUntilIdle(app)
        XCTAssertEqual(app.status.text, "post as you: the server answered 401 Permission denied — Lesson 9 §9.4")
        XCTAssertTrue(app.status.isError)
    }

    /// The board's rules (Lesson 9's, on its layout): a signed-in user's message carries their own uid; a guest's
    /// (Lesson 1's POST, no token) carries none.
    func test_rules_letEachUserPostOnlyAsThemselves() throws {
        func post(_ body: String, token: String? = nil) -> Int {
            var url = server.baseURL.appendingPathComponent("\(Sample.restAPIs.identifier)/messages.json").absoluteString
            if let token { url += "?auth=\(token)" }
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            return server.emulator.handle(request).statusCode
        }
        var signIn = URLRequest(url: URL(string: server.signInEndpoints.identityToolkitURL.absoluteString
            + "accounts:signInWithPassword?key=test")!)
        signIn.httpMethod = "POST"
        signIn.httpBody = Data(#"{"email":"\#(ada.email)","password":"\#(ada.password)","returnSecureToken":true}"#.utf8)
        let answer = BoardSignIn.wait { finish in
            self.server.session.dataTask(with: signIn) { data, _, _ in finish(data ?? Data()) }.resume()
        }
        let fields = try JSONValue(data: answer).objectValue
        let token = try XCTUnwrap(fields?["idToken"]?.stringValue), uid = try XCTUnwrap(fields?["localId"]?.stringValue)

        let message = #""sender":"Ada","text":"Hi","timestamp":815300000"#
        XCTAssertEqual(post("{\(message)}"), 200, "a guest's post, as Lesson 1 sends it")
        XCTAssertEqual(post("{\(message),\"uid\":\"\(uid)\"}"), 401, "a uid without the token that proves it")
        XCTAssertEqual(post("{\(message),\"uid\":\"someone-else\"}", token: token), 401, "another user's uid")
        XCTAssertEqual(post("{\(message)}", token: token), 401, "signed in, a post carries its author's uid")
        XCTAssertEqual(post("{\(message),\"uid\":\"\(uid)\"}", token: token), 200)
    }
}
