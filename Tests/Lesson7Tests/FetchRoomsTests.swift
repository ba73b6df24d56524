import Foundation
import XCTest
import ChatCaveEmulator
import LabSupport
import LabTestSupport
import Lesson7

/// Exercise 7.3: `fetchRooms(success:failure:)` — a signed-in GET of /rooms, decoded into `[Room]`, every outcome
/// mapped to exactly one closure; a 401 is `.unauthorized`, never a success or a decoding error.
final class FetchRoomsTests: Lesson7TestCase {
    let exercise = Lesson7TestCase.fetchRooms

    func fetchRooms(with service: ChatCaveService? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome<[Room]> {
        let service = service ?? self.service!
        return try call(exercise, file: file, line: line) { log in
            service.fetchRooms(success: log.success, failure: log.failure)
        }
    }

    // MARK: The request

    func test_fetchRooms_sendsOneGETOfRooms() throws {
        _ = try fetchRooms()
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.method == "GET" && request.path == "/rooms", """
            fetchRooms sent \(request.summary). The rooms are the collection at <baseURL>/rooms, and reading it is a \
            GET. See LESSONS.md §7.3.
            """)
        // Issue 20 (a request helper that always encodes a body, `{}` when there is none).
        XCTAssertNil(request.body, """
            fetchRooms sent a body with its GET (\(request.bodyText.map { $0.debugDescription } ?? "bytes")): a GET has no \
            body — HTTP gives it no meaning, servers may refuse it, and URLSession on Apple platforms does not send it \
            reliably. Set httpBody (and Content-Type) only when the call has a body to send. See LESSONS.md §7.3.
            """)
    }

    /// The course's server is https://chatcave.example/api/: a base URL with a path of its own, kept in every URL.
    /// (`components.path = "/rooms"` and `URL(string: "/rooms", relativeTo: baseURL)` replace it; the emulator, at
    /// its host's root, shows that only when the base URL has a path.) The emulator knows no /api/ path: it answers
    /// 404, and only where the request went is checked.
    func test_fetchRooms_baseURLWithAPath_keepsThatPath() throws {
        let base = URL(string: "api/", relativeTo: emulator.baseURL)!.absoluteURL
        let service = ChatCaveService(baseURL: base, session: emulator.session, credentials: Self.ada)
        _ = try fetchRooms(with: service)
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.path, "/api/rooms", """
            With baseURL \(base.absoluteString), fetchRooms sent \(request.summary); the rooms are at \
            \(base.absoluteString)rooms. The course's server has a path of its own too \
            (\(ChatCaveService.chatCaveURL.absoluteString)): build every URL under baseURL, adding to its path. A path \
            that starts with "/" — `components.path = "/rooms"`, or URL(string: "/rooms", relativeTo: baseURL) — \
            replaces the base URL's path instead; baseURL.appendingPathComponent("rooms") (or appending(path:)) adds \
            to it. See LESSONS.md §7.3.
            """)
    }

    /// Issue 20 (the call made synchronous — resume(), then a semaphore or DispatchGroup wait for the handler, as
    /// answers on the web show): fetchRooms returns while its answer is still on its way. The emulator holds the
    /// answer, so nothing depends on timing.
    func test_fetchRooms_returnsBeforeTheAnswer() throws {
        emulator.holdResponses()
        let log = CallLog<[Room]>()
        let returned = fetchRoomsOnAnotherThread(into: log)
        let returnedInTime = eventually { returned.isSet || !StubLog.recorded.isEmpty } && returned.isSet
        let reached = emulator.requests.first?.summary
        emulator.releaseHeldResponses()
        if !StubLog.recorded.isEmpty { throw fail("stub") }
        // Nothing of this test's may still be on its way when the next test starts.
        _ = eventually { returned.isSet && !log.calls.isEmpty }
        XCTAssertTrue(returnedInTime, """
            fetchRooms did not return within 2 s while the server held its answer\
            \(reached.map { " (the request, \($0), had arrived)" } ?? ""): it waits for the answer before returning — a \
            semaphore or DispatchGroup wait after `resume()`? A call starts its task and returns at once; the answer \
            comes later, to a closure. Waiting blocks the caller's thread (on the main thread the app freezes), and a \
            call that has ended by the time it returns can never be cancelled. See LESSONS.md §7.3.
            """)
    }

    func test_fetchRooms_signsInWithBasicAuthorization() throws {
        _ = try fetchRooms()
        let request = try onlyRequest(from: exercise)
        if let wrong = Self.wrongAuthorization(request, for: Self.ada) { XCTFail("fetchRooms: \(wrong) See LESSONS.md §7.2.") }
    }

    /// Issue 20 (DummyChat's token, base64 in lines of 64): credentials over 48 bytes still sign in on one line.
    func test_fetchRooms_longCredentials_signInWithOneLineOfBase64() throws {
        let long = Credentials(user: "ada", password: String(repeating: "lovelace-", count: 6))
        _ = try fetchRooms()
        let signsInWhenShort = emulator.requests.first?.header("Authorization") != nil
        let outcome = try fetchRooms(signedInAs: long)
        let request = try onlyRequest(from: exercise)
        if let header = request.header("Authorization"), header.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
            return XCTFail("""
                fetchRooms, signed in with a \(long.user.count + 1 + long.password.count)-byte user:password, sent its base64 \
                broken over lines (\(header.debugDescription)): a header value is one line. Use base64EncodedString() with no \
                options (.lineLength64Characters and .lineLength76Characters insert \\r\\n). See LESSONS.md §7.2.
                """)
        }
        if request.header("Authorization") == nil, signsInWhenShort {
            return XCTFail("""
                fetchRooms, signed in with a \(long.user.count + 1 + long.password.count)-byte user:password, sent no \
                Authorization header (with ada:lovelace it sends one): a header value with a line break never reaches the \
                server. base64EncodedString(options: .lineLength64Characters) (or 76) breaks the base64 into lines with \
                \\r\\n; a header value is one line: use base64EncodedString() with no options. See LESSONS.md §7.2.
                """)
        }
        if let wrong = Self.wrongAuthorization(request, for: long) { return XCTFail("fetchRooms: \(wrong) See LESSONS.md §7.2.") }
        _ = try requireSuccess(outcome, of: exercise)
    }

    /// Basic's token is the base64 of user:password's UTF-8 bytes (RFC 7617), for every name. ISO Latin 1 bytes
    /// (`.data(using: .isoLatin1)`, in real code) or credentials percent-encoded first sign in only while they are ASCII.
    func test_fetchRooms_credentialsBeyondASCII_signInWithTheirUTF8() throws {
        let zoe = Credentials(user: "zoë", password: "crème-brûlée")
        let outcome = try fetchRooms(signedInAs: zoe)
        let request = try onlyRequest(from: exercise)
        if let wrong = Self.wrongAuthorization(request, for: zoe) {
            return XCTFail("fetchRooms, signed in as \(zoe.user) with password \(zoe.password): \(wrong) See LESSONS.md §7.2.")
        }
        _ = try requireSuccess(outcome, of: exercise)
    }

    /// fetchRooms by a service signed in as `user`, on a new emulator that knows only that user.
    private func fetchRooms(signedInAs user: Credentials, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome<[Room]> {
        emulator.invalidate()
        emulator = ChatCaveEmulator(users: [user.user: user.password])
        emulator.latency = Self.latency
        let service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session, credentials: user)
        return try fetchRooms(with: service, file: file, line: line)
    }

    func test_fetchRooms_keepsTheCredentialsOutOfTheURL() throws {
        _ = try fetchRooms()
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.url.user == nil && request.url.password == nil && !request.url.absoluteString.contains("lovelace"), """
            fetchRooms put the credentials in the URL (\(request.url.absoluteString)). URLs end up in logs, caches and \
            histories; credentials go in the Authorization header only. See LESSONS.md §7.2.
            """)
    }

    // MARK: The rooms

    /// Once missed (the rooms passed through a Dictionary keyed by id, "to drop duplicates"): with two rooms, a
    /// Dictionary's order is the server's half the time; twelve come in the server's order almost never. Before the
    /// two-room test, so that the first failure is this one in every run.
    func test_fetchRooms_manyRooms_comeInTheServersOrder() throws {
        let rooms = (1...12).map { emulator.seedRoom(named: "Room \($0)", by: $0 % 2 == 0 ? "grace" : "ada") }
        let fetched = try requireSuccess(try fetchRooms(), of: exercise)
        XCTAssertEqual(fetched.map(\.id), rooms.map(\.id), """
            fetchRooms gave room ids \(fetched.map(\.id)); the server sent \(rooms.map(\.id)), in that order: pass them \
            on as they came. A Dictionary or a Set on the way (to drop duplicates, say) has no order — and a different \
            one on each run. See LESSONS.md §7.3.
            """)
    }

    func test_fetchRooms_givesTheRoomsAsModelValues_inTheServersOrder() throws {
        let rooms = seedTwoRooms()
        let fetched = try requireSuccess(try fetchRooms(), of: exercise)
        let untimed = { (rooms: [Room]) in rooms.map { Room(id: $0.id, name: $0.name, createdBy: $0.createdBy, createdAt: .distantPast) } }
        if let hint = Self.timeZoneHint(got: fetched.map(\.createdAt), expected: Self.model(rooms).map(\.createdAt),
                                        sameOtherwise: untimed(fetched) == untimed(Self.model(rooms))) {
            return XCTFail("fetchRooms gave the right rooms with every createdAt wrong. \(hint)")
        }
        XCTAssertEqual(fetched, Self.model(rooms), """
            fetchRooms gave \(fetched); the server holds \(Self.model(rooms)) (every field: id, name, createdBy, \
            createdAt), in that order. Decode the answer as [Room] and pass it on as it is. See LESSONS.md §7.3.
            """)
    }

    /// Issue 20 (a DateFormatter whose format says `hh`, the 12-hour clock, for `HH`): every other test's times are
    /// in the morning (from 10:00 UTC), where the two read alike; rooms made from 15:00 UTC read as afternoon times.
    func test_fetchRooms_afternoonTimes_readOnA24HourClock() throws {
        emulator.invalidate()
        let afternoon = Self.clockStart.addingTimeInterval(5 * 3600)  // 2026-11-23T15:00:00Z
        emulator = ChatCaveEmulator(clock: SteppingClock(start: afternoon).next)
        emulator.latency = Self.latency
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session, credentials: Self.ada)
        let rooms = Self.model(seedTwoRooms())
        let outcome = try fetchRooms()
        let why = """
            ChatCave sent rooms made at 15:00 and 15:01 UTC ("2026-11-23T15:00:00Z"). A DateFormatter format with `hh` \
            reads a 12-hour clock (01-12, with an AM/PM elsewhere): "15" is no such hour. `HH` is the 24-hour clock — or \
            let `dateDecodingStrategy = .iso8601` read the times. See LESSONS.md §7.1.
            """
        if case .failure(.decoding(let error)) = outcome {
            return XCTFail("fetchRooms called failure(.decoding(\(error))). \(why)")
        }
        let fetched = try requireSuccess(outcome, of: exercise)
        XCTAssertEqual(fetched.map(\.createdAt), rooms.map(\.createdAt),
                       "fetchRooms gave the rooms created at \(fetched.map(\.createdAt)); they were created at \(rooms.map(\.createdAt)). \(why)")
    }

    func test_fetchRooms_noRooms_givesAnEmptyList() throws {
        let fetched = try requireSuccess(try fetchRooms(), of: exercise)
        XCTAssertEqual(fetched, [], "With no rooms on the server, fetchRooms should give []; it gave \(fetched). See LESSONS.md §7.3.")
    }

    // MARK: Failures

    func test_fetchRooms_wrongPassword_isUnauthorized() throws {
        let wrong = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session,
                                    credentials: Credentials(user: "ada", password: "babbage"))
        let outcome = try fetchRooms(with: wrong)
        // Issue 20 (a 401 sent again once, as Alamofire retriers in real code do, "the token may have expired").
        if let retried = retried(after: "a 401") {
            return XCTFail(retried + " The same credentials are refused again: a 401 is failure(.unauthorized) at once.")
        }
        guard case .failure(.unauthorized) = outcome else {
            return XCTFail("""
                With a wrong password the server answers 401 (\(summary)); fetchRooms called \(outcome.described). \
                A 401 is not a success and not a decoding problem: check the status before decoding and call \
                failure(.unauthorized). See LESSONS.md §7.2.
                """)
        }
    }

    func test_fetchRooms_serverError_isServerWithStatusAndBody() throws {
        emulator.inject(.httpError(status: 500, message: "the chat server is down"))
        let outcome = try fetchRooms()
        if let retried = retried(after: "a 500") { return XCTFail(retried) }
        guard case .failure(.server(500, let body)) = outcome, body.contains("the chat server is down") else {
            return XCTFail("""
                The server answered 500 with {"error": "the chat server is down"}; fetchRooms called \
                \(outcome.described). A status outside 200...299 (other than 401) is failure(.server(statusCode:body:)) \
                with the body as text. See LESSONS.md §7.2.
                """)
        }
    }

    /// Issue 20 (the happy path first: decode, and look at the status only when decoding fails): a failure whose body
    /// happens to decode as rooms is still a failure.
    func test_fetchRooms_serverErrorWhoseBodyDecodes_isServer() throws {
        emulator.inject(.answer(status: 503, body: "[]"))
        let outcome = try fetchRooms()
        guard case .failure(.server(503, _)) = outcome else {
            return XCTFail("""
                The server answered 503 Service Unavailable with the body [] (a proxy's page, say, that happens to \
                decode as [Room]); fetchRooms called \(outcome.described). The status comes first, before decoding: \
                outside 200...299 is a failure whatever the body — failure(.server(statusCode: 503, body: "[]")). \
                Decoding first and looking at the status only when that fails takes this answer for rooms. \
                See LESSONS.md §7.2.
                """)
        }
    }

    /// Issue 20 (an AI assistant's `.server` body: only the `error` of ChatCave's JSON, "Unknown error" otherwise): a
    /// failure whose body is not ChatCave's JSON — a proxy's page — still reaches the caller as the server sent it.
    func test_fetchRooms_serverErrorWithAPlainBody_keepsThatBody() throws {
        emulator.inject(.answer(status: 502, body: "<html><body>502 Bad Gateway (proxy)</body></html>"))
        let outcome = try fetchRooms()
        guard case .failure(.server(502, let body)) = outcome, body.contains("502 Bad Gateway (proxy)") else {
            return XCTFail("""
                The server answered 502 with an HTML page, not ChatCave's {"error": …} (a proxy in between, say); \
                fetchRooms called \(outcome.described). .server's body is the body as the server sent it, whatever it \
                is — String(decoding: data, as: UTF8.self) — not only the `error` of ChatCave's JSON, and never a text \
                made up in its place. See LESSONS.md §7.2.
                """)
        }
    }

    func test_fetchRooms_transportError_isTransport() throws {
        emulator.inject(.transportError(.networkConnectionLost))
        let outcome = try fetchRooms()
        if let retried = retried(after: "a lost connection") { return XCTFail(retried) }
        guard case .failure(.transport(let error)) = outcome, (error as? URLError)?.code == .networkConnectionLost else {
            return XCTFail("""
                The connection was lost (URLError.networkConnectionLost, no answer at all); fetchRooms called \
                \(outcome.described). Pass URLSession's error on as failure(.transport(error)). See LESSONS.md §7.2.
                """)
        }
    }

    func test_fetchRooms_answerThatDoesNotDecode_isDecoding() throws {
        emulator.inject(.malformedBody("[{\"id\": \"one\"}]"))
        let outcome = try fetchRooms()
        guard case .failure(.decoding) = outcome else {
            return XCTFail("""
                The server answered 200 with [{"id": "one"}], which is no [Room]; fetchRooms called \
                \(outcome.described). A body that does not decode is failure(.decoding(error)). See LESSONS.md §7.2.
                """)
        }
    }

    /// Issue 20 (an AI assistant's "in-memory cache to avoid redundant network calls"): every call asks the server,
    /// so a room made since the last call shows.
    func test_fetchRooms_again_asksTheServerAgain() throws {
        seedTwoRooms()
        _ = try requireSuccess(try fetchRooms(), of: exercise)
        _ = emulator.seedRoom(named: "Linux", by: "grace")
        let before = emulator.requests.count
        let outcome = try fetchRooms()
        let sent = emulator.requests.count - before
        let rooms = Self.model(emulator.rooms)
        var gave = "called \(outcome.described)"
        if case .success(let fetched) = outcome { gave = "gave rooms \(fetched.map(\.id))" }
        XCTAssertTrue(sent == 1 && gave == "gave rooms \(rooms.map(\.id))", """
            fetchRooms, called a second time after a room was made, sent \(sent) request(s) and \(gave); the server \
            holds rooms \(rooms.map(\.id)). Each call asks the server: one answered from what an earlier call got (the \
            rooms kept in the service, or a request cache policy such as .returnCacheDataElseLoad) misses every room \
            made since. Requests: \(summary). See LESSONS.md §7.3.
            """)
    }

    /// Issue 20 (a client that retries once on a lost connection or a 5xx): what is wrong when the one call sent more
    /// than one request.
    func retried(after failure: String) -> String? {
        guard emulator.requests.count > 1 else { return nil }
        return """
            After \(failure), fetchRooms tried again: one call sent \(emulator.requests.count) requests (\(summary)). A call sends \
            one request and reports what it got — failure with the error — and the caller decides whether to try again \
            (a POST sent twice makes two rooms). See LESSONS.md §7.2.
            """
    }

    // MARK: Checks every exercise shares

    /// What is wrong with `request`'s Authorization for `credentials`, or nil.
    static func wrongAuthorization(_ request: RecordedRequest, for credentials: Credentials) -> String? {
        let expected = "\(credentials.user):\(credentials.password)"
        guard let header = request.header("Authorization") else {
            if request.url.user != nil {
                return "\(request.summary) carries the credentials in the URL (\(request.url.absoluteString)) and no Authorization header. They belong in the header only: `Authorization: Basic <base64 of \"\(expected)\">`, set on the URLRequest."
            }
            return "\(request.summary) has no Authorization header. Every request carries `Authorization: Basic <base64 of \"\(expected)\">`; set it on the URLRequest (a session's headers do not reach the tests), and hand the task that request: a task made from the URL alone (`dataTask(with: request.url!)`) sends none of its headers, its method or its body."
        }
        // Issue 20 (addValue in the request helper and again in the sending code): one header, two values.
        if header.lowercased().components(separatedBy: "basic").count > 2 {
            return "the Authorization header is \"\(header)\": it was set twice — addValue appends a second value to a header already there. Set it once, with setValue(_:forHTTPHeaderField:), in the one place that builds every request."
        }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "basic" else {
            return "the Authorization header is \"\(header)\"; it must be `Basic ` followed by the base64 of \"\(expected)\"."
        }
        // Issue 20 (a base64url helper from JWT code: - and _ for + and /, the = padding dropped).
        let token = parts[1]
        if Data(base64Encoded: token) == nil {
            var standard = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
            if let data = Data(base64Encoded: standard), String(data: data, encoding: .utf8) == expected {
                return "the Authorization header is \"\(header)\": the base64 of \"\(expected)\" without its `=` padding (or in the URL-safe alphabet, - and _): that is base64url, JWT's. Basic authentication uses standard base64, padding included: base64EncodedString() as it is."
            }
        }
        // `.data(using: .isoLatin1)` in real code: right for ASCII credentials only.
        if let data = Data(base64Encoded: parts[1]), String(data: data, encoding: .utf8) == nil,
           String(data: data, encoding: .isoLatin1) == expected {
            return "the Authorization header carries the base64 of \"\(expected)\" in ISO Latin 1 bytes (.data(using: .isoLatin1)), not UTF-8: Basic authentication's token is the base64 of the UTF-8 bytes — Data(\"user:password\".utf8).base64EncodedString() — or every name beyond ASCII is refused."
        }
        guard let data = Data(base64Encoded: parts[1]), let decoded = String(data: data, encoding: .utf8) else {
            return "the Authorization header is \"\(header)\", but \"\(parts[1])\" is not base64: encode the UTF-8 bytes of \"\(expected)\" with base64EncodedString()."
        }
        // User and password percent-encoded first, a habit from putting them in a URL.
        if decoded != expected, decoded.removingPercentEncoding == expected {
            return "the Authorization header carries the base64 of \"\(decoded)\": the user name and password were percent-encoded first. Basic authentication takes them as they are — the base64 of the UTF-8 bytes of \"\(expected)\"; percent-encoding is for URLs, and credentials stay out of URLs."
        }
        // Issue 20 (the token kept in a `static var`, computed once): another service's credentials, ada's here.
        let ada = "\(Lesson7TestCase.ada.user):\(Lesson7TestCase.ada.password)"
        if decoded == ada, expected != ada {
            return "the Authorization header carries the base64 of \"\(ada)\", the credentials of another service made earlier, not this one's: it must be the base64 of \"\(expected)\". Make the token from each service's own credentials — in the request helper, or once in init into a stored property; a `static` value (or a global) is shared by every service."
        }
        guard decoded == expected else {
            return "the Authorization header carries the base64 of \"\(decoded)\"; it must be the base64 of \"\(expected)\" — user, a colon, password."
        }
        return nil
    }
}
