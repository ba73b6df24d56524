import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import FirebaseAuthEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.4: `database(_:_:body:)` sends `auth=<ID token>` with every request; on 401 "Auth token is expired"
/// it refreshes once and retries once (a second 401 is an error, never a loop); requests that expire together
/// refresh once; the rules' 401 "Permission denied" is its own error and refreshes nothing.
final class ForumDatabaseRequestTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.database

    private func request(_ method: String, _ path: String, body: String? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> Result<Data, Error> {
        let forum = self.forum!
        return try run(exercise, file: file, line: line) { try await forum.database(method, path, body: body.map { Data($0.utf8) }) }
    }

    // MARK: Signed in: auth= on every request

    func test_database_beforeSignIn_throwsNotSignedIn_andSendsNothing() throws {
        let outcome = try request("GET", "users")
        XCTAssertTrue(firebase.requests.isEmpty, "With nobody signed in, database sent \(databaseTraffic). Without a token there is nothing to send: throw .notSignedIn first. See \(exercise.reference).")
        try expectFailure(outcome, .notSignedIn, after: "Nobody had signed in", exercise)
    }

    func test_database_sendsAuthWithTheIDToken() throws {
        let ada = try signedInAsAda(for: exercise)
        _ = try request("GET", "users/\(ada.userID)")
        // The first request's auth= before the count: a request without it is refused, and a client that refreshes
        // on that refusal sends a second one; the missing auth= is the mistake to name.
        if let first = firebase.requests.first { try checkAuth(of: first, is: ada.idToken) }
        if let first = firebase.requests.first, let ahead = refreshedAhead(sent: first.query["auth"]) {
            throw fail("database sent \(brief(first)) with " + ahead + " See \(exercise.reference).")
        }
        try checkAuth(of: try theDatabaseRequest(), is: ada.idToken)
    }

    func test_database_everyMethodCarriesAuth() throws {
        let ada = try signedInAsAda(for: exercise)
        for (method, body) in [("PUT", #""Ada""#), ("PATCH", #"{"name":"Ada L."}"#), ("POST", #""a note""#), ("DELETE", nil), ("GET", nil)] {
            _ = try request(method, method == "PATCH" ? "users/\(ada.userID)" : "users/\(ada.userID)/name", body: body)
        }
        for request in firebase.requests { try checkAuth(of: request, is: ada.idToken) }
    }

    func test_database_putWritesTheBodyAndReturnsTheAnswer() throws {
        let ada = try signedInAsAda(for: exercise)
        let outcome = try request("PUT", "users/\(ada.userID)/name", body: #""Ada""#)
        let sent = try theDatabaseRequest()
        if sent.method == "PUT", (sent.bodyText ?? "").isEmpty {
            throw fail("database(\"PUT\", \"users/<Ada's uid>/name\", body: \"Ada\") sent \(brief(sent)) with no body: set request.httpBody = body, as given. See \(exercise.reference).")
        }
        guard case .success(let data) = outcome else {
            throw fail("database(\"PUT\", \"users/<Ada's uid>/name\") threw \(Self.describe(outcome.error)); \(databaseTraffic). Ada may write below /users/<her uid>. See \(exercise.reference).")
        }
        XCTAssertEqual(sent.method, "PUT", "database(\"PUT\", …) sent \(brief(sent)): send the method it is given. See \(exercise.reference).")
        XCTAssertEqual(firebase.value(at: "users/\(ada.userID)/name"), "Ada", "After database(\"PUT\", \"users/<uid>/name\", body: \"Ada\") the database holds \(firebase.value(at: "users/\(ada.userID)")) (\(brief(sent))): the URL is <databaseURL>/<path>.json and the body goes as it is. See \(exercise.reference).")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #""Ada""#, "database returned \(String(decoding: data, as: UTF8.self).prefix(80)); the answer's body was \"Ada\": return it. See \(exercise.reference).")
    }

    func test_database_patchSendsItsBody() throws {
        let ada = try signedInAsAda(for: exercise)
        let outcome = try request("PATCH", "users/\(ada.userID)", body: #"{"name":"Ada L."}"#)
        let sent = try theDatabaseRequest()
        if sent.method == "PATCH", (sent.bodyText ?? "").isEmpty {
            throw fail("database(\"PATCH\", \"users/<Ada's uid>\", body: {\"name\":\"Ada L.\"}) sent \(brief(sent)) with no body: a PATCH (like a POST and a PUT) carries the fields it changes. Set request.httpBody = body whatever the method, as given. See \(exercise.reference).")
        }
        guard case .success = outcome else {
            throw fail("database(\"PATCH\", \"users/<Ada's uid>\", body: {\"name\":\"Ada L.\"}) threw \(Self.describe(outcome.error)); \(databaseTraffic). Ada may write below /users/<her uid>. See \(exercise.reference).")
        }
        XCTAssertEqual(firebase.value(at: "users/\(ada.userID)/name"), "Ada L.", "After database(\"PATCH\", \"users/<uid>\", body: {\"name\":\"Ada L.\"}) the database holds \(firebase.value(at: "users/\(ada.userID)")) (\(brief(sent))): send the method and the body as given. See \(exercise.reference).")
    }

    // MARK: The rules' refusal

    func test_database_writingBelowAnotherUser_throwsPermissionDenied() throws {
        let ada = try signedInAsAda(for: exercise)
        let ben = try makeAccount(Self.benEmail, Self.benPassword)
        let outcome = try request("PUT", "users/\(ben)/name", body: #""Not Ben""#)
        try expectFailure(outcome, .permissionDenied, after: "The rules refused Ada's write below /users/<Ben's uid> (401 Permission denied)", exercise)
        XCTAssertEqual(forum.credentials, ada, """
            The rules refused Ada's write below /users/<Ben's uid> (401 Permission denied), and database left \
            `credentials` \(forum.credentials.map { "\($0)" } ?? "nil"): it signed her out. Permission denied says \
            this write is not allowed, not that her sign-in is over: she stays signed in, and her next request, below \
            her own uid, is allowed. Change the credentials only after a refresh (new tokens) or a refused refresh. \
            See \(exercise.reference).
            """)
    }

    func test_database_postingAsSomeoneElse_throwsPermissionDenied_withoutRefreshing() throws {
        try signedInAsAda(for: exercise)
        let ben = try makeAccount(Self.benEmail, Self.benPassword)
        let outcome = try request("POST", "threads/t1/messages", body: #"{"uid":"\#(ben)","text":"Hello from Ben?"}"#)
        XCTAssertTrue(refreshRequests.isEmpty, """
            After the rules' 401 "Permission denied", database refreshed the token (\(refreshTraffic)). Only "Auth token \
            is expired" calls for a refresh: a fresh token cannot change what the rules allow. See LESSONS.md §9.4.
            """)
        try expectFailure(outcome, .permissionDenied, after: "The rules refused a message whose uid is Ben's, posted by Ada (401 Permission denied)", exercise)
    }

    func test_database_postingAsYourself_isAllowed() throws {
        let ada = try signedInAsAda(for: exercise)
        let outcome = try request("POST", "threads/t1/messages", body: #"{"uid":"\#(ada.userID)","text":"Hello from Ada"}"#)
        if case .failure(let error) = outcome {
            XCTFail("Ada's message with her own uid was refused: database threw \(Self.describe(error)) (\(databaseTraffic)). See \(exercise.reference).")
        }
    }

    // MARK: Other answers

    func test_database_serverError_throwsStatus() throws {
        let ada = try signedInAsAda(for: exercise)
        for _ in 0..<3 { firebase.inject(.httpError(status: 500, message: "An internal error occurred")) }  // a client may try again once
        let outcome = try request("GET", "users/\(ada.userID)")
        if case .failure(let error) = outcome, case .status(500, let text)? = error as? SignInError {
            if text == "An internal error occurred" { return try checkAStatusWithoutJSON() }
            throw fail("""
                The database answered 500 {"error" : "An internal error occurred"}, and database threw .status(500, \
                "\(text.prefix(80))"): the text is the body's error text ("An internal error occurred"), decoded from its JSON, not the body itself \
                (nor a text of your own). See \(exercise.reference) and §9.1.
                """)
        }
        throw fail("""
            The database answered 500 {"error" : "An internal error occurred"}, and database gave \(Self.describe(outcome)); \
            expected .status(500, "An internal error occurred"). Only a 2xx answer is data: throw every other status. See \(exercise.reference).
            """)
    }

    func test_database_badRequest_throwsStatus() throws {
        let ada = try signedInAsAda(for: exercise)
        let outcome = try request("PUT", "users/\(ada.userID)/name", body: "Ada")  // a string without its quotes: no JSON
        if case .failure(let error) = outcome, case .status(400, _)? = error as? SignInError { return }
        throw fail("""
            database("PUT", "users/<Ada's uid>/name", body: Ada) sent a body that is not JSON (a string without its \
            quotes), the database answered 400 {"error" : "Invalid data; couldn't parse JSON object, array, or value."}, \
            and database gave \(Self.describe(outcome)); expected .status(400, "Invalid data; …"). Every status outside \
            2xx but the rules' 401 Permission denied is .status, a 4xx as much as a 5xx: a 400 is no data, and no \
            refusal by the rules. See \(exercise.reference) and §9.1.
            """)
    }

    /// A status whose body is not Firebase's JSON (an HTML page from a proxy in front of it) is `.status` too, with
    /// whatever text: not the decoder's error.
    private func checkAStatusWithoutJSON() throws {
        firebase.clearRequests()
        firebase.clearFaults()
        let page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
        for _ in 0..<3 { firebase.inject(.answer(status: 502, body: page)) }  // a client may try again once
        let outcome = try request("GET", "threads")
        if case .failure(let error) = outcome, case .status(502, _)? = error as? SignInError { return }
        throw fail("""
            The database's proxy answered 502 with an HTML page, not JSON, and database gave \(Self.describe(outcome)); \
            expected .status(502, …). Every status outside 2xx is .status, whatever its body: read the error text with \
            `try?` and fall back to the body as text, so an error page that is not JSON is still a status. See \(exercise.reference).
            """)
    }

    func test_database_lostConnection_throwsTransport() throws {
        let ada = try signedInAsAda(for: exercise)
        for _ in 0..<3 { firebase.inject(.transportError(.networkConnectionLost)) }  // a client may try again once
        let outcome = try request("GET", "users/\(ada.userID)")
        try expectTransport(outcome, after: "The connection was lost before the database answered", exercise)
    }

    // MARK: An expired token: refresh once, retry once

    func test_database_expiredToken_refreshesOnceAndRetriesOnce() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let outcome = try request("GET", "users/\(ada.userID)")
        try checkRefreshedOnce(outcome, what: "one GET")
        let sent = firebase.requests
        XCTAssertEqual(sent.count, 2, "After the 401 and one refresh, \(databaseTraffic): send the request again, once, with the new ID token. See LESSONS.md §9.4.")
    }

    func test_database_expiredToken_retrySendsTheSameRequest() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let outcome = try request("PUT", "users/\(ada.userID)/name", body: #""Ada""#)
        let sent = firebase.requests
        if sent.count == 2, sent[1].method != sent[0].method || sent[1].bodyJSON != sent[0].bodyJSON {
            throw fail("""
                The retry after the refresh was \(brief(sent[1])) with body \(masked(sent[1].bodyText ?? "none")); the request was \
                PUT with body "Ada". Send the same request again, method, path and body: only the token is new. See LESSONS.md §9.4.
                """)
        }
        try checkRefreshedOnce(outcome, what: "one PUT")
        XCTAssertEqual(firebase.value(at: "users/\(ada.userID)/name"), "Ada", "After a PUT retried with a fresh token, the database holds \(firebase.value(at: "users/\(ada.userID)")) (\(databaseTraffic)). See LESSONS.md §9.4.")
    }

    func test_database_expiredToken_aPostIsSentAgainToo() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let outcome = try request("POST", "threads/t1/messages", body: #"{"uid":"\#(ada.userID)","text":"Hello again"}"#)
        let posts = firebase.requests.filter { $0.method == "POST" }
        if case .failure(let error) = outcome, posts.count == 1, !refreshRequests.isEmpty {
            throw fail("""
                Ada's token had expired: database sent her POST once (401 Auth token is expired), refreshed \
                (\(refreshTraffic)), and threw \(Self.describe(error)) without sending the POST again. A 401 writes \
                nothing, so the POST sent again with the new token makes one message, not two: retry every method \
                once, a POST too. See LESSONS.md §9.4.
                """)
        }
        try checkRefreshedOnce(outcome, what: "one POST")
    }

    func test_database_refresh_sendsTheRefreshTokenToSecureToken() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        _ = try request("GET", "users/\(ada.userID)")
        guard let refresh = refreshRequests.first else {
            throw fail("After 401 \"Auth token is expired\", database sent no refresh (\(authTraffic)). See LESSONS.md §9.4.")
        }
        if let wrong = wrongRefresh(refresh, refreshToken: ada.refreshToken) { XCTFail(wrong) }
    }

    func test_database_retry_usesTheNewIDToken() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        _ = try request("GET", "users/\(ada.userID)")
        let new = refreshRequests.first?.response.bodyJSON?["id_token"].stringValue
        guard let retry = firebase.requests.dropFirst().first, let token = new else {
            throw fail("setup: the retry after a refresh needs one refresh and a second request: \(authTraffic); \(databaseTraffic). The tests above say what is wrong.")
        }
        try checkAuth(of: retry, is: token)
    }

    func test_database_afterARefresh_theNextRequestUsesTheNewToken() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        _ = try request("GET", "users/\(ada.userID)")
        let refreshed = forum.credentials
        _ = try request("GET", "users/\(ada.userID)")
        let last = firebase.requests.last
        XCTAssertEqual(refreshRequests.count, 1, """
            The request after a refresh refreshed again (\(databaseTraffic); \(refreshTraffic)): keep the new ID token \
            and refresh token in `credentials`, so the next request sends the new one. See LESSONS.md §9.4.
            """)
        if let token = refreshRequests.first?.response.bodyJSON?["id_token"].stringValue {
            XCTAssertEqual(refreshed?.idToken, token, "After a refresh, `credentials` still holds \(masked(refreshed?.idToken ?? "nil")), not the new ID token: keep the refresh's id_token. See LESSONS.md §9.4.")
            if let last = last { try checkAuth(of: last, is: token) }
        }
    }

    func test_database_refreshAnsweringANewRefreshToken_keepsIt() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        // Firebase may rotate the refresh token: this refresh answers a new one (the emulator's own never changes).
        let (idToken, rotated) = try tokensOfARotatingRefresh(for: ada)
        auth.inject(.answer(status: 200, body: """
            {"access_token": "\(idToken)", "expires_in": "3600", "token_type": "Bearer", "refresh_token": "\(rotated)", \
            "id_token": "\(idToken)", "user_id": "\(ada.userID)", "project_id": "12345"}
            """))
        let outcome = try request("GET", "users/\(ada.userID)")
        try checkRefreshedOnce(outcome, what: "one GET")
        guard let kept = forum.credentials, kept.refreshToken != rotated else { return }
        throw fail("""
            The refresh answered a new refresh_token (<\(masked(rotated))>: Secure Token may rotate it), and `credentials` \
            kept \(kept.refreshToken == ada.refreshToken ? "the old one, <\(masked(ada.refreshToken))>" : "<" + masked(kept.refreshToken) + ">"). \
            Keep both tokens the refresh answers, its id_token and its refresh_token: once rotated, the old refresh \
            token may stop working, and the next expiry would sign the user out. See LESSONS.md §9.4.
            """)
    }

    /// A fresh ID token of Ada's (signed in directly on the Auth emulator, now that the clocks have moved on) and a
    /// rotated refresh token: her own, with one more field in its record, which the emulator still reads as hers.
    private func tokensOfARotatingRefresh(for ada: Credentials) throws -> (idToken: String, refreshToken: String) {
        var request = URLRequest(url: URL(string: auth.identityToolkitURL.absoluteString + "accounts:signInWithPassword?key=setup")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": Self.adaEmail, "password": Self.adaPassword, "returnSecureToken": true])
        let idToken = auth.handle(request).bodyJSON?["idToken"].stringValue
        setupAuthRequests += auth.requests
        auth.clearRequests()
        var base64 = ada.refreshToken.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let idToken = idToken, let data = Data(base64Encoded: base64),
              var record = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail("setup: the test could not make a rotated refresh token from Ada's.")
        }
        record["rotation"] = 2
        let rotated = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return (idToken, rotated)
    }

    func test_database_expiringAgainLater_refreshesAgain() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        _ = try request("GET", "users/\(ada.userID)")
        letTheTokenExpire()  // another hour: the refreshed token has expired too
        let outcome = try request("GET", "users/\(ada.userID)")
        if case .failure(let error) = outcome {
            throw fail("""
                The second time the token expired (an hour after the first refresh), database threw \(Self.describe(error)) \
                (\(databaseTraffic); \(refreshTraffic)). Each expiry gets its own refresh: when a refresh is over, forget \
                it (refreshing = nil), or the next expiry reuses its old, expired token. See LESSONS.md §9.4.
                """)
        }
        XCTAssertEqual(refreshRequests.count, 2, "Two expiries an hour apart gave \(refreshTraffic) (\(databaseTraffic)); expected one each. See LESSONS.md §9.4.")
    }

    func test_database_secondExpiredAnswer_throwsSignInExpired_neverLoops() throws {
        let ada = try signedInAsAda(for: exercise)
        databaseClock.advance(2 * Self.pastExpiry)  // the database's clock runs ahead: every token Auth issues is expired there
        // A few seconds on at Auth too, so that a refreshed token is not, byte for byte, the one signed in with (same
        // claims, same second) and the messages name it "ID token 2", not "ID token 1" as if the retry sent the old one.
        authClock.advance(5)
        let outcome = try request("GET", "users/\(ada.userID)")
        XCTAssertLessThanOrEqual(refreshRequests.count, 1, "\(refreshTraffic) for one request (\(databaseTraffic)): refresh once; a new token refused again will be refused again. See LESSONS.md §9.4.")
        XCTAssertLessThanOrEqual(firebase.requests.count, 2, "\(databaseTraffic): the request, and one retry after one refresh, then stop. See LESSONS.md §9.4.")
        try expectFailure(outcome, .signInExpired, after: "The database refused the token, and the refreshed one too, as expired", exercise)
    }

    func test_database_expiredToken_thenRefusedByTheRules_throwsPermissionDenied() throws {
        try signedInAsAda(for: exercise)
        let ben = try makeAccount(Self.benEmail, Self.benPassword)
        letTheTokenExpire()
        let outcome = try request("PUT", "users/\(ben)/name", body: #""Not Ben""#)
        try expectFailure(outcome, .permissionDenied, after: """
            Ada's token had expired (401 Auth token is expired); after the refresh, the rules refused her write below \
            /users/<Ben's uid> (401 Permission denied)
            """, exercise)
        let refreshed = refreshRequests.first?.response.bodyJSON?["id_token"].stringValue
        XCTAssertTrue(forum.credentials != nil && forum.credentials?.idToken == refreshed, """
            After the refresh, the rules refused Ada's write below /users/<Ben's uid> (401 Permission denied), and \
            `credentials` is \(forum.credentials.map { "<" + masked($0.idToken) + ">" } ?? "nil") (\(refreshTraffic)): \
            \(forum.credentials == nil ? "database signed her out" : "not the refreshed ID token"). Permission denied \
            is the rules' answer to this write, not the end of her sign-in: keep the refreshed tokens, signed in. \
            See LESSONS.md §9.4.
            """)
    }

    func test_database_refusedRefresh_throwsSignInExpired_andSignsOut() throws {
        let ada = try signedInAsAda(for: exercise)
        deleteAccount(idToken: ada.idToken)  // an admin deleted Ada: her refresh token stops working
        letTheTokenExpire()
        let outcome = try request("GET", "users/\(ada.userID)")
        try expectFailure(outcome, .signInExpired, after: "The token expired, and Auth refused the refresh with 400 INVALID_REFRESH_TOKEN", exercise)
        XCTAssertNil(forum.credentials, "After a refused refresh, `credentials` still holds \(forum.credentials.map { "\($0)" } ?? "nil"): the sign-in is over; forget them, so the app asks the user to sign in. See LESSONS.md §9.4.")
    }

    func test_database_refreshRefusedForADisabledOrChangedAccount_throwsSignInExpired_andSignsOut() throws {
        let ada = try signedInAsAda(for: exercise)
        let refusals = [
            ("USER_DISABLED", "an admin disabled Ada's account"), ("TOKEN_EXPIRED", "Ada changed her password on another device"),
            ("USER_NOT_FOUND", "Ada's account is gone"),
        ]
        for (message, why) in refusals {
            if forum.credentials == nil {   // the refusal before signed her out: she signs in again
                guard case .success = try signIn() else { throw fail("setup: signing in again after a refused refresh failed. Fix §9.3 first.") }
                setupAuthRequests += auth.requests
                auth.clearRequests()
            }
            firebase.clearRequests()
            letTheTokenExpire()
            auth.inject(.httpError(status: 400, message: message))
            let outcome = try request("GET", "users/\(ada.userID)")
            auth.clearFaults()   // not taken when no refresh was sent
            if message != refusals[0].0, refreshRequests.isEmpty, let error = outcome.error {
                throw fail("""
                    After a refused refresh and a new sign-in, the next expiry ended in \(Self.describe(error)) without a \
                    refresh (\(databaseTraffic); \(refreshTraffic)). A refused refresh must be forgotten (refreshing = nil) \
                    like a successful one, or every later request reuses its failure. See LESSONS.md §9.4.
                    """)
            }
            try expectFailure(outcome, .signInExpired, after: "The token expired, and Secure Token refused the refresh with 400 \(message) (\(why))", exercise)
            if let kept = forum.credentials {
                throw fail("""
                    The token expired, Secure Token refused the refresh with 400 \(message) (\(why)), and database threw \
                    .signInExpired but left `credentials` \(kept). INVALID_REFRESH_TOKEN, TOKEN_EXPIRED, USER_NOT_FOUND and \
                    USER_DISABLED each end the sign-in: forget the credentials, so the app shows the login. See LESSONS.md §9.4.
                    """)
            }
        }
    }

    func test_database_refreshLostConnection_throwsTransport_andStaysSignedIn() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        for _ in 0..<3 { auth.inject(.transportError(.networkConnectionLost)) }  // the refresh gets no answer, tried again or not
        let outcome = try request("GET", "users/\(ada.userID)")
        let sent = firebase.requests
        if outcome.error.map({ if case .transport? = $0 as? SignInError { return false } else { return true } }) ?? true,
           sent.count >= 2, sent[1].query["auth"] == ada.idToken {
            throw fail("""
                The token expired, the connection was lost before Secure Token answered the refresh, and database sent \
                the request again anyway with the expired ID token (\(databaseTraffic)), then gave \(Self.describe(outcome)). \
                A refresh that failed gave no token to retry with: let its error out (`try`, not `try?`), here \
                .transport(URLError). See \(exercise.reference).
                """)
        }
        try expectTransport(outcome, after: "The token expired, and the connection was lost before Secure Token answered the refresh", exercise)
        XCTAssertEqual(forum.credentials, ada, """
            A lost connection during the refresh left `credentials` \(forum.credentials.map { "\($0)" } ?? "nil"). Only a \
            refused refresh (400 INVALID_REFRESH_TOKEN…) ends the sign-in; after a lost connection the user is still signed \
            in, and the next request refreshes again. See LESSONS.md §9.4.
            """)
    }

    func test_database_refreshServerError_keepsTheSignIn() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let page = "<html><body><h1>503 Service Unavailable</h1></body></html>"
        for _ in 0..<3 { auth.inject(.page(status: 503, contentType: "text/html", body: page)) }  // tried again or not
        let outcome = try request("GET", "users/\(ada.userID)")
        let situation = """
            The token expired, and Secure Token answered the refresh 503 Service Unavailable (an outage: it refused \
            no token)
            """
        if forum.credentials == nil {
            throw fail("""
                \(situation), and database forgot the credentials (it \(Self.describe(outcome))): an outage of Secure \
                Token would sign every user out. Only a refused refresh (400 INVALID_REFRESH_TOKEN, TOKEN_EXPIRED, \
                USER_NOT_FOUND, USER_DISABLED) ends the sign-in; after any other failure the user stays signed in, and \
                the next request refreshes again. See \(exercise.reference).
                """)
        }
        if case .failure(SignInError.signInExpired) = outcome {
            throw fail("""
                \(situation), and database threw .signInExpired: the sign-in is not over (the credentials are kept), \
                and the app would ask Ada to sign in again for nothing. A refresh answered with another status is that \
                status, .status(503, …) (or .auth(message) for an Auth error other than the refusals). See \(exercise.reference) and §9.1.
                """)
        }
        if case .success = outcome {
            throw fail("\(situation), and database returned success (\(databaseTraffic)): without a fresh token the request cannot succeed. See \(exercise.reference).")
        }
    }

    func test_database_afterARefusedRefresh_aNewSignInRefreshesAgain() throws {
        let ada = try signedInAsAda(for: exercise)
        deleteAccount(idToken: ada.idToken)  // the refresh will be refused
        letTheTokenExpire()
        let refused = try request("GET", "users/\(ada.userID)")
        guard case .failure(SignInError.signInExpired) = refused else {
            throw fail("setup: a refused refresh should end the request with .signInExpired; it gave \(Self.describe(refused)). The test test_database_refusedRefresh_throwsSignInExpired_andSignsOut says what is wrong.")
        }
        try makeAccount(Self.adaEmail, Self.adaPassword)  // Ada has an account again and signs in again
        let again = try signIn()
        guard case .success(let back) = again else {
            throw fail("setup: signing in again after a refused refresh: signIn(email:password:) gave \(Self.describe(again)). Fix §9.3 first.")
        }
        setupAuthRequests += auth.requests
        auth.clearRequests()
        firebase.clearRequests()
        letTheTokenExpire()
        let outcome = try request("GET", "users/\(back.userID)")
        if case .failure(let error) = outcome {
            throw fail("""
                After a refused refresh and a new sign-in, the next expiry ended in \(Self.describe(error)) (\(databaseTraffic); \
                \(refreshTraffic)). A refused refresh must be forgotten (refreshing = nil) like a successful one, or every later \
                request reuses its failure. See LESSONS.md §9.4.
                """)
        }
        XCTAssertEqual(refreshRequests.count, 1, "After a refused refresh and a new sign-in, the next expiry gave \(refreshTraffic) (\(databaseTraffic)); expected one. See LESSONS.md §9.4.")
    }

    // MARK: Two requests, one refresh

    func test_database_twoRequestsExpiringTogether_refreshOnce() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        auth.latency = 0.3  // both requests find the token expired while the first refresh is under way
        let forum = self.forum!, uid = ada.userID
        let outcome = try run(exercise) { () -> [Result<Data, Error>] in
            async let first = Self.outcome { try await forum.database("GET", "users/\(uid)") }
            async let second = Self.outcome { try await forum.database("GET", "threads") }
            return await [first, second]
        }
        let both = try outcome.get()
        for single in both { try checkRefreshedOnce(single, what: "two GETs whose token expired together") }
    }

    func test_database_a401ArrivingAfterTheRefresh_retriesWithoutRefreshingAgain() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let forum = self.forum!, late = Box<Result<Data, Error>>()
        firebase.holdResponses()  // this request's 401 is held back…
        Self.startCall { late.set(await Self.outcome { try await forum.database("GET", "threads") }) }
        waitUntil(CompletionTimeouts.normal) { !firebase.requests.isEmpty || late.get() != nil }
        let held = firebase.holdOnlyTheResponsesSoFar()
        defer {
            held.release()
            waitUntil(4) { late.get() != nil || requestCount > Self.requestLimit }  // it ends within the test, however the test ends
        }
        // …until another request has found the token expired, refreshed, and retried
        let early = try request("GET", "users/\(ada.userID)")
        try checkRefreshedOnce(early, what: "one GET")
        held.release()
        waitUntil(3) { late.get() != nil || requestCount > Self.requestLimit }
        guard let outcome = late.get() else {
            throw fail("database neither returned nor threw within 3 s of its late 401 (\(databaseTraffic); \(refreshTraffic)). See LESSONS.md §9.4.")
        }
        try checkRefreshedOnce(outcome, what: "a GET whose 401 came back after another request had refreshed the token")
    }

    // MARK: Credentials stay secret

    func test_database_tokensOnlyInAuthNeverPrinted() throws {
        let ada = try signedInAsAda(for: exercise)
        letTheTokenExpire()
        let printed = try captureOutput { _ = try request("GET", "users/\(ada.userID)") }
        try checkTokensKept(printed: printed)
    }

    private static func outcome(_ body: () async throws -> Data) async -> Result<Data, Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
