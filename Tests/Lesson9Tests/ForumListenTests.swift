import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson9

/// Exercise 9.6: `listen(_:onEvent:)` keeps a stream open as the signed-in user through the token's expiry. A stream
/// needs a socket (a URLProtocol hands a response over in one piece, §8.1): the database emulator is served on
/// 127.0.0.1 here, Auth stays in-process. The database ends a stream with `auth_revoked` when its token expires, in
/// real time from its own clock: the tests put both clocks a second before the hour is over, so it comes within 1 s.
final class ForumListenTests: Lesson9TestCase {
    let exercise = Lesson9TestCase.listen
    static let path = "threads/t1/messages"
    private var server: EmulatorServer!
    private var listening: Task<Void, Never>?
    private let events = Box<[ServerSentEvent]>()
    private let outcome = Box<Result<Void, Error>>()
    #if canImport(FoundationNetworking)
    private let streamConfiguration = RunawayStop.configuration()
    #else
    private let streamConfiguration = URLSessionConfiguration.ephemeral
    #endif
    /// How many streams listen opened in its task after it was cancelled (Linux; 0 elsewhere).
    private var opensAfterCancel: Int {
        #if canImport(FoundationNetworking)
        return streamConfiguration.madeWhileCancelled.get() ?? 0
        #else
        return 0
        #endif
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = EmulatorServer(serving: firebase)
        do {
            try server.start()
        } catch {
            throw fail("setup: the test server could not start on 127.0.0.1: \(error)")
        }
        forum = ForumSession(databaseURL: server.baseURL, identityToolkitURL: auth.identityToolkitURL,
                             secureTokenURL: auth.secureTokenURL, apiKey: Self.apiKey, session: firebase.session,
                             streamConfiguration: streamConfiguration)
    }

    override func tearDown() {
        listening?.cancel()
        server?.stop()
        super.tearDown()
    }

    /// Whether `request` asks for a stream: `text/event-stream` among its Accept header's media types (a header added
    /// with addValue to a request reused for the reopening lists it twice, `text/event-stream,text/event-stream`:
    /// still a stream, for the emulator and for Firebase).
    static func asksForAStream(_ request: RecordedRequest) -> Bool {
        (request.header("Accept") ?? "").split(separator: ",").contains {
            ($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
        }
    }

    /// The stream GETs the database received so far.
    private var streams: [RecordedRequest] { firebase.requests.filter { $0.method == "GET" } }

    /// Signs Ada in, calls `listen`, and waits (at most 2 s) for its first event: the snapshot. `nearTheHour`: both
    /// clocks move on until a second before her ID token expires, before `listen` is called.
    private func listenAsAda(nearTheHour: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> Credentials {
        let ada = try signedInAsAda(for: exercise, file: file, line: line)
        if nearTheHour {
            authClock.advance(Self.pastExpiry - 2)
            databaseClock.advance(Self.pastExpiry - 2)
        }
        let events = self.events
        events.set([])
        startListening { event in events.set((events.get() ?? []) + [event]) }
        wait(2) { !(events.get() ?? []).isEmpty || outcome.get() != nil }
        try stopIfAStubRan(file: file, line: line)
        // A GET without Accept: text/event-stream is answered once and closed: that is named below, not this.
        if case .success? = outcome.get(), streams.allSatisfy(Self.asksForAStream) {
            throw fail("""
                listen(\"\(Self.path)\") returned while its stream was still open (the server had not closed it; \
                \(databaseTraffic)). listen reads the stream itself, `for try await event in events(of: request)`, and \
                returns when the server closes it: reading in a Task of its own and returning leaves work running after \
                the call has returned, and its errors reach nobody. See \(exercise.reference).
                """, file: file, line: line)
        }
        guard !(events.get() ?? []).isEmpty else {
            if let stream = streams.first, stream.query["auth"] != ada.idToken {
                throw fail("listen's GET was \(brief(stream)): a stream is a database request like any other, sent as the user with auth=<the ID token> (§9.4), or the rules refuse it. See \(exercise.reference).", file: file, line: line)
            }
            if let stream = streams.first, !Self.asksForAStream(stream) {
                throw fail("listen's GET (\(brief(stream))) has Accept: \(stream.header("Accept") ?? "none"): a stream is asked for with the header Accept: text/event-stream (§8.1); without it the database answers once and closes. See \(exercise.reference).", file: file, line: line)
            }
            if outcome.get() == nil, let stream = streams.first, stream.response.statusCode == 200 {
                let empty = firebase.value(at: Self.path) == .null ? #": here `{"path":"/","data":null}`, nothing is there yet"# : ""
                throw fail("""
                    listen(\"\(Self.path)\") opened the stream (\(brief(stream))) and was still reading it, but within 2 s \
                    it handed nothing to onEvent, not even the snapshot (the first put\(empty)). Hand each put and patch to onEvent as \
                    it comes, inside the `for try await` loop, whatever its data (a put whose data is null, an empty place or a \
                    deletion, is an event like any other): an app shows a message when it arrives, not when the stream ends. \
                    See \(exercise.reference).
                    """, file: file, line: line)
            }
            throw fail("""
                setup: listen(\"\(Self.path)\") handed no event to onEvent within 2 s (\(databaseTraffic)\
                \(outcome.get().map { "; it ended: \(Self.describe($0))" } ?? "")). The first event of a stream is a put \
                at "/": the snapshot. See \(exercise.reference).
                """, file: file, line: line)
        }
        return ada
    }

    /// Runs the run loop until `done` or `seconds` have passed.
    private func wait(_ seconds: TimeInterval, until done: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !done() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01)) }
    }

    /// Writes a message as Ada straight to the emulator (not through the learner's code), with a fresh token of hers.
    /// `listen(path)` in a task of its own, as the app calls it; how it ends goes to `outcome`.
    private func startListening(onEvent: @escaping @Sendable (ServerSentEvent) -> Void = { _ in }) {
        let forum = self.forum!, outcome = self.outcome
        listening = Self.startCall {
            do {
                try await forum.listen(Self.path, onEvent: onEvent)
                outcome.set(.success(()))
            } catch { outcome.set(.failure(error)) }
        }
    }

    private func postAsAda(_ ada: Credentials, idToken: String, text: String) {
        var request = URLRequest(url: URL(string: firebase.baseURL.absoluteString + Self.path + ".json?auth=" + idToken)!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"uid":"\#(ada.userID)","text":"\#(text)"}"#.utf8)
        _ = firebase.handle(request)
    }

    func test_listen_beforeSignIn_throwsNotSignedIn_andOpensNothing() throws {
        startListening()
        wait(2) { outcome.get() != nil }
        try stopIfAStubRan()
        XCTAssertTrue(streams.isEmpty, "With nobody signed in, listen opened a stream (\(databaseTraffic)). Without a token there is nothing to open: throw .notSignedIn first. See \(exercise.reference).")
        guard let ended = outcome.get() else {
            throw fail("With nobody signed in, listen had not ended 2 s later (\(databaseTraffic)): throw .notSignedIn before opening anything. See \(exercise.reference).")
        }
        try expectFailure(ended, .notSignedIn, after: "Nobody had signed in", exercise)
    }

    func test_listen_opensTheStreamWithAuthAndTheEventStreamHeader() throws {
        let ada = try listenAsAda()
        guard let stream = streams.first else { throw fail("listen sent no GET to the database. See \(exercise.reference).") }
        if let ahead = refreshedAhead(sent: stream.query["auth"]) {
            throw fail("listen opened the stream (\(brief(stream))) with " + ahead + " See \(exercise.reference).")
        }
        XCTAssertTrue(Self.asksForAStream(stream), "listen's GET (\(brief(stream))) has Accept: \(stream.header("Accept") ?? "none"): a stream is asked for with the header Accept: text/event-stream (§8.1). See \(exercise.reference).")
        XCTAssertEqual(stream.query["auth"], ada.idToken, "listen's GET was \(brief(stream)): a stream is a database request like any other, sent as the user with auth=<the ID token> (§9.4). See \(exercise.reference).")
    }

    func test_listen_handsOnTheEventsAsTheyCome() throws {
        let ada = try listenAsAda()
        postAsAda(ada, idToken: ada.idToken, text: "Is the stream up?")
        wait(2) { (events.get() ?? []).contains { $0.data.contains("Is the stream up?") } }
        let got = events.get() ?? []
        XCTAssertTrue(got.contains { $0.name == "put" && $0.data.contains("Is the stream up?") }, "After the snapshot, a message posted to \(Self.path) gave onEvent no put within 2 s (it got \(got.count) event(s): \(got.map(\.name))). Hand on every put and patch, as it comes. See \(exercise.reference).")
    }

    func test_listen_handsOnOnlyPutsAndPatches() throws {
        _ = try listenAsAda(nearTheHour: true)
        authClock.advance(2)
        databaseClock.advance(2)   // auth_revoked within 0.1 s
        wait(4) { streams.count >= 2 || outcome.get() != nil }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.2))
        let others = Set((events.get() ?? []).map(\.name)).subtracting(["put", "patch"])
        XCTAssertTrue(others.isEmpty, "onEvent was handed \(others.sorted().joined(separator: ", ")) events: hand on only put and patch (the data); auth_revoked, cancel and keep-alive are for listen itself to act on. See \(exercise.reference).")
    }

    func test_listen_whenTheServerClosesTheStream_returns() throws {
        _ = try listenAsAda()
        firebase.endStreams(.closed)   // no event: the connection just ends, as when Firebase's server restarts
        wait(2) { outcome.get() != nil || streams.count > 1 }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.2))  // anything it does after that
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        if streams.count > 1 {
            throw fail("""
                The server closed the stream, with no auth_revoked before, and listen opened it again (\(traffic)). \
                Reopen only after auth_revoked; a stream that ends any other way ends the listening: return. (A loop \
                that reopens whenever a stream ends never stops once the task is cancelled: a cancelled task's \
                stream ends at once.) See \(exercise.reference).
                """)
        }
        guard let ended = outcome.get() else {
            throw fail("The server closed the stream, and 2 s later listen had not returned (\(traffic)). When the `for try await` loop ends without auth_revoked, return. See \(exercise.reference).")
        }
        if case .failure(let error) = ended {
            throw fail("The server closed the stream (no error, no auth_revoked), and listen threw \(Self.describe(error)) (\(traffic)). The server closing the stream is the end of the listening, not a failure: return. See \(exercise.reference).")
        }
    }

    func test_listen_keepAlive_doesNotEndTheListening() throws {
        firebase.withService { $0.keepAliveInterval = 0.1 }  // a quiet stream gets a keep-alive every 0.1 s (Firebase: 30 s)
        let ada = try listenAsAda()
        wait(0.35) { outcome.get() != nil }
        if let ended = outcome.get() {
            throw fail("""
                listen(\"\(Self.path)\") ended (\(Self.describe(ended))) while its stream was open and quiet: the database \
                sends a keep-alive event on an idle stream, and listen stopped at it. keep-alive (like any name but put, \
                patch, auth_revoked and cancel) is nothing to act on: go on reading (`continue`, or `break`, which leaves \
                only the switch; `return` leaves listen). \(databaseTraffic). See \(exercise.reference).
                """)
        }
        postAsAda(ada, idToken: ada.idToken, text: "Still there?")
        wait(2) { (events.get() ?? []).contains { $0.data.contains("Still there?") } }
        let got = events.get() ?? []
        XCTAssertTrue(got.contains { $0.name == "put" && $0.data.contains("Still there?") }, "After keep-alive events, a message posted to \(Self.path) gave onEvent no put within 2 s (it got \(got.count) event(s): \(got.map(\.name))). A keep-alive changes nothing: go on reading the stream. See \(exercise.reference).")
    }

    func test_listen_afterAuthRevoked_refreshesOnceAndReopensWithTheNewToken() throws {
        let ada = try listenAsAda(nearTheHour: true)
        authClock.advance(2)
        databaseClock.advance(2)   // the hour is over; the database sends auth_revoked within 0.1 s
        wait(4) { streams.count >= 2 || outcome.get() != nil }
        let refreshes = refreshTraffic, traffic = databaseTraffic
        if let ended = outcome.get(), streams.count < 2 {
            throw fail("When the stream ended with auth_revoked (the ID token's hour was over), listen ended (\(Self.describe(ended))) after \(refreshes) (\(traffic)). Refresh the token once, as §9.4 does, and open the stream again with the new one. See \(exercise.reference).")
        }
        if refreshRequests.isEmpty, streams.count >= 2 {
            throw fail("After auth_revoked, listen opened the stream again without refreshing (\(traffic)): the expired ID token is refused again. Refresh the token once, as §9.4 does, and open the stream with the new one. See \(exercise.reference).")
        }
        XCTAssertEqual(refreshRequests.count, 1, "Around an auth_revoked, listen sent \(refreshes) (\(traffic)): exactly one refresh per auth_revoked. See \(exercise.reference).")
        guard streams.count >= 2 else {
            throw fail("4 s after the token expired, listen had not opened the stream again (\(traffic); \(refreshes)). auth_revoked ends the stream: refresh, then open it again. See \(exercise.reference).")
        }
        let reopened = streams[1]
        if let given = refreshRequests.first?.response.bodyJSON?["id_token"].stringValue, reopened.query["auth"] == given,
           forum.credentials?.idToken != given {
            throw fail("""
                After auth_revoked listen refreshed and reopened the stream with the new ID token, but did not keep the \
                new tokens: `credentials` holds \(forum.credentials.map { "<" + masked($0.idToken) + ">" } ?? "nil"), so \
                every other request of the app goes on with the expired one. Refresh through §9.4's shared refresh \
                (freshCredentials(replacing:)), which keeps the new ID token and refresh token. See \(exercise.reference).
                """)
        }
        guard let fresh = forum.credentials, reopened.query["auth"] == fresh.idToken, fresh.idToken != ada.idToken else {
            throw fail("After the refresh, listen opened the stream again as \(brief(reopened)) — not with the new ID token the refresh gave (\(traffic)). The old one has expired: reopen with the fresh token. See \(exercise.reference).")
        }
        if !Self.asksForAStream(reopened) {
            throw fail("listen reopened the stream without Accept: text/event-stream (it had Accept: \(reopened.header("Accept") ?? "none"); \(brief(reopened))): ask for it as for the first stream, or the database answers once and closes. Build the whole request in the loop. See \(exercise.reference).")
        }
        XCTAssertEqual(streams.count, 2, "After one auth_revoked listen opened \(streams.count) streams (\(traffic)): one reopening per auth_revoked. See \(exercise.reference).")
        let before = (events.get() ?? []).count
        postAsAda(ada, idToken: fresh.idToken, text: "Still listening?")
        wait(2) { (events.get() ?? []).contains { $0.data.contains("Still listening?") } }
        XCTAssertTrue((events.get() ?? []).dropFirst(before).contains { $0.data.contains("Still listening?") }, "The reopened stream handed onEvent no event for a message posted after it opened (within 2 s). Hand on the reopened stream's events too. See \(exercise.reference).")
    }

    func test_listen_eachAuthRevoked_getsItsOwnRefreshAndReopening() throws {
        _ = try listenAsAda(nearTheHour: true)   // the first stream's token expires within about 1 s
        // The database's clock runs an hour ahead of Auth's from now on: every token Auth issues has about a second
        // left there, so each reopened stream ends with auth_revoked of its own a second after it opens.
        authClock.advance(2)
        databaseClock.advance(2 + Self.pastExpiry - 2)
        wait(4) { streams.count >= 3 || outcome.get() != nil || requestCount > Self.requestLimit }
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        if let ended = outcome.get(), streams.count < 3 {
            throw fail("""
                The stream was reopened after auth_revoked, and a second auth_revoked came when the new token's hour was \
                over; listen then ended (\(Self.describe(ended))) after \(streams.count) stream(s) (\(traffic)). "Once" is \
                per auth_revoked: each auth_revoked gets its own refresh and reopening, for as long as the screen listens. \
                See \(exercise.reference).
                """)
        }
        guard streams.count >= 3 else {
            throw fail("Two auth_revoked a second apart, and 4 s later listen had opened \(streams.count) stream(s) (\(traffic)): each auth_revoked gets its own refresh and reopening. See \(exercise.reference).")
        }
        listening?.cancel()   // the screen closes: the loop ends with the stream
        wait(1) { outcome.get() != nil }
        guard outcome.get() != nil else {
            if opensAfterCancel > 1 {
                throw fail("""
                    The screen closed (the task running listen was cancelled), and listen went on opening the stream: \
                    \(opensAfterCancel) times after the cancellation, as fast as it could (the test stopped it). In a \
                    cancelled task a stream ends at once, with no auth_revoked, and listen opened it again: reopen only \
                    after auth_revoked; when the stream ends any other way, return (the server closed it, or the task was \
                    cancelled). See \(exercise.reference).
                    """)
            }
            throw fail("""
                The screen closed (the task running listen was cancelled), and 1 s later listen was still going \
                (\(databaseTraffic); \(refreshTraffic)). Cancelling the task ends the `for try await` loop that reads in it, \
                and events(of:) closes the connection; a loop in a Task.detached or a Task { } of its own is not \
                cancelled with it and goes on refreshing and reopening. Read the stream in listen itself. See \(exercise.reference).
                """)
        }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.2))
        // One refresh per reopening; one more may have been under way when the screen closed.
        XCTAssertTrue((streams.count - 1...streams.count).contains(refreshRequests.count), "listen opened \(streams.count) streams, one per auth_revoked, with \(refreshTraffic) (\(databaseTraffic)): each auth_revoked gets exactly one refresh. See \(exercise.reference).")
    }

    func test_listen_handsOnPatches() throws {
        let ada = try listenAsAda()
        var request = URLRequest(url: URL(string: firebase.baseURL.absoluteString + Self.path + ".json?auth=" + ada.idToken)!)
        request.httpMethod = "PATCH"
        request.httpBody = Data(#"{"m-patched":{"uid":"\#(ada.userID)","text":"Patched in"}}"#.utf8)
        let answer = firebase.handle(request)
        guard answer.statusCode == 200 else {
            throw fail("setup: the test's PATCH to \(Self.path) was refused (\(answer.statusCode)).")
        }
        wait(2) { (events.get() ?? []).contains { $0.data.contains("Patched in") } }
        let got = events.get() ?? []
        XCTAssertTrue(got.contains { $0.name == "patch" && $0.data.contains("Patched in") }, "A PATCH below \(Self.path) gave onEvent no patch event within 2 s (it got \(got.count) event(s): \(got.map(\.name))). A PATCH arrives as a patch: hand on every put and patch. See \(exercise.reference).")
    }

    func test_listen_refusedByTheRules_throwsPermissionDenied() throws {
        try signedInAsAda(for: exercise)
        try firebase.setRules(#"{"rules": {".read": false}}"#)   // Ada may not read here: the stream is refused with 401
        startListening()
        wait(2) { outcome.get() != nil || requestCount > Self.requestLimit }
        try stopIfAStubRan()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.2))  // anything it does after ending
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        guard let ended = outcome.get() else {
            let again = streams.count > 1 ? """
                 It opened the stream \(streams.count) times: a refusal by the rules is final, and reconnecting cannot \
                change it. Let the .permissionDenied that events(of:) throws out of listen.
                """ : ""
            throw fail("The database refused the stream (401 Permission denied: the rules do not let Ada read there), and listen had not ended 2 s later.\(again) (\(traffic)). See \(exercise.reference).")
        }
        if case .success = ended {
            throw fail("The database refused the stream (401 Permission denied), and listen returned as if the server had closed it (\(traffic)). events(of:) throws .permissionDenied for that refusal: let it out (`for try await`, not `try?`), so the app can say so. See \(exercise.reference).")
        }
        XCTAssertEqual(refreshRequests.count, 0, "The rules refused the stream and listen refreshed (\(traffic)): a new token changes nothing the rules say. See \(exercise.reference).")
        XCTAssertEqual(streams.count, 1, "The rules refused the stream and listen opened it \(streams.count) times (\(traffic)). See \(exercise.reference).")
        XCTAssertEqual(ended.error as? SignInError, .permissionDenied, "The database refused the stream (401 Permission denied), and listen ended \(Self.describe(ended)) (\(traffic)): that is .permissionDenied. See \(exercise.reference).")
    }

    func test_listen_whenTheRefreshIsRefused_endsWithSignInExpired() throws {
        let ada = try listenAsAda(nearTheHour: true)
        deleteAccount(idToken: ada.idToken)   // the refresh token stops working
        authClock.advance(2)
        databaseClock.advance(2)
        wait(4) { outcome.get() != nil || requestCount > Self.requestLimit }
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        guard let ended = outcome.get() else {
            throw fail("The stream ended with auth_revoked and the refresh was refused (the account is gone), but listen had not ended 4 s later (\(traffic)). A refused refresh ends the listening with .signInExpired: never try again in a loop. See \(exercise.reference).")
        }
        XCTAssertEqual(ended.error as? SignInError, .signInExpired, "The refresh after auth_revoked was refused (the account is gone); listen ended \(Self.describe(ended)) (\(traffic)). A refused refresh is .signInExpired. See \(exercise.reference).")
        XCTAssertEqual(streams.count, 1, "The refresh after auth_revoked was refused, and listen opened the stream again anyway (\(traffic)): with no fresh token there is nothing to reopen with. See \(exercise.reference).")
    }

    func test_listen_afterSignOut_theNextAuthRevokedEndsIt() throws {
        let ada = try listenAsAda(nearTheHour: true)
        forum.signOut()   // Ada signs out (§9.5) while her stream is open: Firebase has no sign-out to close it
        guard forum.credentials == nil else {
            throw fail("setup: after signOut(), `credentials` is still set. The tests of §9.5 say what is wrong: fix them first.")
        }
        authClock.advance(2)
        databaseClock.advance(2)   // her token's hour is over: auth_revoked within 0.1 s
        wait(4) { outcome.get() != nil || streams.count >= 2 || requestCount > Self.requestLimit }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.2))  // anything it does after that
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        let resurrected = forum.credentials.map { $0.userID == ada.userID } ?? false
        if streams.count >= 2 || resurrected {
            let did = [resurrected ? "kept the refresh's tokens, signing her back in" : nil,
                       streams.count >= 2 ? "opened the stream again as her" : nil].compactMap { $0 }.joined(separator: " and ")
            throw fail("""
                Ada signed out while listening; when her stream's token expired (auth_revoked), listen refreshed with \
                her refresh token and \(did) (\(traffic)). After a sign-out nothing is done as her: refresh through \
                §9.4's shared refresh (freshCredentials(replacing:)), which finds nobody signed in and throws \
                .notSignedIn, rather than with credentials the stream kept for itself, and let that end the listening. \
                See \(exercise.reference) and §9.5.
                """)
        }
        guard let ended = outcome.get() else {
            throw fail("Ada signed out while listening, her stream ended with auth_revoked, and 4 s later listen had not ended (\(traffic)). With nobody signed in there is no token to reopen with: end with .notSignedIn. See \(exercise.reference).")
        }
        let error = ended.error as? SignInError
        XCTAssertTrue(error == .notSignedIn || error == .signInExpired, """
            Ada signed out while listening, her stream ended with auth_revoked, and listen ended \(Self.describe(ended)) \
            (\(traffic)). Nobody is signed in to refresh for: that is .notSignedIn (what §9.4's refresh throws then), so \
            the app knows the listening ended and shows the login. See \(exercise.reference).
            """)
    }

    func test_listen_onCancel_endsWithPermissionDeniedWithoutReopening() throws {
        _ = try listenAsAda()
        try firebase.setRules(#"{"rules": {".read": false}}"#)   // the database sends cancel: Ada may not read here any more
        wait(2) { outcome.get() != nil }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.3))  // anything it does after ending
        let traffic = "\(databaseTraffic); \(refreshTraffic)"
        guard let ended = outcome.get() else {
            throw fail("The database ended the stream with cancel (the rules no longer let Ada read there), and listen had not ended 2 s later (\(traffic)). cancel ends the listening with .permissionDenied. See \(exercise.reference).")
        }
        XCTAssertEqual(refreshRequests.count, 0, "After cancel listen sent \(refreshTraffic): cancel comes from the rules, not from the token — a new token changes nothing. See \(exercise.reference).")
        XCTAssertEqual(streams.count, 1, "After cancel listen opened the stream again (\(traffic)): cancel is final. See \(exercise.reference).")
        XCTAssertEqual(ended.error as? SignInError, .permissionDenied, "After cancel, listen ended \(Self.describe(ended)) (\(traffic)): cancel is .permissionDenied. See \(exercise.reference).")
    }
}

#if canImport(FoundationNetworking)
/// The streams' configuration on Linux: `.ephemeral`'s settings, and a stop for a runaway reopening loop. In a cancelled
/// task a stream ends at once, so a `listen` that reopens whenever a stream ends (not only after auth_revoked) makes
/// sessions as fast as it can once its task is cancelled — in every test's tearDown — and corelibs' URLSession, with
/// hundreds made and cancelled a second, crashes a later test ("a task that is not in the registry"). Each session a
/// stream makes copies its configuration, in the task that opens it: past `limit` copies in a cancelled task, that
/// call is parked for good (its own queue's thread only: each call runs on a queue of its own, `startCall`).
final class RunawayStop: URLSessionConfiguration, @unchecked Sendable, DefaultInitializable {
    static let limit = 10
    let madeWhileCancelled = Box<Int>()

    static func configuration() -> RunawayStop {
        let configuration = make(RunawayStop.self)
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        return configuration
    }

    override func copy(with zone: NSZone? = nil) -> Any {
        if Task.isCancelled {
            let made = madeWhileCancelled.update(startingFrom: 0) { $0 += 1 }
            while made > Self.limit { sleep(3600) }
        }
        return super.copy(with: zone)
    }
}

/// `init()` through a protocol: URLSessionConfiguration's own is deprecated for `.default`, which a subclass cannot use.
protocol DefaultInitializable { init() }
private func make<T: DefaultInitializable>(_ type: T.Type) -> T { T() }
#endif
