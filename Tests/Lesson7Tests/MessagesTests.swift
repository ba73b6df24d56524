import Foundation
import XCTest
import ChatCaveEmulator
import LabSupport
import LabTestSupport
import Lesson7

/// Exercise 7.5: `fetchMessages` GETs a room's messages; `fetchNewMessages` polls with `?since=<newest id seen in
/// that room>` (none before anything was seen), so across polls every message arrives once; `postMessage` POSTs
/// the text and gives the message the server made.
final class MessagesTests: Lesson7TestCase {
    func fetchMessages(_ roomID: Int, setup: String? = nil) throws -> Outcome<[Message]> {
        let service = self.service!
        return try call(Self.fetchMessages, setup: setup) { log in
            service.fetchMessages(inRoom: roomID, success: log.success, failure: log.failure)
        }
    }

    func poll(_ roomID: Int, setup: String? = nil) throws -> Outcome<[Message]> {
        let service = self.service!
        return try call(Self.fetchNewMessages, setup: setup) { log in
            service.fetchNewMessages(inRoom: roomID, success: log.success, failure: log.failure)
        }
    }

    /// A poll the test's setup needs: its messages, or the test stops there, saying which setup failed.
    func setupPoll(_ roomID: Int, _ setup: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Message] {
        try requireSuccess(try poll(roomID, setup: setup), of: Self.fetchNewMessages, setup: setup, file: file, line: line)
    }

    /// The poll a test judges: its messages and its one request (the setup's requests forgotten first).
    func judgedPoll(_ roomID: Int, file: StaticString = #filePath, line: UInt = #line) throws -> (fetched: [Message], request: RecordedRequest) {
        emulator.clearRequests()
        let fetched = try requireSuccess(try poll(roomID), of: Self.fetchNewMessages, file: file, line: line)
        return (fetched, try onlyRequest(from: Self.fetchNewMessages, file: file, line: line))
    }

    func postMessage(_ text: String, in roomID: Int) throws -> Outcome<Message> {
        let service = self.service!
        return try call(Self.postMessage) { log in
            service.postMessage(text, inRoom: roomID, success: log.success, failure: log.failure)
        }
    }

    /// Messages 1, 3 in room 1 and 2 in room 2 (ids are counted across rooms).
    func seedConversation() {
        seedTwoRooms(adaInRandom: true)
        emulator.seedMessage("Anyone here?", in: 1, from: "ada")
        emulator.seedMessage("Random thought", in: 2, from: "grace")
        emulator.seedMessage("Yes!", in: 1, from: "grace")
        emulator.clearRequests()
    }

    func messages(in roomID: Int, after id: Int = 0) -> [Message] {
        Self.model(emulator.messages.filter { $0.roomID == roomID && $0.id > id })
    }

    /// Why a new service's first poll sent a real id as `since`, when it did: the newest ids are shared by every service
    /// (a `static var` of an extension, a global) — an earlier test's service, in the same process, delivered it.
    static func sharedSeenHint(_ request: RecordedRequest) -> String {
        guard let since = request.query["since"].flatMap({ Int($0) }), since > 0 else { return "" }
        return """
             This service was made for this test and has delivered nothing: since=\(since) came from another \
            service's polls. Keep the newest ids in a stored property of the class (declared in ChatCaveService.swift — \
            an extension cannot hold one), not in a `static var` or a global variable, which every service shares.
            """
    }

    // MARK: fetchMessages

    func test_fetchMessages_GETsTheRoomsMessages_withoutSince() throws {
        seedConversation()
        _ = try fetchMessages(1)
        let request = try onlyRequest(from: Self.fetchMessages)
        XCTAssertTrue(request.method == "GET" && request.path == "/rooms/1/messages" && request.query["since"] == nil, """
            fetchMessages(inRoom: 1) sent \(request.summary). It asks for all of room 1's messages: GET \
            <baseURL>/rooms/1/messages, no `since`. See LESSONS.md §7.5.
            """)
        if let wrong = FetchRoomsTests.wrongAuthorization(request, for: Self.ada) { XCTFail("fetchMessages: \(wrong) See LESSONS.md §7.2.") }
    }

    /// An over-defensive "remove duplicates" through a Dictionary keyed by id: twelve messages come as the
    /// server sends them, oldest first. (Two messages come in the right order by chance half the time; twelve almost
    /// never.)
    func test_fetchMessages_manyMessages_comeOldestFirst() throws {
        seedTwoRooms(adaInRandom: true)
        // grace says "+1" three times (messages 4, 8 and 12): each is a message of its own. (Once missed: duplicates
        // dropped by sender and text, "a send the network layer retried".)
        for number in 1...12 {
            emulator.seedMessage(number % 4 == 0 ? "+1" : "Message \(number)", in: 1, from: number % 2 == 0 ? "grace" : "ada")
        }
        let fetched = try requireSuccess(try fetchMessages(1), of: Self.fetchMessages)
        let all = messages(in: 1).map(\.id)
        let dropped = all.filter { !fetched.map(\.id).contains($0) }
        let why = dropped.isEmpty ? "" : """
             It left out \(dropped): every message the server sends is passed on — a sender who wrote the same text \
            twice ("+1") sent two messages, each with its own id; to drop real duplicates, compare ids, never texts.
            """
        XCTAssertEqual(fetched.map(\.id), all, """
            fetchMessages(inRoom: 1) gave message ids \(fetched.map(\.id)); room 1 holds \(all), \
            which the server sends oldest first: pass them on in that order.\(why) A Dictionary or a Set on the way (to \
            drop duplicates, say) has no order — and a different one on each run. See LESSONS.md §7.5.
            """)
    }

    func test_fetchMessages_givesTheRoomsMessagesAsModelValues() throws {
        seedConversation()
        let fetched = try requireSuccess(try fetchMessages(1), of: Self.fetchMessages)
        let untimed = { (messages: [Message]) in
            messages.map { Message(id: $0.id, roomID: $0.roomID, userID: $0.userID, text: $0.text, sentAt: .distantPast) }
        }
        if let hint = Self.timeZoneHint(got: fetched.map(\.sentAt), expected: messages(in: 1).map(\.sentAt),
                                        sameOtherwise: untimed(fetched) == untimed(messages(in: 1))) {
            return XCTFail("fetchMessages gave the right messages with every sentAt wrong. \(hint)")
        }
        XCTAssertEqual(fetched, messages(in: 1), """
            fetchMessages(inRoom: 1) gave \(fetched); room 1 holds \(messages(in: 1)) (every field, sentAt decoded \
            from ISO 8601), oldest first. See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (fetchMessages written as a call of fetchNewMessages): a second fetch, the room's screen opened
    /// again, still asks for every message.
    func test_fetchMessages_again_givesEveryMessageAgain() throws {
        seedConversation()
        _ = try requireSuccess(try fetchMessages(1, setup: "fetching twice"), of: Self.fetchMessages, setup: "fetching twice")
        emulator.seedMessage("Welcome, Ada", in: 1, from: "grace")
        let before = emulator.requests.count
        let fetched = try fetchMessages(1)
        let sent = emulator.requests.dropFirst(before)
        guard sent.count == 1, let request = sent.first else {
            return XCTFail("The second fetchMessages(inRoom: 1) should send exactly one request; it sent \(sent.count). Requests: \(summary). See LESSONS.md §7.5.")
        }
        let all = messages(in: 1)
        var gave = "called \(fetched.described)"
        if case .success(let messages) = fetched { gave = "gave \(messages.map(\.id))" }
        XCTAssertTrue(request.query["since"] == nil && gave == "gave \(all.map(\.id))", """
            A second fetchMessages(inRoom: 1) sent \(request.summary) and \(gave). fetchMessages asks for every message \
            of the room, each time: no `since`, and all of \(all.map(\.id)). Only fetchNewMessages asks for the new ones \
            (both remember the newest id they delivered). See LESSONS.md §7.5.
            """)
    }

    // MARK: fetchNewMessages

    func test_fetchNewMessages_firstPoll_sendsNoSince_andGivesEveryMessage() throws {
        seedConversation()
        let outcome = try poll(1)
        let request = try onlyRequest(from: Self.fetchNewMessages)
        // Checked before the outcome: a made-up first id (FoxelBox's `maxID = -1`) is refused, and that is its cause.
        guard request.query["since"] == nil else {
            return XCTFail("""
                The first fetchNewMessages(inRoom: 1) sent \(request.summary). Nothing has been seen in room 1 yet, so \
                there is no `since` — not 0, not -1 (a made-up id is still a since; ChatCave refuses a negative one), and \
                not a bare `?since`: the first poll asks for every message.\(Self.sharedSeenHint(request)) See LESSONS.md §7.5.
                """)
        }
        let fetched = try requireSuccess(outcome, of: Self.fetchNewMessages)
        // The signed-in user's own messages left out, "the app shows what I posted already".
        let others = messages(in: 1).filter { $0.userID != Self.ada.user }
        let own = fetched != messages(in: 1) && fetched == others
            ? " It left out ada's own messages: a poll brings every new message, your own messages too (posted from another device, or before the app started)."
            : ""
        XCTAssertEqual(fetched, messages(in: 1), "The first poll of room 1 should give all its messages, \(messages(in: 1)); it gave \(fetched).\(own) See LESSONS.md §7.5.")
    }

    /// Issue 20 (the newest ids in a `static var` of an extension — the compiler refuses a stored instance property
    /// in ChatCaveService+Messages.swift, and a static one compiles): each service remembers what it delivered.
    func test_fetchNewMessages_aNewService_startsWithNothingSeen() throws {
        seedConversation()
        _ = try setupPoll(1, "polling with a new service")
        service = ChatCaveService(baseURL: emulator.baseURL, session: emulator.session, credentials: Self.ada)
        let (fetched, request) = try judgedPoll(1)
        XCTAssertTrue(request.query["since"] == nil && fetched == messages(in: 1), """
            A service polled room 1 (messages 1 and 3); then a new ChatCaveService was made (the app signed in again), \
            and its first poll of room 1 sent \(request.summary) and gave \(fetched.map(\.id)). This service has seen \
            nothing yet: no `since`, and all of room 1's messages. The newest ids belong to one service: keep them in a \
            stored property of the class (declared in ChatCaveService.swift — an extension cannot hold one), not in a \
            `static var` or a global variable, which every service shares. See LESSONS.md §7.5.
            """)
    }

    func test_fetchNewMessages_nextPoll_sendsSinceTheNewestMessageSeen() throws {
        seedConversation()
        _ = try setupPoll(1, "polling twice")
        emulator.seedMessage("Off topic", in: 2, from: "grace")
        emulator.seedMessage("Welcome, Ada", in: 1, from: "grace")
        emulator.clearRequests()
        _ = try poll(1)
        let request = try onlyRequest(from: Self.fetchNewMessages)
        XCTAssertEqual(request.query["since"], "3", """
            The second fetchNewMessages(inRoom: 1) sent \(request.summary). The first poll delivered messages 1 and 3, \
            so this one asks for what came after the newest: ?since=3 (a message id — not a count, not the oldest; \
            and as it is: the server sends the ids larger than since, so since=2 brings message 3 again). \
            See LESSONS.md §7.5.
            """)
    }

    func test_fetchNewMessages_acrossPolls_deliversEveryMessageExactlyOnce() throws {
        seedConversation()
        var delivered: [Message] = []
        delivered += try requireSuccess(try poll(1), of: Self.fetchNewMessages)
        delivered += try requireSuccess(try poll(1), of: Self.fetchNewMessages)  // nothing new
        // Issue 20 (the newest id forgotten when a poll fails, "to start over"): a refused poll changes nothing.
        emulator.inject(.httpError(status: 500, message: "the chat server is down"))
        _ = try poll(1)
        emulator.seedMessage("Off topic", in: 2, from: "grace")
        emulator.seedMessage("Welcome, Ada", in: 1, from: "grace")
        delivered += try requireSuccess(try poll(1), of: Self.fetchNewMessages)
        delivered += try requireSuccess(try poll(1), of: Self.fetchNewMessages)  // nothing new
        XCTAssertEqual(delivered.map(\.id), messages(in: 1).map(\.id), """
            Five polls of room 1 (the second brought nothing, the server refused the third with 500, new messages \
            arrived before the fourth) delivered message ids \(delivered.map(\.id)); room 1 holds \
            \(messages(in: 1).map(\.id)), and each must arrive once: remember the newest id delivered, and keep it when \
            a poll brings nothing and when one fails. Requests: \(summary). See LESSONS.md §7.5.
            """)
    }

    func test_fetchNewMessages_afterFetchMessages_asksOnlyForNewerOnes() throws {
        seedConversation()
        _ = try requireSuccess(try fetchMessages(1, setup: "polling after a fetch"), of: Self.fetchMessages, setup: "polling after a fetch")
        let (fetched, request) = try judgedPoll(1)
        XCTAssertTrue(request.query["since"] == "3" && fetched.isEmpty, """
            fetchMessages(inRoom: 1) delivered messages 1 and 3; the poll after it sent \(request.summary) and gave \
            \(fetched.map(\.id)). fetchMessages counts as seeing them: the poll asks ?since=3 and gets nothing new. \
            See LESSONS.md §7.5.
            """)
    }

    func test_fetchNewMessages_remembersEachRoomApart() throws {
        seedConversation()
        _ = try setupPoll(1, "polling two rooms")
        let (fetched, request) = try judgedPoll(2)
        XCTAssertTrue(request.query["since"] == nil && fetched == messages(in: 2), """
            After polling room 1, the first poll of room 2 sent \(request.summary) and gave \(fetched.map(\.id)). \
            Nothing has been seen in room 2 yet: no `since`, and all its messages (\(messages(in: 2).map(\.id))). \
            Keep the newest id per room. See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (since = the largest id seen in any room, "ids are numbered across rooms"): a room's since is its
    /// own newest, even when another room, polled since, holds larger ids.
    func test_fetchNewMessages_roomsPolledInTurn_eachAsksSinceItsOwnNewest() throws {
        seedConversation()
        _ = try setupPoll(2, "polling two rooms in turn")
        emulator.seedMessage("Still random", in: 2, from: "grace")
        emulator.seedMessage("Welcome, Ada", in: 1, from: "grace")
        _ = try setupPoll(1, "polling two rooms in turn")
        let (fetched, request) = try judgedPoll(2)
        XCTAssertTrue(request.query["since"] == "2" && fetched == messages(in: 2, after: 2), """
            Room 2 was polled (message 2), then messages 4 (room 2) and 5 (room 1) came, then room 1 was polled (up to \
            5). The next poll of room 2 sent \(request.summary) and gave \(fetched.map(\.id)): it must ask ?since=2, \
            the newest id seen in room 2 itself, and get message 4. The newest id of all rooms skips every message of \
            this room numbered below it. Keep and send the newest id per room. See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (the newest id remembered after calling success): a poll started from inside a poll's success —
    /// an app that polls again as soon as one ends — must already ask for what came after.
    func test_fetchNewMessages_pollFromInsideSuccess_asksSinceTheNewest() throws {
        seedConversation()
        let service = self.service!
        let inner = CallLog<[Message]>()
        // Signalled once the inner poll has started (or the outer call ended otherwise). Until then the main thread
        // runs no work of the main queue: an id remembered later, in DispatchQueue.main.async, is seen as later
        // every run, not only when the main queue happens to be slow.
        let innerStarted = DispatchSemaphore(value: 0)
        _ = try requireSuccess(try call(Self.fetchNewMessages, setup: "polling from inside a poll", quietMain: innerStarted) { log in
            service.fetchNewMessages(inRoom: 1, success: { messages in
                // The next poll starts while this success closure runs (on another thread, so that a service that
                // calls closures under its lock is not stuck here: that is §7.6's test).
                let started = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    service.fetchNewMessages(inRoom: 1, success: inner.success, failure: inner.failure)
                    started.signal()
                }
                _ = started.wait(timeout: .now() + 0.5)
                innerStarted.signal()
                log.success(messages)
            }, failure: { error in
                innerStarted.signal()
                log.failure(error)
            })
            if !StubLog.recorded.isEmpty { innerStarted.signal() }
        }, of: Self.fetchNewMessages, setup: "polling from inside a poll")
        _ = eventually { !inner.calls.isEmpty }
        let second = emulator.requests.dropFirst().first
        XCTAssertTrue(second?.query["since"] == "3", """
            A poll of room 1 delivered messages 1 and 3, and while its success closure ran the app polled again; that poll sent \
            \(second?.summary ?? "no request"). When success runs, the newest id it delivers must already be \
            remembered: ?since=3. Update the newest id first, then call success. See LESSONS.md §7.5.
            """)
    }

    /// A fetchMessages in flight while a poll runs (the room's screen opened again while polling goes on), its
    /// answer arriving after the poll's: that older answer must not move `since` back, or the next poll brings the
    /// poll's messages a second time. The emulator holds the fetch's answer until the poll has been answered, so the
    /// order is the same every run.
    func test_fetchNewMessages_anOlderAnswerArrivingLast_doesNotMoveSinceBack() throws {
        seedConversation()
        let service = self.service!
        var delivered = try setupPoll(1, "a fetch answered after a poll")
        emulator.holdResponses()
        let fetch = CallLog<[Message]>()
        let returned = Flag()
        let fetchID = Returned<RequestID>()
        let before = emulator.requests.count
        DispatchQueue.global().async {
            fetchID.set(service.fetchMessages(inRoom: 1, success: fetch.success, failure: fetch.failure))
            returned.set()
        }
        _ = eventually { (returned.isSet && emulator.requests.count > before) || !StubLog.recorded.isEmpty }
        let held = emulator.holdOnlyTheResponsesSoFar()
        defer { held.release() }
        if !StubLog.recorded.isEmpty { throw fail("stub") }
        guard returned.isSet, emulator.requests.count == before + 1 else {
            throw fail("""
                setup: a fetch answered after a poll needs fetchMessages(inRoom: 1) to send its request and return \
                while its answer is held; it \(returned.isSet ? "returned" : "did not return within 2 s"), and \
                requests were: \(summary). See LESSONS.md §7.5.
                """)
        }
        emulator.seedMessage("Welcome, Ada", in: 1, from: "grace")  // message 4
        let pollID = Returned<RequestID>()
        delivered += try requireSuccess(try call(Self.fetchNewMessages, setup: "a fetch answered after a poll") { log in
            pollID.set(service.fetchNewMessages(inRoom: 1, success: log.success, failure: log.failure))
        }, of: Self.fetchNewMessages, setup: "a fetch answered after a poll")
        held.release()
        // The poll cancelled the fetch in flight (tasks kept one per URL path), or both calls got one id (its task
        // replaced the fetch's): §7.6's tests name those, not this one.
        if emulator.requests[before].wasCancelled || fetchID.value == pollID.value { return }
        guard eventually({ !fetch.calls.isEmpty }), case .success = fetch.calls.first?.outcome else {
            throw fail("""
                setup: a fetch answered after a poll needs fetchMessages to succeed once its held answer is released; \
                it \(fetch.calls.first.map { "called \($0.outcome.described)" } ?? "called neither closure within 2 s"). \
                Requests: \(summary). See LESSONS.md §7.5.
                """)
        }
        let (fetched, request) = try judgedPoll(1)
        XCTAssertTrue(request.query["since"] == "4" && fetched.isEmpty, """
            Room 1 was polled (messages 1 and 3), then fetchMessages(inRoom: 1) was called, and while its answer \
            ([1, 3]) was on its way a second poll brought message 4. The fetch's answer came after that poll's; the next \
            poll sent \(request.summary) and gave \(fetched.map(\.id)) — polls delivered \
            \(delivered.map(\.id) + fetched.map(\.id)), and each message must arrive once. An answer that arrives late \
            moved the newest id back: remember the largest id ever delivered from the room — \
            max(the answer's newest, the one remembered) — not the last answer's. See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (the newest id kept as the query's String, and the largest taken with `max` on Strings, where
    /// "9" > "10"): ids are numbers, compared as numbers, also once they pass 9.
    func test_fetchNewMessages_idsPastNine_moveSinceForward() throws {
        seedTwoRooms(adaInRandom: true)
        for number in 1...9 { emulator.seedMessage("Message \(number)", in: 1, from: number % 2 == 0 ? "grace" : "ada") }
        _ = try setupPoll(1, "polling past id 9")
        emulator.seedMessage("Message 10", in: 1, from: "grace")
        emulator.seedMessage("Message 11", in: 1, from: "ada")
        _ = try setupPoll(1, "polling past id 9")
        let (fetched, request) = try judgedPoll(1)
        XCTAssertTrue(request.query["since"] == "11" && fetched.isEmpty, """
            Room 1 was polled twice: the first poll brought messages 1 to 9, the second 10 and 11. The third sent \
            \(request.summary) and gave \(fetched.map(\.id)); it asks ?since=11 and gets nothing new. Keep the newest id \
            as an Int and compare ids as numbers: as Strings, "9" > "11". See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (a poll whose failure is passed on as success([]), "nothing new"): a poll that fails says so.
    func test_fetchNewMessages_serverError_isAFailure() throws {
        seedConversation()
        emulator.inject(.httpError(status: 500, message: "the chat server is down"))
        let outcome = try poll(1)
        guard case .failure(.server(500, _)) = outcome else {
            return XCTFail("""
                The server answered 500 to the poll (\(summary)); fetchNewMessages called \(outcome.described). A poll \
                that fails calls failure(.server(…)), not success with []: "nothing new" and "could not ask" are \
                different news — the app shows the one, and retries or reports the other. See LESSONS.md §7.5.
                """)
        }
    }

    // MARK: postMessage

    func test_postMessage_POSTsTheTextToTheRoomsMessages() throws {
        seedConversation()
        _ = try postMessage("Hello from Swift", in: 2)
        let request = try onlyRequest(from: Self.postMessage)
        _ = try requireBody(of: request, from: Self.postMessage)  // says so when an upload task hid it (Darwin)
        XCTAssertTrue(request.method == "POST" && request.path == "/rooms/2/messages"
                      && request.bodyJSON?.objectValue?["text"]?.stringValue == "Hello from Swift", """
            postMessage("Hello from Swift", inRoom: 2) must POST <baseURL>/rooms/2/messages with the body \
            {"text": "Hello from Swift"} (the server makes the id); it sent \(request.summary). See LESSONS.md §7.5.
            """)
        if let wrong = FetchRoomsTests.wrongAuthorization(request, for: Self.ada) { XCTFail("postMessage: \(wrong) See LESSONS.md §7.2.") }
    }

    /// Issue 20 (postMessage on a request of its own, its body written by JSONSerialization, with no `Content-Type`):
    /// a body says what it is, as createRoom's does (§7.4).
    func test_postMessage_labelsItsBodyAsJSON() throws {
        seedConversation()
        _ = try postMessage("Hello from Swift", in: 2)
        let request = try onlyRequest(from: Self.postMessage)
        let type = request.header("Content-Type")
        XCTAssertTrue(type?.lowercased().hasPrefix("application/json") == true, """
            postMessage sent \(request.summary) with \(type.map { "Content-Type: \($0)" } ?? "no Content-Type header"). \
            A JSON body is labelled as one: `request.setValue("application/json", forHTTPHeaderField: "Content-Type")`, \
            as createRoom's is (§7.4) — a server reads an unlabelled body as no JSON at all. See LESSONS.md §7.5.
            """)
    }

    func test_postMessage_givesTheMessageTheServerMade() throws {
        seedConversation()
        let posted = try requireSuccess(try postMessage("Hello from Swift", in: 2), of: Self.postMessage)
        let made = Self.model(emulator.messages).last
        XCTAssertEqual(posted, made, """
            postMessage gave \(posted); the server made \(made.map { "\($0)" } ?? "nothing") — id 4, its time, \
            ada as its user. Decode the 201 answer as a Message. See LESSONS.md §7.5.
            """)
    }

    func test_fetchNewMessages_afterPosting_missesNothing() throws {
        seedConversation()
        _ = try setupPoll(2, "polling after posting")
        emulator.seedMessage("Grace was faster", in: 2, from: "grace")
        _ = try requireSuccess(try postMessage("Hello from Swift", in: 2), of: Self.postMessage)
        emulator.clearRequests()
        let fetched = try requireSuccess(try poll(2), of: Self.fetchNewMessages)
        XCTAssertEqual(fetched.map(\.id), [4, 5], """
            Room 2 was polled (message 2 seen), then grace posted message 4 and ada posted message 5 with \
            postMessage; the next poll sent \(summary) and gave \(fetched.map(\.id)). Posting does not count as \
            seeing: the poll must bring 4 and 5. See LESSONS.md §7.5.
            """)
    }

    func test_postMessage_notJoined_isServerError403() throws {
        seedConversation()
        let outcome = try postMessage("Let me in", in: 1)
        guard case .failure(.server(403, _)) = outcome else {
            return XCTFail("""
                ada has not joined room 1, so the server answered 403 (\(summary)); postMessage called \
                \(outcome.described). See LESSONS.md §7.5.
                """)
        }
    }

    /// One URLRequest kept in the service and changed for each call: a GET after a POST carries no body.
    func test_fetchMessages_afterPosting_sendsNoBody() throws {
        seedConversation()
        _ = try requireSuccess(try postMessage("Hello from Swift", in: 2), of: Self.postMessage)
        emulator.clearRequests()
        _ = try fetchMessages(2)
        let request = try onlyRequest(from: Self.fetchMessages)
        XCTAssertNil(request.body, """
            After postMessage, fetchMessages(inRoom: 2) sent \(request.summary) with the body \
            \(request.bodyText.map { $0.debugDescription } ?? "bytes"): a GET has no body. Build a new URLRequest for each call; one \
            kept in the service and changed for each keeps what the last call set (the POST's body and Content-Type). \
            URLRequest is a value: a copy is the call's own, and changing it changes no other. See LESSONS.md §7.3.
            """)
    }

    /// Once missed (postMessage's body written by string interpolation, or with its quotes escaped by hand, while
    /// createRoom's goes through JSONEncoder): a message's text arrives as it was written.
    func test_postMessage_textWithQuotesAndLineBreaks_arrivesIntact() throws {
        seedConversation()
        // Also missed once: a hand-written escaper that switches over Characters ("\r\n" is one Character, and
        // matches neither "\r" nor "\n"), the text trimmed, and & < > turned into HTML entities "against XSS".
        let text = "She said \"hi\" <3 & \\o/\r\nSecond line:\n    let café = \"☕️\"\n"
        let outcome = try postMessage(text, in: 2)
        if let sent = emulator.requests.last(where: { $0.method == "POST" }) {
            _ = try requireBody(of: sent, from: Self.postMessage)  // says so when an upload task hid it (Darwin)
        }
        let stored = emulator.messages.dropFirst(3).last?.text
        let body = emulator.requests.last(where: { $0.method == "POST" })?.bodyText ?? ""
        var changed = ""
        if stored == text.trimmingCharacters(in: .whitespacesAndNewlines) {
            changed = """
                 The line break at its end was trimmed: the service sends the text as the user wrote it (a message can \
                start with indented code and end with a line break).
                """
        } else if stored?.contains("&lt;") == true || stored?.contains("&amp;") == true {
            changed = """
                 The text came with HTML entities (&lt; &amp;) in it: escaping for HTML is the job of the code that shows \
                a message in a web page, not of the client that sends it — every other client now shows "&lt;3".
                """
        } else if stored == nil, body.contains("\r\n"), body.contains("\\n") {
            // Lone line breaks escaped (`\n` in the body), the Windows one sent raw.
            changed = """
                 The text has a Windows line break, "\\r\\n" — in Swift one Character, which matches neither "\\r" nor \
                "\\n" in a switch over the text's Characters: an escaper written that way leaves it raw, and the JSON breaks.
                """
        }
        XCTAssertEqual(stored, text, """
            postMessage(\(text.debugDescription), inRoom: 2) sent \(summary) and called \(outcome.described); the server \
            stored \(stored.map { "a message \($0.debugDescription)" } ?? "no message").\(changed) Let JSONEncoder (or \
            JSONSerialization) write the body {"text": …}, with the text as it is: JSON built by string interpolation — \
            or with only its quotes escaped by hand — breaks on the quotes, backslashes and line breaks that messages \
            have. See LESSONS.md §7.5.
            """)
    }

    /// Once missed (the newest id remembered under a "current room" property that each fetch sets, not under the
    /// call's own room): two rooms polled at once each remember their own newest id. The emulator holds both answers
    /// until both polls are in flight, so the order is the same every run.
    func test_fetchNewMessages_twoRoomsPolledAtOnce_eachRemembersItsOwn() throws {
        seedConversation()
        let (logs, ids) = try startPollsWhileHeld(of: [1, 2], untilSent: true)
        guard emulator.requests.count == 2, ids.allSatisfy({ $0.value != nil }) else {
            emulator.releaseHeldResponses()
            throw fail("""
                setup: polling two rooms at once needs each fetchNewMessages to send its request and return while its \
                answer is held; requests were: \(summary). See LESSONS.md §7.5.
                """)
        }
        emulator.releaseHeldResponses()
        // One poll cancelled the other (one task kept at a time), or both calls got one id: §7.6's tests name those.
        if emulator.requests.contains(where: \.wasCancelled) || ids[0].value == ids[1].value { return }
        guard eventually({ logs.allSatisfy { !$0.calls.isEmpty } }), logs.allSatisfy({ log in
            if case .success? = log.calls.first?.outcome { return true }
            return false
        }) else {
            throw fail("""
                setup: polling two rooms at once needs both polls to succeed; they called \
                \(logs.map { $0.calls.first.map(\.outcome.described) ?? "neither closure" }). Requests: \
                \(summary). See LESSONS.md §7.5.
                """)
        }
        let (_, first) = try judgedPoll(1)
        let (_, second) = try judgedPoll(2)
        XCTAssertTrue(first.query["since"] == "3" && second.query["since"] == "2", """
            Rooms 1 (messages 1 and 3) and 2 (message 2) were polled at once, both answers arriving after both polls \
            had started; the next poll of room 1 sent \(first.summary) and of room 2 \(second.summary). They must ask \
            ?since=3 and ?since=2: remember each answer's newest id under its own room — the roomID the call was made \
            with, which its closure captures — not under a "current room" property that the next call changes while \
            this one is in flight. See LESSONS.md §7.5.
            """)
    }

    /// Issue 20 (an assistant's "no overlapping polls": a poll of a room that has one on its way returns an id and
    /// calls nothing, "the poll in flight brings the news"): two polls of one room at once — a timer firing while the
    /// last poll is slow — are two calls, and each ends. The emulator holds both answers until both polls have
    /// returned, so the order is the same every run.
    func test_fetchNewMessages_twoPollsOfOneRoomAtOnce_eachEnds() throws {
        seedConversation()
        let (logs, ids) = try startPollsWhileHeld(of: [1, 1], untilSent: false)
        guard ids.allSatisfy({ $0.value != nil }) else {
            emulator.releaseHeldResponses()
            throw fail("""
                setup: two polls of room 1 at once need each fetchNewMessages to return while its answer is held; \
                \(ids.filter { $0.value == nil }.count) did not return within 2 s. Requests: \(summary). \
                See LESSONS.md §7.5.
                """)
        }
        let sent = emulator.requests.count
        emulator.releaseHeldResponses()
        _ = eventually { logs.allSatisfy { !$0.calls.isEmpty } }
        // Only a poll that sent nothing is judged here: one cancelled by the other, or both given one id, or a
        // request whose answer went astray (tasks kept by URL) — §7.6's tests name those.
        let silent = logs.indices.filter { logs[$0].calls.isEmpty }
        guard sent < 2, let index = silent.first else { return }
        XCTFail("""
            Two polls of room 1 were started at once (a timer firing while the last poll was still on its way); both \
            returned, but only \(sent) request reached the server, and poll \(index + 1) called neither closure within \
            2 s. Each call is a call like any other: it sends its own request and ends with success or failure — a \
            poll skipped "because another one of this room is on its way" leaves its caller waiting for ever (and one \
            kept as "in flight" after a cancel or a lost answer stops that room's polling for good). See LESSONS.md §7.5.
            """)
    }

    /// Holds the emulator's answers and starts one poll per room from a global queue, each once the one before has
    /// returned (and, with `untilSent`, sent its request), so the order is the same every run. The answers stay held.
    private func startPollsWhileHeld(
        of rooms: [Int], untilSent: Bool
    ) throws -> (logs: [CallLog<[Message]>], ids: [Returned<RequestID>]) {
        let service = self.service!
        emulator.holdResponses()
        let logs = rooms.map { _ in CallLog<[Message]>() }
        let ids = rooms.map { _ in Returned<RequestID>() }
        for (index, room) in rooms.enumerated() {
            let before = emulator.requests.count
            DispatchQueue.global().async {
                ids[index].set(service.fetchNewMessages(inRoom: room, success: logs[index].success, failure: logs[index].failure))
            }
            _ = eventually {
                (ids[index].value != nil && (!untilSent || emulator.requests.count > before)) || !StubLog.recorded.isEmpty
            }
            if !StubLog.recorded.isEmpty {
                emulator.releaseHeldResponses()
                throw fail("stub")
            }
        }
        return (logs, ids)
    }
}
