import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson8

/// §8.4: the listener against the kit's socket server. The test writes the stream's bytes itself and waits for
/// the listener's closures; "must not happen" checks wait 0.3 s.
final class ForumListenerTests: ListenerTestCase {
    private func snapshot() throws -> ServerSentEvent { Self.event("put", "/", try Self.forumJSON()) }

    /// Opens the stream and delivers the recorded snapshot; stops with "setup: …" when that fails.
    private func listeningWithSnapshot(file: StaticString = #filePath, line: UInt = #line) throws -> EventStream {
        let stream = try startListening(file: file, line: line)
        send([try snapshot()], on: stream)
        let first = try update(1, after: "setup: the snapshot (a put at \"/\")", file: file, line: line)
        guard first == (try Self.forumMessages()) else {
            throw fail("setup: after the snapshot, onUpdate got \(Self.describe(first)); expected the recorded forum's five messages, oldest first. See \(Self.listener.reference).",
                       file: file, line: line)
        }
        return stream
    }

    func test_start_opensTheStream_withOneGETOfTheMessages_acceptingEventStream() throws {
        try startListening()
        quietly(0.1)
        XCTAssertEqual(streamCount, 1, "start opened \(streamCount) streams; one listener needs one. See \(Self.listener.reference).")
    }

    func test_theSnapshot_isTheFirstUpdate() throws {
        let stream = try startListening()
        send([try snapshot()], on: stream)
        let got = try update(1, after: "the snapshot (a put at \"/\" of five messages)")
        let forum = try Self.forumMessages()
        if got != forum, got == forum.reversed() {
            throw fail("""
                After the snapshot, onUpdate got the five messages newest first: \(Self.describe(got)). Pass \
                model.messages on as it is, oldest first — the order the contract gives the app; how to show them (a \
                chat's newest at the bottom or at the top) is the app's choice. See \(Self.listener.reference).
                """)
        }
        XCTAssertEqual(got, forum, """
            After the snapshot, onUpdate got \(Self.describe(got)). The first event is the whole thread: apply it to \
            the model and pass model.messages on. See \(Self.listener.reference).
            """)
    }

    func test_anEventSplitAcrossPieces_isOneUpdate() throws {
        let stream = try startListening()
        let bytes = Self.wire([try snapshot()])
        // Three pieces 0.3 s apart, so that each is read on its own unless the machine stalls that long; each cut falls
        // inside a character (its UTF-8 bytes split between two pieces), as the network may cut: a piece is not text.
        func cut(from start: Int) -> Int { bytes.indices.first { $0 >= start && bytes[$0] & 0xC0 == 0x80 } ?? start }
        let first = cut(from: bytes.count / 3), second = cut(from: max(first + 1, 2 * bytes.count / 3))
        for (index, cut) in [(0, first), (first, second), (second, bytes.count)].enumerated() {
            if index > 0 { quietly(0.3) }
            send(bytes.subdata(in: cut.0..<cut.1), on: stream)
        }
        guard Self.waitUntil({ !self.received.updates.isEmpty || !self.received.ends.isEmpty }) else {
            throw fail("""
                The snapshot came in three pieces, 0.3 s apart, and onUpdate was never called: what came before the \
                last piece was lost. \
                Use one EventStreamParser for the whole stream (a property of the listener), not a new one for each \
                piece — nor a copy of it (`var parser = self.parser` taken under the lock: the parser is a struct, a \
                value, so what the copy keeps is lost unless you store it back): it keeps an unfinished event until the \
                rest arrives. And hand each piece to parse(_:) once: it is mutating — a second call (in a debugging \
                print of its events, say) takes the piece's events and feeds the same bytes again. See \(Self.listener.reference).
                """)
        }
        let got = try update(1, after: "the snapshot in three pieces")
        if let garbled = got.first(where: { $0.text.contains("\u{FFFD}") }) {
            throw fail("""
                The snapshot came in three pieces, each cut inside a character, and the update shows \
                \(Self.describe([garbled])): the halves of a character became U+FFFD (�). The piece was turned into \
                text before the parser saw it — hand the parser each piece's bytes (Data) as they came: it decodes a \
                line only once it is whole. See \(Self.listener.reference).
                """)
        }
        XCTAssertEqual(got, try Self.forumMessages(),
                       "The snapshot came in three pieces; the update should hold its five messages. See \(Self.listener.reference).")
    }

    func test_severalEventsInOnePiece_giveOneUpdateEach_inOrder() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        let edited = forum.map { ForumMessage(key: $0.key, text: "edited", sender: $0.sender, timestamp: $0.timestamp) }
        let events = [Self.event("put", "/\(forum[0].key)/text", #""edited""#), Self.event("patch", "/\(forum[1].key)", #"{"text":"edited"}"#)]
        send(events, on: stream)
        // The main thread stays busy while the piece is read (a sleep runs no queue): an update handed to the main
        // queue then runs once both events are applied — right when it carries the messages of its own event, wrong
        // when it reads the model there (`DispatchQueue.main.async { onUpdate(self.model.messages) }`).
        Thread.sleep(forTimeInterval: 0.3)
        _ = try update(3, after: "two events in one piece")
        let updates = received.updates
        if updates[1] == [edited[0]] {
            throw fail("""
                Two events that each edit one message came in one piece, and the first update after them holds only \
                the message that changed, \(Self.describe(updates[1])): onUpdate gets the whole thread every time — \
                model.messages, every message, oldest first — not what changed since the last update (the app shows \
                the list it is given). See \(Self.listener.reference).
                """)
        }
        if updates[1].count < forum.count {
            throw fail("""
                Two events that each edit one message came in one piece, and the first update after them holds \
                \(updates[1].count) of the thread's \(forum.count) messages: the snapshot's messages are gone. Keep one \
                ForumModel for the whole stream (a property of the listener), not a new one for each piece — nor a copy \
                of it (`var model = self.model`: the model is a struct, a value, so a copy's changes are lost unless you \
                store it back). See \(Self.listener.reference).
                """)
        }
        XCTAssertEqual(updates[1], [edited[0]] + forum.dropFirst(), """
            Two events came in one piece; the first update after the snapshot should show the first event applied \
            (and only it): each event its own update, in the order sent. See \(Self.listener.reference).
            """)
        XCTAssertEqual(updates[2], Array(edited.prefix(2)) + forum.dropFirst(2), "The second update should show both events applied. See \(Self.listener.reference).")
    }

    /// An app's onUpdate may take its time (a long thread to redraw): the next update waits for it, and the updates
    /// come in the order of the events. (Updates handed to DispatchQueue.global() or to a Task each ran side by side.)
    func test_updatesComeOneAtATime_inOrder_evenWhenTheAppIsSlow() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        let calls = received!
        calls.takeTime(0.2)
        // Three events, each in a piece of its own 0.05 s after the one before: the second and third arrive while the
        // app is still busy with the first update (pieces handed to a Task each were read side by side).
        for (index, message) in forum.prefix(3).enumerated() {
            if index > 0 { quietly(0.05) }
            send([Self.event("put", "/\(message.key)/text", "\"edit \(index + 1)\"")], on: stream)
        }
        guard Self.waitUntil({ calls.updates.count >= 4 || !calls.ends.isEmpty }, timeout: 3) else {
            if let skipped = calls.updates.dropFirst().first(where: { update in
                update.count == forum.count && update[2].text == "edit 3" && update[1].text != "edit 2"
            }) {
                throw fail("""
                    Three events came in three pieces, 0.05 s apart, while the app took 0.2 s over each update, and the \
                    second event was lost: an update shows the third applied and not the second, \
                    \(Self.describe(Array(skipped.prefix(3)))). A piece that came while the app was busy was dropped — a \
                    buffer that keeps only the newest (AsyncStream's `.bufferingNewest(n)`, or `.bufferingOldest(n)`) \
                    throws pieces away when the app is slow, and every piece holds bytes of the stream. Keep every piece \
                    (an AsyncStream's default, `.unbounded`), or parse on the delegate queue. See \(Self.listener.reference).
                    """)
            }
            throw fail("""
                Three events came, 0.05 s apart, while the app took 0.2 s over each update; \(calls.updates.count - 1) \
                update(s) came within 3 s, expected 3. See \(Self.listener.reference).
                """)
        }
        let atOnce = calls.mostUpdatesAtOnce
        if atOnce > 1 {
            throw fail("""
                onUpdate ran \(atOnce) times at once, not one at a time: three events came 0.05 s apart, and an update \
                began while the app was still busy with the one before (it took 0.2 s). Call the closures one after \
                another, in the order of the events: on the delegate queue, or handed to one serial queue \
                (DispatchQueue.main, the main actor) — not to DispatchQueue.global() or a Task each (for each update or \
                for each piece), which run side by side and may overtake each other. See \(Self.listener.reference).
                """)
        }
        var current = forum, expected: [[ForumMessage]] = []
        for index in 0..<3 {
            current[index] = ForumMessage(key: forum[index].key, text: "edit \(index + 1)", sender: forum[index].sender, timestamp: forum[index].timestamp)
            expected.append(current)
        }
        XCTAssertEqual(Array(calls.updates.dropFirst().prefix(3)), expected, """
            Three events came one after another; the updates should show them applied one by one, in the order they came. \
            Got \(calls.updates.dropFirst().map { Self.describe(Array($0.prefix(3))) }). See \(Self.listener.reference).
            """)
    }

    /// A put and the `cancel` after it in one piece: the put happened before the end, so the app sees it.
    func test_aPutAndACancelInOnePiece_giveTheUpdate_andTheEnd() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        send([Self.event("put", "/\(forum[0].key)", "null"), Self.cancel], on: stream)
        // The main thread stays busy while the piece is read, as in the test of two events in one piece: an update
        // handed to the main queue runs once the whole piece is read — right when it carries its own closure, wrong
        // when it reads `self.onUpdate` there, which the end has forgotten by then (a race without this wait).
        Thread.sleep(forTimeInterval: 0.3)
        let error = try end(after: "a put and a `cancel` in one piece", cause: Self.modelErrorEnds)
        XCTAssertEqual(error as? ForumStreamError, .cancelled, """
            After a put and a `cancel`, onEnd got \(error); expected ForumStreamError.cancelled: the error apply(_:) \
            threw is why the stream ended — pass it to onEnd as it is, not an error of your own. See \(Self.listener.reference).
            """)
        let calls = received!
        _ = Self.waitUntil({ calls.updates.count >= 2 }, timeout: 0.5)
        XCTAssertEqual(calls.updates.count, 2, """
            A put and then a `cancel` came in the same piece, and onUpdate was called \(calls.updates.count - 1) \
            time(s) after the snapshot: the put happened before the stream ended, so the app must see it. Report each \
            put or patch as it is applied, then the end. See \(Self.listener.reference).
            """)
        if calls.updates.count >= 2 {
            XCTAssertEqual(calls.updates[1], Array(forum.dropFirst()), "The put before the `cancel` deleted one message; the update should show the other four. See \(Self.listener.reference).")
        }
    }

    /// The end is the last thing the app hears: a put before a `cancel` in the same piece reaches the app before the
    /// end, on whatever queue the listener reports. (The main thread sleeps while the piece is read, as in the test of
    /// two events in one piece: an update handed to the main queue then waits, and an end reported at once overtook it.)
    func test_theEnd_comesAfterTheUpdatesBeforeIt() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        send([Self.event("put", "/\(forum[0].key)", "null"), Self.cancel], on: stream)
        Thread.sleep(forTimeInterval: 0.3)
        _ = try end(after: "a put and a `cancel` in one piece", cause: Self.modelErrorEnds)
        let calls = received!
        _ = Self.waitUntil({ calls.updates.count >= 2 }, timeout: 0.5)
        if calls.updates.count >= 2, let before = calls.updatesBeforeEachEnd.first, before < 2 {
            throw fail("""
                A put and then a `cancel` came in one piece, and onEnd was called before the put's update: the app \
                heard the stream was over (and may have stopped the listener), then got an update. Report in the order \
                of the events: when you hand the updates to a queue (DispatchQueue.main, the main actor), hand the end \
                to the same queue too — not straight from the delegate queue. See \(Self.listener.reference).
                """)
        }
    }

    /// The stream is over at its end: an event after a `cancel` (in the same piece) is not reported, not even when
    /// the server sends one.
    func test_nothingIsReported_afterTheEnd() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        send([Self.cancel, Self.event("put", "/\(forum[0].key)", "null")], on: stream)
        _ = try end(after: "a `cancel` and then a put in one piece", cause: Self.modelErrorEnds)
        quietly(0.3)
        let calls = received!
        XCTAssertEqual(calls.updates.count, 1, """
            A `cancel` and then a put came in one piece, and onUpdate was called \(calls.updates.count - 1) time(s) \
            after onEnd: the stream is over at its end — stop reading the piece there (return from the loop), and \
            forget both closures, not only onEnd. See \(Self.listener.reference).
            """)
        XCTAssertEqual(calls.ends.count, 1, "After a `cancel`, onEnd was called \(calls.ends.count) times (\(calls.ends.map { "\($0)" })); the stream ends once. See \(Self.listener.reference).")
    }

    /// Every message deleted (a put of null at "/"): the app must see the thread empty, not go on showing the old
    /// messages.
    func test_aThreadEmptied_givesAnEmptyUpdate() throws {
        let stream = try listeningWithSnapshot()
        send([Self.event("put", "/", "null")], on: stream)
        let calls = received!
        guard Self.waitUntil({ calls.updates.count >= 2 || !calls.ends.isEmpty }), calls.updates.count >= 2 else {
            throw fail("""
                Every message was deleted (a put of null at "/"), and onUpdate was not called within \
                \(Int(Self.wait)) s (onEnd: \(calls.ends.map { "\($0)" })): the app goes on showing the old messages. An \
                update with no messages is still an update: pass model.messages on after each put or patch, even \
                when it is empty. See \(Self.listener.reference).
                """)
        }
        XCTAssertEqual(calls.updates[1], [], "After a put of null at \"/\", the update held \(Self.describe(calls.updates[1])); expected no messages. See \(Self.listener.reference).")
    }

    func test_keepAlive_givesNoUpdate_andDoesNotEndTheStream() throws {
        let stream = try listeningWithSnapshot()
        send([Self.keepAlive, Self.keepAlive], on: stream)
        let forum = try Self.forumMessages()
        send([Self.event("put", "/\(forum[0].key)", "null")], on: stream)
        let calls = received!
        let afterPut = Array(forum.dropFirst())
        // Waits for the put's update itself, so extra updates before it are all in by then.
        guard Self.waitUntil({ calls.updates.contains(afterPut) || !calls.ends.isEmpty }) else {
            throw fail("""
                Two keep-alive events and then a put deleting one message came; within \(Int(Self.wait)) s no update \
                showed that put (\(calls.updates.count) update(s) in all). See \(Self.listener.reference).
                """)
        }
        XCTAssertTrue(calls.ends.isEmpty, "After keep-alive events, onEnd got \(calls.ends.map { "\($0)" }): a keep-alive only keeps the connection open. See \(Self.listener.reference).")
        XCTAssertEqual(calls.updates.count, 2, """
            Two keep-alive events and a put came; onUpdate was called \(calls.updates.count - 1) times after the \
            snapshot. A keep-alive is not data: no update. See \(Self.listener.reference).
            """)
    }

    /// Firebase may add event names: one the model does not know changes nothing (§8.3), so it is no update either —
    /// onUpdate follows a put or a patch, not every event but keep-alive.
    func test_anUnknownEvent_givesNoUpdate() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        send([ServerSentEvent(name: "rules_debug", data: #"{"path":"/","data":null}"#)], on: stream)
        send([Self.event("put", "/\(forum[0].key)", "null")], on: stream)
        let calls = received!
        let afterPut = Array(forum.dropFirst())
        // Waits for the put's update itself, so an extra update before it is in by then.
        guard Self.waitUntil({ calls.updates.contains(afterPut) || !calls.ends.isEmpty }) else {
            throw fail("""
                An event named `rules_debug` and then a put deleting one message came; within \(Int(Self.wait)) s no \
                update showed that put (\(calls.updates.count) update(s) in all, onEnd: \(calls.ends.map { "\($0)" })). \
                See \(Self.listener.reference).
                """)
        }
        XCTAssertTrue(calls.ends.isEmpty, "After an event named `rules_debug`, onEnd got \(calls.ends.map { "\($0)" }): an event the model does not know changes nothing, and the stream goes on. See \(Self.listener.reference).")
        XCTAssertEqual(calls.updates.count, 2, """
            An event named `rules_debug` (one the model does not know, so it changes nothing) and a put came; onUpdate \
            was called \(calls.updates.count - 1) times after the snapshot. Call onUpdate after a put or a patch only — \
            not after every event but keep-alive. See \(Self.listener.reference).
            """)
    }

    func test_cancel_endsWithCancelled_closesTheStream_andDoesNotReconnect() throws {
        let stream = try listeningWithSnapshot()
        send([Self.cancel], on: stream)
        let error = try end(after: "a `cancel` event", cause: Self.modelErrorEnds)
        XCTAssertEqual(error as? ForumStreamError, .cancelled, "After `cancel`, onEnd got \(error); expected ForumStreamError.cancelled. See \(Self.listener.reference).")
        XCTAssertTrue(waitForClose(of: stream), """
            After `cancel`, the listener kept the connection open: the server will send nothing more on it. Cancel \
            the task when the stream ends. See \(Self.listener.reference).
            """)
        quietly(0.3)
        XCTAssertEqual(received.ends.count, 1, "After `cancel`, onEnd was called \(received.ends.count) times (\(received.ends.map { "\($0)" })); the stream ends once: report it once. See \(Self.listener.reference).")
        XCTAssertEqual(streamCount, 1, """
            After `cancel`, the listener opened the stream again: the rules no longer let it read, so it would only \
            be refused again. Report the end with onEnd and let the app decide. See \(Self.listener.reference).
            """)
    }

    func test_authRevoked_endsWithAuthRevoked_andClosesTheStream() throws {
        let stream = try listeningWithSnapshot()
        send([Self.authRevoked], on: stream)
        let error = try end(after: "an `auth_revoked` event", cause: Self.modelErrorEnds)
        XCTAssertEqual(error as? ForumStreamError, .authRevoked("credential is no longer valid"),
                       "After `auth_revoked`, onEnd got \(error); expected ForumStreamError.authRevoked(reason). See \(Self.listener.reference).")
        XCTAssertTrue(waitForClose(of: stream), "After `auth_revoked`, the listener kept the connection open. Cancel the task. See \(Self.listener.reference).")
    }

    func test_stop_closesTheStream() throws {
        let stream = try listeningWithSnapshot()
        listener.stop()
        let closed = waitForClose(of: stream)
        if taskStates().contains(.suspended) {
            throw fail("""
                After stop(), the listener's task is suspended, not cancelled: suspend() pauses a task and keeps it, \
                its connection too (Linux's URLSession happens to close it; on macOS the server goes on sending to \
                nobody), and it can be resumed. Stop for good with `task.cancel()`. See \(Self.listener.reference).
                """)
        }
        XCTAssertTrue(closed, """
            After stop(), the server still had the stream open \(Int(Self.wait)) s later: the task goes on until it \
            is cancelled (`task.cancel()`), and the server keeps sending to nobody. See \(Self.listener.reference).
            """)
    }

    func test_afterStop_neitherClosureIsCalled() throws {
        let stream = try listeningWithSnapshot()
        listener.stop()
        send([Self.event("put", "/", "null")], on: stream)
        quietly(0.3)
        let calls = received!
        // One message for both closures: which of them fires after stop() is a race (the event or the cancel first),
        // and the mistake is the same.
        var called: [String] = []
        if calls.updates.count > 1 { called.append("onUpdate \(calls.updates.count - 1) more time\(calls.updates.count == 2 ? "" : "s")") }
        if !calls.ends.isEmpty { called.append("onEnd with \(calls.ends.map { "\($0)" })") }
        XCTAssertTrue(called.isEmpty, """
            After stop(), the listener still called \(called.joined(separator: " and ")): what comes after stop() is not \
            news to the app that asked for it — neither an event still in the pipe nor the cancelled task's own end \
            (URLError.cancelled). In stop(), forget both closures, then cancel. See \(Self.listener.reference).
            """)
    }

    /// An app that cleans up when the stream ends calls stop() from inside onEnd (the board, too, stops a listener
    /// whose stream has ended when it leaves the thread).
    func test_stopCalledFromOnEnd_returns_andNothingMoreIsCalled() throws {
        let stream = try listeningWithSnapshot()
        let listener = self.listener!
        let stopped = Flag()
        received.whenEnded { listener.stop(); stopped.set() }
        send([Self.cancel], on: stream)
        _ = try end(after: "a `cancel` event (the app's onEnd then calls stop())")
        guard Self.waitUntil({ stopped.isSet }) else {
            throw fail("""
                The app called stop() from inside onEnd (cleaning up when the stream ends), and stop() had not returned \
                \(Int(Self.wait)) s later: the listener calls onEnd while it holds its lock (or inside its queue's \
                sync { }), so stop() waits for itself. Take what you need under the lock, let go of it, then call the \
                closure. See \(Self.listener.reference).
                """)
        }
        quietly(0.3)
        XCTAssertEqual(received.ends.count, 1, "The stream ended and the app called stop() from onEnd; onEnd was called \(received.ends.count) times (\(received.ends.map { "\($0)" })): after that, nothing more. See \(Self.listener.reference).")
    }

    /// An app may stop listening from inside onUpdate (it leaves the thread when an update says so).
    func test_stopCalledFromOnUpdate_returns() throws {
        let stream = try startListening()
        let listener = self.listener!
        let stopped = Flag()
        received.whenUpdated { listener.stop(); stopped.set() }
        send([try snapshot()], on: stream)
        _ = try update(1, after: "the snapshot (the app's onUpdate then calls stop())")
        guard Self.waitUntil({ stopped.isSet }) else {
            throw fail("""
                The app called stop() from inside onUpdate, and stop() had not returned \(Int(Self.wait)) s later: the \
                listener calls onUpdate while it holds its lock (or inside its queue's sync { }), so stop() waits for \
                itself. Take model.messages and the closure under the lock, let go of it, then call onUpdate. See \(Self.listener.reference).
                """)
        }
    }

    /// The connection lost in the middle of the stream (the server went away without ending the response): a
    /// transport error, which ends the stream too.
    func test_aLostConnection_endsItOnce() throws {
        let stream = try listeningWithSnapshot()
        stream.cancel()
        let calls = received!
        guard Self.waitUntil({ !calls.ends.isEmpty || self.streamCount > 1 }), !calls.ends.isEmpty else {
            throw fail("""
                The connection was lost in the middle of the stream (the server dropped it without ending the \
                response), and onEnd was not called within \(Int(Self.wait)) s\(streamCount > 1 ? " (the listener opened the stream again instead)" : ""): \
                a transport error ends the stream too. urlSession(_:task:didCompleteWithError:) gets it (a URLError): \
                report it with onEnd — only your own cancel's URLError.cancelled, after stop(), is no news. See \(Self.listener.reference).
                """)
        }
        quietly(0.3)
        XCTAssertEqual(calls.ends.count, 1, "After the connection was lost, onEnd was called \(calls.ends.count) times (\(calls.ends.map { "\($0)" })); the stream ends once: report it once. See \(Self.listener.reference).")
        XCTAssertEqual(streamCount, 1, "After the connection was lost, the listener opened the stream again; report the end and let the app decide. See \(Self.listener.reference).")
    }

    func test_theServerClosingTheStream_endsItOnce() throws {
        let stream = try listeningWithSnapshot()
        stream.finish()
        _ = Self.waitUntil { !self.received.ends.isEmpty || self.streamCount > 1 }
        if received.ends.isEmpty, streamCount > 1 {
            throw fail("""
                The server closed the stream, and the listener opened it again instead of calling onEnd (a browser's \
                EventSource reconnects by itself; this listener must not): report the end once and let the app decide. \
                See \(Self.listener.reference).
                """)
        }
        let error = try end(after: "the server closed the stream")
        XCTAssertEqual(error as? ForumStreamError, .closed, """
            The server closed the stream (the task ended without an error), and onEnd got \(error); expected \
            ForumStreamError.closed. No error is no `cancel`: the rules did not change, the connection was only closed — \
            report what happened (`end(error ?? ForumStreamError.closed)`). See \(Self.listener.reference).
            """)
        quietly(0.3)
        XCTAssertEqual(received.ends.count, 1, "onEnd was called \(received.ends.count) times; it must be called once. See \(Self.listener.reference).")
        XCTAssertEqual(streamCount, 1, "After the server closed the stream, the listener opened it again; report the end and let the app decide. See \(Self.listener.reference).")
    }

    /// A stream that ends in the middle of an event: the event never got its blank line, so it never happened.
    func test_anEventCutOffByTheClose_isNotApplied() throws {
        let stream = try listeningWithSnapshot()
        let forum = try Self.forumMessages()
        send(Data("event: put\ndata: {\"path\":\"/\(forum[0].key)\",\"data\":null}\n".utf8), on: stream)
        quietly(0.3)
        stream.finish()
        _ = try end(after: "the server closed the stream in the middle of an event (its blank line never came)")
        quietly(0.3)
        XCTAssertEqual(received.updates.count, 1, """
            The server closed the stream before the blank line of a put, and onUpdate was called \
            \(received.updates.count - 1) more time(s): an event without its blank line was never sent whole — drop it \
            (do not feed the parser a blank line at the end). See \(Self.listener.reference).
            """)
        XCTAssertEqual(received.ends.count, 1, "onEnd was called \(received.ends.count) times; it must be called once. See \(Self.listener.reference).")
    }

    func test_aRefusal_endsWithItsStatus() throws {
        refuseStreams()
        let calls = received!
        listener.start(onUpdate: { calls.update($0) }, onEnd: { calls.end($0) })
        try requireStarted()
        let error = try end(after: "the server answered the GET with 401 Permission denied")
        XCTAssertEqual(error as? ForumStreamError, .httpStatus(401), """
            The server refused the stream with 401, and onEnd got \(error). URLSession counts a 401 as a successful \
            transfer: look at the response's status in urlSession(_:dataTask:didReceive:completionHandler:) and end \
            with ForumStreamError.httpStatus(status) when it is not 200. See \(Self.listener.reference).
            """)
        XCTAssertTrue(calls.updates.isEmpty, "After a 401, onUpdate got \(calls.updates.count) update(s): the body is Firebase's error, not events. See \(Self.listener.reference).")
        quietly(0.3)
        XCTAssertEqual(calls.ends.count, 1, """
            After the 401, onEnd was called \(calls.ends.count) times; the stream ends once: report it once (the task you \
            cancel ends too, in urlSession(_:task:didCompleteWithError:)). See \(Self.listener.reference). onEnd got: \
            \(calls.ends.map { "\($0)" }).
            """)
        XCTAssertEqual(requestCount, 1, "After the 401, the listener asked again (\(requestCount) requests): report the end and let the app decide. See \(Self.listener.reference).")

        // Any status but 200 refuses the stream, not only Permission denied: a second listener, answered 503.
        refuseStreams(status: 503, message: "Service Unavailable")
        let (other, otherCalls) = anotherListener()
        other.start(onUpdate: { otherCalls.update($0) }, onEnd: { otherCalls.end($0) })
        guard Self.waitUntil({ !otherCalls.ends.isEmpty }), let refused = otherCalls.ends.first,
              (refused as? ForumStreamError) == .httpStatus(503) else {
            throw fail("""
                The server refused the stream with 503 Service Unavailable, and onEnd got \
                \(otherCalls.ends.first.map { "\($0)" } ?? "nothing within \(Int(Self.wait)) s"); expected \
                ForumStreamError.httpStatus(503). Every status other than 200 refuses the stream — not only 401 or \
                403: end with httpStatus(status) whenever it is not 200. See \(Self.listener.reference).
                """)
        }
    }

    /// Calls the listener's urlSession(_:dataTask:didReceive:completionHandler:) itself, with the stream's own task and
    /// a response of `status`; returns what reads the dispositions its completion handler got so far (nil on Apple
    /// platforms when the method is not written at all: URLSession then lets the response go on by itself).
    private func callResponseMethod(status: Int, contentType: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> (() -> [URLSession.ResponseDisposition])? {
        let lock = NSLock()
        var dispositions: [URLSession.ResponseDisposition] = []
        let task = Self.allTasks(of: listener.session).compactMap { $0 as? URLSessionDataTask }.first
        guard let task = task, let url = task.originalRequest?.url,
              let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                             headerFields: ["Content-Type": contentType]) else {
            throw fail("setup: the listener's session holds no data task once the stream is open. See \(Self.listener.reference).",
                       file: file, line: line)
        }
        let delegate: URLSessionDataDelegate = listener
        let handler: (URLSession.ResponseDisposition) -> Void = { disposition in
            lock.lock(); dispositions.append(disposition); lock.unlock()
        }
        #if canImport(FoundationNetworking)
        delegate.urlSession(listener.session, dataTask: task, didReceive: response, completionHandler: handler)
        #else
        guard delegate.urlSession?(listener.session, dataTask: task, didReceive: response, completionHandler: handler) != nil else { return nil }
        #endif
        return { lock.lock(); defer { lock.unlock() }; return dispositions }
    }

    /// Linux's URLSession ignores the response's disposition, so a listener that never calls the completion handler of
    /// urlSession(_:dataTask:didReceive:completionHandler:) works here — and hangs on macOS, where the task waits for
    /// it. The test calls that method itself with the stream's own task and a 200, and waits for `.allow`.
    func test_aStreamThatOpens_isLetGoOn_withAllow() throws {
        try startListening()
        guard let dispositions = try callResponseMethod(status: 200, contentType: "text/event-stream; charset=utf-8") else { return }
        let called = Self.waitUntil { !dispositions().isEmpty }
        let got = dispositions()
        if !called {
            throw fail("""
                Given the stream's response, 200 text/event-stream, urlSession(_:dataTask:didReceive:completionHandler:) \
                did not call its completionHandler within \(Int(Self.wait)) s. Let a 200 go on with \
                `completionHandler(.allow)`: Linux's URLSession ignores the disposition and goes on, but on macOS the \
                task waits for it forever and no event ever arrives. See \(Self.listener.reference).
                """)
        }
        XCTAssertEqual(got, [.allow], """
            Given the stream's response, 200 text/event-stream, the completion handler got \(got); expected one \
            `completionHandler(.allow)`: a 200 is the stream opening. See \(Self.listener.reference).
            """)
    }

    func test_onTheFirebaseEmulator_aPostedMessageArrives() throws {
        let (firebase, other) = try listenToFirebase()
        let calls = ListenerCalls()
        other.start(onUpdate: { calls.update($0) }, onEnd: { calls.end($0) })
        try requireStarted()
        let forum = try Self.forumMessages()
        guard Self.waitUntil({ !calls.updates.isEmpty || !calls.ends.isEmpty }), calls.updates.first == forum else {
            // This listener's configuration (.ephemeral) adds no headers: the request carries only what start sets on it.
            if let request = firebase.requests.first, !(request.header("Accept") ?? "").contains("text/event-stream") {
                throw fail("""
                    start's GET reached the kit's Firebase emulator without `Accept: text/event-stream`, so Firebase \
                    answered once with JSON and closed (onEnd: \(calls.ends.map { "\($0)" })). Set the header on the \
                    URLRequest you make the task with, not on `session.configuration` once the session is made: on Apple \
                    platforms that is a copy the session never reads, and this listener's (made from `.ephemeral`) has \
                    no httpAdditionalHeaders for `?["Accept"] = …` to change. The request: \(request.summary). \
                    See \(Self.listener.reference).
                    """)
            }
            throw fail("setup: on the kit's Firebase emulator, the first update was \(calls.updates.first.map(Self.describe) ?? "never called") (onEnd: \(calls.ends.map { "\($0)" })); expected the recorded forum's five messages. See \(Self.listener.reference).")
        }
        var request = URLRequest(url: firebase.baseURL.appendingPathComponent("\(ScriptedForum.threadID)/messages.json"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"sender":"Fay","text":"Posted elsewhere","timestamp":750000050}"#.utf8)
        firebase.session.dataTask(with: request).resume()
        guard Self.waitUntil({ calls.updates.count >= 2 }), let after = calls.updates.last else {
            throw fail("Another client POSTed a message, and onUpdate was not called within \(Int(Self.wait)) s (onEnd: \(calls.ends.map { "\($0)" })). See \(Self.listener.reference).")
        }
        XCTAssertEqual(after.map(\.text), forum.map(\.text) + ["Posted elsewhere"], """
            Another client POSTed a message (Firebase sends a put at its new push ID); the update should hold the five \
            messages and the new one, last. Got \(Self.describe(after)). See \(Self.listener.reference).
            """)
    }

    /// A refusal's completion handler is called once at most (or not at all: only `task.cancel()` ends a refused
    /// stream on both platforms) — a missing `return` after refusing falls through to `.allow` and calls it twice. The
    /// test calls the method itself with the stream's own task and a 401.
    func test_aRefusal_callsTheCompletionHandlerOnceAtMost() throws {
        try startListening()
        guard let dispositions = try callResponseMethod(status: 401, contentType: "application/json; charset=utf-8") else { return }
        quietly(0.3)
        let got = dispositions()
        if got.count > 1 {
            throw fail("""
                Given a 401 response, urlSession(_:dataTask:didReceive:completionHandler:) called its completion handler \
                twice: \(got.map { $0 == .allow ? ".allow" : $0 == .cancel ? ".cancel" : "\($0.rawValue)" }). A \
                completion handler is called once: after refusing (`.cancel`, and the end), `return` — without it the \
                method goes on to `completionHandler(.allow)` as for a 200. See \(Self.listener.reference).
                """)
        }
    }
}
