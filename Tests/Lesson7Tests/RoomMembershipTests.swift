import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import ChatCaveEmulator
import LabTestSupport
import Lesson7

/// Exercise 7.4: `createRoom` POSTs to the collection (the server makes the id), `joinRoom` PUTs the signed-in user
/// at their own chatter URL (the client knows both ids), `leaveRoom` DELETEs it; each signed in, each with one
/// closure.
final class RoomMembershipTests: Lesson7TestCase {
    func createRoom(named name: String = "Swift on Linux") throws -> Outcome<Room> {
        let service = self.service!
        return try call(Self.createRoom) { log in service.createRoom(named: name, success: log.success, failure: log.failure) }
    }

    func joinRoom(_ id: Int) throws -> Outcome<Void> {
        let service = self.service!
        return try call(Self.joinRoom) { log in service.joinRoom(id: id, success: { log.success(()) }, failure: log.failure) }
    }

    func leaveRoom(_ id: Int) throws -> Outcome<Void> {
        let service = self.service!
        return try call(Self.leaveRoom) { log in service.leaveRoom(id: id, success: { log.success(()) }, failure: log.failure) }
    }

    // MARK: createRoom

    func test_createRoom_POSTsTheNameToTheRoomsCollection() throws {
        seedTwoRooms()
        emulator.clearRequests()
        _ = try createRoom()
        let request = try onlyRequest(from: Self.createRoom)
        XCTAssertTrue(request.method == "POST" && request.path == "/rooms", """
            createRoom sent \(request.summary). The server makes a new room's id, so the client cannot know its URL: \
            it POSTs to the collection, <baseURL>/rooms — a PUT needs the URL of the thing itself. See LESSONS.md §7.4.
            """)
        _ = try requireBody(of: request, from: Self.createRoom)  // says so when an upload task hid it (Darwin)
        XCTAssertEqual(request.bodyJSON?.objectValue?["name"]?.stringValue, "Swift on Linux", """
            createRoom's body should be the JSON object {"name": "Swift on Linux"}; it sent \(request.summary). \
            See LESSONS.md §7.4.
            """)
    }

    /// Issue 20 (the JSON body sent with no `Content-Type`: the request helper labels nothing, or a request of the
    /// call's own forgets it): a body says what it is — Lesson 6's json-server ignores an unlabelled one.
    func test_createRoom_labelsItsBodyAsJSON() throws {
        _ = try createRoom()
        let request = try onlyRequest(from: Self.createRoom)
        let type = request.header("Content-Type")
        XCTAssertTrue(type?.lowercased().hasPrefix("application/json") == true, """
            createRoom sent \(request.summary) with \(type.map { "Content-Type: \($0)" } ?? "no Content-Type header"). \
            A JSON body is labelled as one: `request.setValue("application/json", forHTTPHeaderField: "Content-Type")` \
            on every request that carries a body (and only on those) — a server reads an unlabelled body as no JSON at \
            all, as json-server does (§6.5). See LESSONS.md §7.4.
            """)
    }

    func test_createRoom_isSignedIn() throws {
        _ = try createRoom()
        let request = try onlyRequest(from: Self.createRoom)
        if let wrong = FetchRoomsTests.wrongAuthorization(request, for: Self.ada) { XCTFail("createRoom: \(wrong) See LESSONS.md §7.2.") }
    }

    func test_createRoom_givesTheRoomTheServerMade() throws {
        seedTwoRooms()
        let room = try requireSuccess(try createRoom(), of: Self.createRoom)
        let made = Self.model(emulator.rooms).last
        XCTAssertEqual(room, made, """
            createRoom gave \(room); the server made \(made.map { "\($0)" } ?? "no room") — with id 3, the next id it \
            had. Decode the 201 answer as a Room: the id (and time) are the server's, not the client's. See LESSONS.md §7.4.
            """)
    }

    /// Once missed (an assistant's "clean the input", `name.trimmingCharacters(in: .whitespacesAndNewlines)`): the
    /// name ends in a space, and arrives with it.
    func test_createRoom_nameWithQuotesAndAccents_arrivesIntact() throws {
        let name = "Ada's \"Swift\" café ☕️ \\o/ "
        _ = try createRoom(named: name)
        let stored = emulator.rooms.last?.name
        let trimmed = stored != name.trimmingCharacters(in: .whitespacesAndNewlines) ? "" : """
             The space at the end of the name was trimmed: the service sends the name as the user wrote it — what a \
            name may hold is the server's to decide, not the client's to change on the way.
            """
        XCTAssertEqual(stored, name, """
            createRoom(named: \(name.debugDescription)) sent \(summary) and made \
            \(stored.map { "a room named \($0.debugDescription)" } ?? "no room").\(trimmed) \
            Let JSONEncoder write the body: JSON built by string interpolation breaks on quotes and backslashes. \
            See LESSONS.md §7.4.
            """)
    }

    // MARK: joinRoom

    func test_joinRoom_PUTsYourselfAtYourChatterURL() throws {
        seedTwoRooms()
        _ = try joinRoom(2)
        let request = try onlyRequest(from: Self.joinRoom)
        XCTAssertTrue(request.method == "PUT" && request.path == "/rooms/2/chatters/ada", """
            joinRoom(id: 2) sent \(request.summary). The client knows both ids — the room's and its own user's — so it \
            PUTs itself at that exact URL: PUT <baseURL>/rooms/2/chatters/ada (PUT again changes nothing; a POST would \
            ask the server to make something new). See LESSONS.md §7.4.
            """)
    }

    func test_joinRoom_signedInAsAnotherUser_PUTsThatUser() throws {
        seedTwoRooms()
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session,
                                  credentials: Credentials(user: "grace", password: "hopper"))
        _ = try joinRoom(1)
        let request = try onlyRequest(from: Self.joinRoom)
        XCTAssertEqual(request.path, "/rooms/1/chatters/grace", """
            Signed in as grace, joinRoom(id: 1) sent \(request.summary). The user id in the URL is the signed-in \
            user's, `credentials.user` — not a fixed name. See LESSONS.md §7.4.
            """)
    }

    /// A user name with a space goes into the path percent-encoded once: appendingPathComponent (or URLComponents)
    /// encodes it; a name encoded by hand first is encoded twice (%2520), and a + for the space is a plus in a path.
    /// Capitalised since a user id lowercased "to normalize it" was missed.
    func test_joinRoom_userNameWithASpace_isEncodedOnceInThePath() throws {
        let spaced = Credentials(user: "Ada Lovelace", password: "analytical")
        emulator.invalidate()
        emulator = ChatCaveEmulator(users: [spaced.user: spaced.password])
        emulator.latency = Self.latency
        emulator.seedRoom(named: "Swift", by: spaced.user)
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session, credentials: spaced)
        _ = try joinRoom(1)
        let request = try onlyRequest(from: Self.joinRoom)
        let sent = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? request.path
        XCTAssertEqual(request.path, "/rooms/1/chatters/Ada Lovelace", """
            Signed in as "Ada Lovelace", joinRoom(id: 1) sent PUT \(sent), which the server reads as the user \
            "\(request.path.components(separatedBy: "/").last ?? "")". The user name goes into the path percent-encoded \
            once, as it is — /rooms/1/chatters/Ada%20Lovelace: appendingPathComponent (and URLComponents' path) encode it \
            for you, and a user id is not lowercased or otherwise "normalized" on the way (the server's ids are exact). \
            Encoding it yourself first (addingPercentEncoding) encodes the % again (%2520), and a + is a plus in a path, \
            not a space. See LESSONS.md §7.4.
            """)
    }

    func test_joinRoom_isSignedIn() throws {
        seedTwoRooms()
        _ = try joinRoom(2)
        let request = try onlyRequest(from: Self.joinRoom)
        if let wrong = FetchRoomsTests.wrongAuthorization(request, for: Self.ada) { XCTFail("joinRoom: \(wrong) See LESSONS.md §7.2.") }
    }

    func test_joinRoom_succeedsAndTheServerHasYouInTheRoom() throws {
        seedTwoRooms()
        try requireSuccess(try joinRoom(2), of: Self.joinRoom)
        let chatters = emulator.rooms.first { $0.id == 2 }?.chatters ?? []
        XCTAssertEqual(chatters, ["grace", "ada"], "After joinRoom(id: 2) room 2's chatters should be grace and ada; they are \(chatters). Requests: \(summary). See LESSONS.md §7.4.")
    }

    func test_joinRoom_unknownRoom_isServerError404() throws {
        let outcome = try joinRoom(42)
        guard case .failure(.server(404, _)) = outcome else {
            return XCTFail("""
                There is no room 42: the server answered 404 (\(summary)); joinRoom called \(outcome.described). \
                An answer without a body still has a status: check it before calling success. See LESSONS.md §7.4.
                """)
        }
    }

    // MARK: leaveRoom

    func test_leaveRoom_DELETEsYourChatterURL() throws {
        seedTwoRooms(adaInRandom: true)
        _ = try leaveRoom(2)
        let request = try onlyRequest(from: Self.leaveRoom)
        XCTAssertTrue(request.method == "DELETE" && request.path == "/rooms/2/chatters/ada", """
            leaveRoom(id: 2) sent \(request.summary). Leaving removes the resource joining made: DELETE \
            <baseURL>/rooms/2/chatters/ada. See LESSONS.md §7.4.
            """)
    }

    func test_leaveRoom_succeedsAndTheServerNoLongerHasYou() throws {
        seedTwoRooms(adaInRandom: true)
        try requireSuccess(try leaveRoom(2), of: Self.leaveRoom)
        let chatters = emulator.rooms.first { $0.id == 2 }?.chatters ?? []
        XCTAssertEqual(chatters, ["grace"], "After leaveRoom(id: 2) only grace should be in room 2; the chatters are \(chatters). Requests: \(summary). See LESSONS.md §7.4.")
    }

    func test_leaveRoom_notInTheRoom_isServerError404() throws {
        seedTwoRooms()
        let outcome = try leaveRoom(2)
        guard case .failure(.server(404, _)) = outcome else {
            return XCTFail("""
                ada is not in room 2: the server answered 404 (\(summary)); leaveRoom called \(outcome.described). \
                Check the status before calling success. See LESSONS.md §7.4.
                """)
        }
    }

    // MARK: Every call maps the answer the same way, and asks the server

    /// Once missed (join and leave through a helper of their own for answers with no body, copied from the decoding
    /// send without its 401 branch, or handling only the statuses the API's table lists): §7.2's mapping, whole.
    func test_joinRoom_wrongPassword_isUnauthorized() throws {
        seedTwoRooms()
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session,
                                  credentials: Credentials(user: "ada", password: "babbage"))
        let outcome = try joinRoom(2)
        guard case .failure(.unauthorized) = outcome else {
            return XCTFail("""
                With a wrong password the server answered 401 (\(summary)); joinRoom called \(outcome.described). \
                Every call maps the answer the same way (§7.2): a 401 is failure(.unauthorized) — in join and leave too, \
                whose success has no body. Send them through the one helper that checks the status, or give a second \
                helper every branch of the first. See LESSONS.md §7.4.
                """)
        }
    }

    /// Once missed (a helper for answers with no body that looks at the status only, never at the error).
    func test_leaveRoom_lostConnection_isTransport() throws {
        seedTwoRooms(adaInRandom: true)
        emulator.inject(.transportError(.networkConnectionLost))
        let outcome = try leaveRoom(2)
        guard case .failure(.transport(let error)) = outcome, (error as? URLError)?.code == .networkConnectionLost else {
            return XCTFail("""
                The connection was lost (URLError.networkConnectionLost, no answer at all); leaveRoom called \
                \(outcome.described). Every call maps the answer the same way (§7.2): the data task's error comes \
                first — failure(.transport(error)) — before any status, in join and leave too. See LESSONS.md §7.4.
                """)
        }
    }

    /// Once missed (an AI assistant's "no redundant network calls": rooms joined kept in a Set, and a join of one of them
    /// answered without asking): ada left room 2 from another device; joining it again puts her back.
    func test_joinRoom_again_asksTheServerAgain() throws {
        seedTwoRooms()
        try requireSuccess(try joinRoom(2), of: Self.joinRoom)
        // ada leaves room 2 from another device: a request of the test's own, straight to the emulator.
        var leave = URLRequest(url: emulator.baseURL.appendingPathComponent("rooms/2/chatters/ada"))
        leave.httpMethod = "DELETE"
        leave.setValue(Self.adasAuthorization, forHTTPHeaderField: "Authorization")
        guard emulator.handle(leave).statusCode == 204 else { throw fail("setup: ada could not leave room 2 from another device") }
        emulator.clearRequests()
        let outcome = try joinRoom(2)
        let chatters = emulator.rooms.first { $0.id == 2 }?.chatters ?? []
        XCTAssertTrue(emulator.requests.count == 1 && chatters.contains("ada"), """
            ada joined room 2, then left it from another device; joinRoom(id: 2) called again sent \
            \(emulator.requests.count) request(s) (\(summary)), called \(outcome.described), and room 2's chatters are \
            \(chatters). Each call asks the server: joining twice is fine for the server (a PUT again changes nothing), \
            but the service cannot know what changed since — a join skipped because the service remembers joining \
            leaves the user out. See LESSONS.md §7.4.
            """)
    }
}
