import Foundation
import XCTest
import LabTestSupport
import Lesson8

/// §8.3: the model, without a server — events in, messages out.
final class ForumModelTests: Lesson8TestCase {
    /// A model that has applied the recorded forum's snapshot; stops with "setup: …" when that fails.
    private func modelWithSnapshot(file: StaticString = #filePath, line: UInt = #line) throws -> ForumModel {
        var model = ForumModel()
        try apply(Self.event("put", "/", try Self.forumJSON()), to: &model, setup: true, file: file, line: line)
        let expected = try Self.forumMessages()
        try requireReferenceEpoch(model.messages, expected, after: "setup: the snapshot", file: file, line: line)
        guard model.messages == expected else {
            throw fail("""
                setup: after the snapshot (a put at "/" of the recorded forum's five messages), messages is \
                \(Self.describe(model.messages)); expected \(Self.describe(expected)). The first put at "/" is the \
                whole data of the location: keep it. See \(Self.model.reference).
                """, file: file, line: line)
        }
        return model
    }

    private func apply(_ event: ServerSentEvent, to model: inout ForumModel, setup: Bool = false,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        do {
            try model.apply(event)
        } catch {
            try requireStarted(file: file, line: line)
            if case ForumStreamError.malformedEvent = error,
               let payload = try? JSONDecoder().decode(StreamPayload.self, from: Data(event.data.utf8)), payload.data.objectValue == nil {
                throw fail("""
                    \(setup ? "setup: " : "")apply(_:) threw \(error) for a \(event.name) whose data is \(Self.kind(of: payload.data)), \
                    not an object: a put's or patch's data may be any JSON value — an object, a string, a number, null. \
                    Decode the event's data as the given StreamPayload (its `data` is a JSON), not as a type whose data \
                    must be an object. See \(Self.model.reference). (The event: \(event).)
                    """, file: file, line: line)
            }
            throw fail("\(setup ? "setup: " : "")apply(_:) threw \(error) for the event \(event). A put or patch with {\"path\", \"data\"} is a change to apply, not an error. See \(Self.model.reference).",
                       file: file, line: line)
        }
        _ = model.messages
        try requireStarted(file: file, line: line)
    }

    /// "a string", "null"…: a JSON value's kind, in a message.
    static func kind(of value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a Bool"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Fails naming the epoch when `got` is `expected` with every timestamp read as seconds since 1970.
    private func requireReferenceEpoch(_ got: [ForumMessage], _ expected: [ForumMessage], after what: String,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let shift = Date.timeIntervalBetween1970AndReferenceDate
        guard !got.isEmpty, got.map(\.key) == expected.map(\.key), zip(got, expected).allSatisfy({
            abs($1.timestamp.timeIntervalSince($0.timestamp) - shift) < 0.001 && $0.text == $1.text
        }) else { return }
        throw fail("""
            After \(what), every message's timestamp is \(Int(shift)) s (31 years) too early: it was read as seconds \
            since 1970 (Date(timeIntervalSince1970:)). The thread's timestamps count from 1 January 2001, as \
            JSONEncoder writes a Date — Date(timeIntervalSinceReferenceDate:), which ForumMessage(key:json:) does for \
            you. See \(Self.model.reference).
            """, file: file, line: line)
    }

    /// Fails naming the order when `got` holds `expected`'s messages but not sorted by timestamp.
    private func requireOldestFirst(_ got: [ForumMessage], _ expected: [ForumMessage], after what: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        guard got.count == expected.count, expected.allSatisfy({ got.contains($0) }),
              zip(got, got.dropFirst()).contains(where: { $0.timestamp > $1.timestamp }) else { return }
        throw fail("""
            After \(what), messages holds the right \(got.count), in the wrong order: \(Self.describe(got)). Sort \
            them by timestamp, oldest first (push IDs need not be in time order: each client sets its own clock; a \
            dictionary has no order at all). Comparing two things? Look at the key only when the timestamps are equal: \
            `($0.timestamp, $0.key) < ($1.timestamp, $1.key)` — `$0.timestamp < $1.timestamp || $0.key < $1.key` is no \
            order (for two messages it may say each comes first). See \(Self.model.reference).
            """, file: file, line: line)
    }

    /// Fails naming Float when `got` holds `expected`'s messages with every timestamp as a Float would keep it (about
    /// 7 digits: 750000035.25 s is 750000064 s), some of them changed by that.
    private func requireDoubleTimestamps(_ got: [ForumMessage], _ expected: [ForumMessage], after what: String,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let byKey = Dictionary(expected.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        func asFloat(_ date: Date) -> TimeInterval { TimeInterval(Float(date.timeIntervalSinceReferenceDate)) }
        guard got.count == expected.count, !got.isEmpty, got.allSatisfy({ message in
            byKey[message.key].map { $0.text == message.text && message.timestamp.timeIntervalSinceReferenceDate == asFloat($0.timestamp) } ?? false
        }), let off = got.first(where: { byKey[$0.key]?.timestamp != $0.timestamp }), let right = byKey[off.key] else { return }
        throw fail("""
            After \(what), messages shows \(Self.describe([off])), expected \(Self.describe([right])): every timestamp \
            was kept as a Float, which holds about 7 digits — seconds since 2001 need 9 and a fraction, so a Float is \
            off by up to a minute. A timestamp is seconds as a Double (TimeInterval): keep it a Double all the way. \
            See \(Self.model.reference).
            """, file: file, line: line)
    }

    /// Fails naming the timestamps when `got` holds `expected`'s messages, in its order, with every timestamp wrong: read
    /// in another unit or from another epoch (milliseconds since 1970, Firebase's ServerValue.TIMESTAMP, say).
    private func requireTimestampsAsSecondsSince2001(_ got: [ForumMessage], _ expected: [ForumMessage], after what: String,
                                                     file: StaticString = #filePath, line: UInt = #line) throws {
        guard !got.isEmpty, got.count == expected.count, zip(got, expected).allSatisfy({
            $0.key == $1.key && $0.text == $1.text && $0.sender == $1.sender && $0.timestamp != $1.timestamp
        }) else { return }
        throw fail("""
            After \(what), every timestamp is wrong: \(Self.describe([got[0]])), expected \(Self.describe([expected[0]])). \
            The thread's timestamps are seconds since 1 January 2001, as a Double (JSONEncoder's default for a Date): \
            Date(timeIntervalSinceReferenceDate: seconds), which ForumMessage(key:json:) does for you — not Unix time, \
            not milliseconds (.millisecondsSince1970 is Firebase's ServerValue.TIMESTAMP; this thread's are not). See \(Self.model.reference).
            """, file: file, line: line)
    }

    /// Fails naming `mistake` unless `model.messages` is `expected`.
    private func expect(_ model: ForumModel, _ expected: [ForumMessage], after what: String, mistake: String,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let got = model.messages
        guard got != expected else { return }
        try requireReferenceEpoch(got, expected, after: what, file: file, line: line)
        try requireOldestFirst(got, expected, after: what, file: file, line: line)
        try requireDoubleTimestamps(got, expected, after: what, file: file, line: line)
        if got.count == expected.count, let cut = zip(got, expected).first(where: { got, expected in
            got.key == expected.key && got.text == expected.text && got.timestamp != expected.timestamp
                && got.timestamp.timeIntervalSinceReferenceDate == expected.timestamp.timeIntervalSinceReferenceDate.rounded(.down)
        }) {
            throw fail("""
                After \(what), messages shows \(Self.describe([cut.0])), expected \(Self.describe([cut.1])): a timestamp \
                with a fraction of a second was cut to whole seconds. A timestamp is seconds as a Double — JSONEncoder \
                writes a Date with its fraction — so read it as a Double (`as? Double`, NSNumber's doubleValue), not as \
                an Int (`intValue`, `Int(…)`). See \(Self.model.reference).
                """, file: file, line: line)
        }
        try requireTimestampsAsSecondsSince2001(got, expected, after: what, file: file, line: line)
        let missing = expected.filter { !got.contains($0) }
        if !missing.isEmpty, missing.allSatisfy({ $0.timestamp.timeIntervalSinceReferenceDate.rounded() != $0.timestamp.timeIntervalSinceReferenceDate }),
           got == expected.filter({ got.contains($0) }) {
            throw fail("""
                After \(what), messages lacks \(Self.describe(missing)): a timestamp with a fraction of a second. A \
                timestamp is seconds as a Double — JSONEncoder writes a Date with its fraction — so read it as a \
                number (Double), not an Int. See \(Self.model.reference).
                """, file: file, line: line)
        }
        // The diagnosis first, the lists after it: five messages each push the explanation off the first lines.
        throw fail("""
            After \(what), messages is not the thread it should be. \(mistake) See \(Self.model.reference). \
            [messages: \(Self.describe(got)); expected: \(Self.describe(expected))]
            """, file: file, line: line)
    }

    /// The recorded forum's messages with `sender`'s text changed to `text`, and that message's key.
    private func forum(withTextOf sender: String, changedTo text: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> (key: String, messages: [ForumMessage]) {
        var messages = try Self.forumMessages()
        let index = try XCTUnwrap(messages.firstIndex { $0.sender == sender }, "setup: \(sender)'s message", file: file, line: line)
        let old = messages[index]
        messages[index] = ForumMessage(key: old.key, text: text, sender: old.sender, timestamp: old.timestamp)
        return (old.key, messages)
    }

    func test_theSnapshot_givesEveryMessage_oldestFirst() throws {
        var model = ForumModel()
        try apply(Self.event("put", "/", try Self.forumJSON()), to: &model)
        let expected = try Self.forumMessages()
        let got = model.messages
        try requireReferenceEpoch(got, expected, after: "the snapshot (a put at \"/\" of five messages)")
        if Set(got.map(\.key)) == Set(expected.map(\.key)), got != expected {
            try requireOldestFirst(got, expected, after: "the snapshot")
        }
        let keptNothing = got.isEmpty
            ? " Nothing was kept at all: apply(_:) must change the model itself — a copy changed (`var tree = self.tree`, a struct or Dictionary is a value) is lost unless you store it back. Or messages left every entry out: build each with ForumMessage(key:json:), which reads the timestamp as the number it is (seconds since 2001: a Codable Date decoded with .iso8601 expects text, and `try?` hides the failure)."
            : ""
        try expect(model, expected, after: "the snapshot (a put at \"/\" of five messages)",
                   mistake: "The first event, a put at \"/\", is the whole data at the listened location: the initial snapshot." + keptNothing)
        let fresh = ForumModel()
        if !fresh.messages.isEmpty {
            throw fail("""
                A new ForumModel, made after another had applied the snapshot, already holds \(fresh.messages.count) \
                message(s): a model starts empty. Its data is shared by every model — kept in a `static` or global \
                variable — so two threads open at once would show each other's messages: keep it in an instance property. \
                See \(Self.model.reference).
                """)
        }

        // Five messages in a dictionary's order come out oldest first once in 120 processes: three snapshots of
        // eight, their keys not in time order, make an unsorted list fail every run.
        for round in ["a", "b", "c"] {
            var model = ForumModel()
            let keys = ["h", "c", "f", "a", "g", "d", "b", "e"].map { "-NsA8\(round)\($0)" }
            let messages = keys.enumerated().map { ForumMessage(key: $1, text: "message \($0)", sender: "Ana", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_000 + Double($0))) }
            let object = messages.map { #""\#($0.key)":\#(Self.json($0))"# }.joined(separator: ",")
            try apply(Self.event("put", "/", "{\(object)}"), to: &model)
            try expect(model, messages, after: "a snapshot of eight messages, their keys not in time order",
                       mistake: "Sort the messages by timestamp, oldest first.")
        }

        // Keys exactly against time order: a comparator that is no order (`t0 < t1 || k0 < k1` says each of two
        // such messages comes first) gives back some order of the dictionary's, right once in 10! processes.
        var model2 = ForumModel()
        let reversed = (0..<10).map { index in
            ForumMessage(key: "-NsA9\(Character(UnicodeScalar(UInt8(ascii: "z") - UInt8(index))))", text: "message \(index)",
                         sender: "Ana", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_000 + Double(index)))
        }
        let object = reversed.map { #""\#($0.key)":\#(Self.json($0))"# }.joined(separator: ",")
        try apply(Self.event("put", "/", "{\(object)}"), to: &model2)
        try expect(model2, reversed, after: "a snapshot of ten messages, their keys in the opposite order to their timestamps",
                   mistake: "Sort the messages by timestamp, oldest first; compare keys only when the timestamps are equal.")
    }

    func test_anEmptySnapshot_null_givesNoMessages() throws {
        var model = ForumModel()
        try apply(Self.event("put", "/", "null"), to: &model)
        try expect(model, [], after: "a put at \"/\" of null (a thread without messages)", mistake: "null is no data: no messages, no error.")
    }

    func test_aPutAtAKey_addsThatMessage_andKeepsTheOthers() throws {
        var model = try modelWithSnapshot()
        // A fraction of a second, as JSONEncoder writes a Date made by Date() (Lesson 1).
        let new = ForumMessage(key: "-NsA2Aa0aA0aAa0aA0aA", text: "New here", sender: "Fay", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_035.25))
        try apply(Self.event("put", "/\(new.key)", Self.json(new)), to: &model)
        let expected = (try Self.forumMessages() + [new]).sorted { $0.timestamp < $1.timestamp }
        try expect(model, expected, after: "a put at \"/\(new.key)\" of one new message", mistake: """
            A put replaces the data at its path — here one message's key, below the location — and nothing else: \
            the path says where, relative to the listened location ("/" is all of it).
            """)
    }

    func test_aPutAtAKey_inAnEmptyThread_addsItsFirstMessage() throws {
        var model = ForumModel()
        try apply(Self.event("put", "/", "null"), to: &model)
        let first = ForumMessage(key: "-NsA2Ee4eE4eEe4eE4eE", text: "First!", sender: "Gus", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_070))
        try apply(Self.event("put", "/\(first.key)", Self.json(first)), to: &model)
        try expect(model, [first], after: "a snapshot of null (an empty thread), then a put at \"/\(first.key)\" of its first message", mistake: """
            An empty thread (null) is still a place to write: a put below the root makes the object on the way, as \
            Firebase does — the first message posted to an empty thread must show.
            """)
    }

    func test_aPutAtAField_changesThatFieldOnly() throws {
        var model = try modelWithSnapshot()
        let (key, expected) = try forum(withTextOf: "Ana", changedTo: "Edited")
        try apply(Self.event("put", "/\(key)/text", #""Edited""#), to: &model)
        if !model.messages.contains(where: { $0.key == key }), model.messages.count == expected.count - 1 {
            throw fail("""
                After a put at "/\(key)/text" of "Edited", Ana's message is gone: what is at her key is no whole message \
                any more, its other fields (sender, timestamp) lost. Follow every part of the path — the key, then the \
                field — and write into the message that is there: the put replaces that one field and keeps the other \
                fields. See \(Self.model.reference).
                """)
        }
        try expect(model, expected, after: "a put at \"/\(key)/text\" of \"Edited\"", mistake: """
            The path has two parts, a message's key and a field: the put replaces that field of that message only. \
            Follow every part of the path, not just the first.
            """)
    }

    /// A text cleared to "" is still a text: the message is whole and shows, with an empty text.
    func test_aMessageWithAnEmptyText_isStillAMessage() throws {
        var model = try modelWithSnapshot()
        let (key, expected) = try forum(withTextOf: "Ben", changedTo: "")
        try apply(Self.event("put", "/\(key)/text", #""""#), to: &model)
        try expect(model, expected, after: "a put at \"/\(key)/text\" of \"\" (Ben cleared his text)", mistake: """
            An empty text is a text: the message is whole (ForumMessage(key:json:) makes it), so it shows — do not \
            leave out messages whose text is empty; what to draw for one is the app's choice.
            """)
    }

    func test_aPutOfNull_deletesThatMessageOnly() throws {
        var model = try modelWithSnapshot()
        let expected = try Self.forumMessages()
        let gone = expected[2]
        try apply(Self.event("put", "/\(gone.key)", "null"), to: &model)
        try expect(model, expected.filter { $0.key != gone.key }, after: "a put at \"/\(gone.key)\" of null", mistake: """
            In Firebase, null at a path means nothing is there: the message was deleted. Remove it.
            """)
    }

    /// A client clearing one field (a PUT of null at "<key>/text", a PATCH of {"text": null}): Firebase sends a put of
    /// null at that field. Only the field goes — the message is no whole message until its text is written again, and
    /// then it shows with its own sender and timestamp.
    func test_aPutOfNullAtAField_deletesThatFieldOnly() throws {
        var model = try modelWithSnapshot()
        let (key, expected) = try forum(withTextOf: "Chen", changedTo: "Back again")
        try apply(Self.event("put", "/\(key)/text", "null"), to: &model)
        try apply(Self.event("put", "/\(key)/text", #""Back again""#), to: &model)
        if !model.messages.contains(where: { $0.key == key }), model.messages.count == expected.count - 1 {
            throw fail("""
                After a put of null at "/\(key)/text" (Chen's text deleted) and then a put of "Back again" there, Chen's \
                message is missing: the null deleted the whole message, its sender and timestamp too, not only its text. \
                A put of null deletes what is at its path — here one field of one message; the message's other fields \
                stay (it is left out of messages while it has no text, and shows again once its text is written). A \
                model that keeps only whole messages (`[String: ForumMessage]`) can hold neither that message nor a field \
                written into a message not there yet: keep the tree the server sends, as JSON, and build the messages \
                from it. See \(Self.model.reference).
                """)
        }
        try expect(model, expected, after: "a put of null at \"/\(key)/text\", then a put there of \"Back again\"", mistake: """
            A put of null deletes what is at its path only — one field here: the message keeps its sender and timestamp, \
            and its new text makes it whole again.
            """)
    }

    /// A thread whose messages are all deleted at once (Lesson 5's DELETE of the thread, or a PUT of null at its
    /// messages): Firebase sends a put of null at "/".
    func test_aPutOfNullAtTheRoot_deletesEveryMessage() throws {
        var model = try modelWithSnapshot()
        try apply(Self.event("put", "/", "null"), to: &model)
        try expect(model, [], after: "a put at \"/\" of null, once the snapshot was in", mistake: """
            A put of null at "/" means nothing is at the listened location any more: every message was deleted. A put \
            replaces what is at its path with its data, whatever the data is — null too, not only an object.
            """)
    }

    func test_aPatch_changesTheChildrenItNames_andKeepsTheRest() throws {
        var model = try modelWithSnapshot()
        let (key, expected) = try forum(withTextOf: "Dana", changedTo: "Edited by PATCH")
        try apply(Self.event("patch", "/\(key)", #"{"text":"Edited by PATCH"}"#), to: &model)
        if model.messages == (try Self.forumMessages()) {
            throw fail("""
                After a patch at "/\(key)" of {"text": "Edited by PATCH"}, messages is as it was: the patch changed \
                nothing. Write each child it names at its path plus the child's key, the patch's value winning (with \
                Dictionary.merge, the closure returns the value kept: `{ _, new in new }`) — and when you change a copy \
                (`if case .object(var children) = tree`, `var message = messages[key]`: a Dictionary or an enum's \
                payload is a value), store it back. See \(Self.model.reference).
                """)
        }
        try expect(model, expected, after: "a patch at \"/\(key)\" of {\"text\": \"Edited by PATCH\"}", mistake: """
            A patch writes each child it names, at its path plus the child's key, and keeps every other child: this \
            one changes the text and keeps the sender and timestamp. Applied as a put, it replaces the whole message \
            with a text alone, and the message is lost.
            """)
    }

    func test_aPatchAtTheRoot_addsAndDeletesChildren_andKeepsTheRest() throws {
        var model = try modelWithSnapshot()
        let forum = try Self.forumMessages()
        let gone = forum[0]
        let new = ForumMessage(key: "-NsA2Bb1bB1bBb1bB1bB", text: "Patched in", sender: "Gus", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_060))
        try apply(Self.event("patch", "/", #"{"\#(gone.key)":null,"\#(new.key)":\#(Self.json(new))}"#), to: &model)
        try expect(model, forum.filter { $0.key != gone.key } + [new], after: "a patch at \"/\" adding one message and setting another to null", mistake: """
            Each child of a patch is written at its own key: a message, or null — which deletes that message. The \
            children the patch does not name stay.
            """)
    }

    /// Issue 20 (GodotFirebase's database_store.gd merges a patch field by field, all the way down).
    func test_aPatch_replacesEachChildItNames_asAWhole() throws {
        var model = try modelWithSnapshot()
        let forum = try Self.forumMessages()
        let rewritten = forum[1]
        try apply(Self.event("patch", "/", #"{"\#(rewritten.key)":{"text":"Only a text now"}}"#), to: &model)
        if model.messages.isEmpty {
            throw fail("""
                After a patch that left one message a text alone (no sender, no timestamp), messages is empty: the other \
                four messages went with it. An entry that is no whole message is left out on its own — build each message \
                on its own (ForumMessage(key:json:) for each entry; decoding the whole object at once, as [String: Message], \
                fails for every message when one entry is not a message). See \(Self.model.reference).
                """)
        }
        if let shown = model.messages.first(where: { $0.key == rewritten.key && $0.text == "Only a text now" }), shown.sender != rewritten.sender {
            throw fail("""
                After a patch that left one message a text alone (no sender, no timestamp), messages still shows it, as \
                \(Self.describe([shown])): an entry that is no whole message is left out — ForumMessage(key:json:) \
                returns nil for it; do not fill in the missing fields. See \(Self.model.reference).
                """)
        }
        try expect(model, forum.filter { $0.key != rewritten.key }, after: "a patch at \"/\" of {\"\(rewritten.key)\": {\"text\": …}}", mistake: """
            A patch replaces each child it names as a whole — one level deep, as Firebase's PATCH writes: that message \
            is now a text alone, no whole message, so it leaves messages. Merged field by field, it kept its sender and \
            timestamp.
            """)
    }

    func test_aPatchKeyWithSlashes_writesAtThatPath() throws {
        var model = try modelWithSnapshot()
        let (key, expected) = try forum(withTextOf: "Chen", changedTo: "Multi-path")
        try apply(Self.event("patch", "/", #"{"\#(key)/text":"Multi-path"}"#), to: &model)
        try expect(model, expected, after: "a patch at \"/\" of {\"\(key)/text\": \"Multi-path\"}", mistake: """
            A patch's key may itself be a path (Firebase's multi-path update): "<key>/text" is the text of that \
            message. Split the key at "/" too, and write at path + those parts.
            """)
    }

    /// A client that writes a message with PATCH (or PUT) at a new key: the event's path names a key the model does
    /// not have yet, and the message must appear.
    func test_aPatchAtANewKey_addsThatMessage() throws {
        var model = try modelWithSnapshot()
        let new = ForumMessage(key: "-NsA2Dd3dD3dDd3dD3dD", text: "Written with PATCH", sender: "Ivy", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_065))
        try apply(Self.event("patch", "/\(new.key)", Self.json(new)), to: &model)
        try expect(model, (try Self.forumMessages() + [new]).sorted { $0.timestamp < $1.timestamp },
                   after: "a patch at \"/\(new.key)\", a key not there yet, of a whole message", mistake: """
            A patch (or put) may write below a key that does not exist yet: make the object on the way, as Firebase \
            does, rather than skipping the write.
            """)
    }

    /// A multi-path update at the messages' root (a client writing with PATCH) into a thread that has none yet:
    /// Firebase sends a patch at "/" while the model holds null.
    func test_aPatch_inAnEmptyThread_addsItsMessages() throws {
        var model = ForumModel()
        try apply(Self.event("put", "/", "null"), to: &model)
        let first = ForumMessage(key: "-NsA2Ff5fF5fFf5fF5fF", text: "Patched into an empty thread", sender: "Hal", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_075))
        try apply(Self.event("patch", "/", #"{"\#(first.key)":\#(Self.json(first))}"#), to: &model)
        try expect(model, [first], after: "a snapshot of null (an empty thread), then a patch at \"/\" adding its first message", mistake: """
            An empty thread (null) can be patched too: a patch writes each child at its path plus the child's key, \
            making the object on the way — it is not only for changing what is already there.
            """)
    }

    /// A message written in two events (its text first, then the rest: two PUTs, or a PUT and a PATCH, by a client
    /// that writes field by field): half-written in between, whole after the second, and then it shows.
    func test_aMessageWrittenInTwoEvents_showsOnceWhole() throws {
        var model = try modelWithSnapshot()
        let new = ForumMessage(key: "-NsA2Gg6gG6gGg6gG6gG", text: "Written in two steps", sender: "Jo", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_080))
        try apply(Self.event("put", "/\(new.key)", #"{"text":"Written in two steps"}"#), to: &model)
        try apply(Self.event("patch", "/\(new.key)", #"{"sender":"Jo","timestamp":750000080}"#), to: &model)
        try expect(model, try Self.forumMessages() + [new], after: """
            a put at "/\(new.key)" of {"text": …} alone (no whole message yet), then a patch there of its sender and timestamp
            """, mistake: """
            The put was no whole message, and the patch completed it: keep whatever a put or patch writes, whole \
            message or not (ForumMessage(key:json:) decides, in messages, what shows) — a put that is not yet a whole \
            message is not one to skip, the next event may finish it.
            """)
    }

    func test_aSecondPutAtTheRoot_replacesEverything() throws {
        var model = try modelWithSnapshot()
        let only = ForumMessage(key: "-NsA3Cc2cC2cCc2cC2cC", text: "Fresh start", sender: "Hal", timestamp: Date(timeIntervalSinceReferenceDate: 750_000_070))
        try apply(Self.event("put", "/", #"{"\#(only.key)":\#(Self.json(only))}"#), to: &model)
        try expect(model, [only], after: "a second put at \"/\" with one message", mistake: """
            A put replaces everything at its path; at "/" that is every message (the messages it does not name are \
            gone). Merging it into what you had is a patch's job.
            """)
    }

    func test_keepAlive_changesNothing() throws {
        var model = try modelWithSnapshot()
        do {
            try model.apply(Self.keepAlive)
        } catch {
            throw fail("apply(_:) threw \(error) for `keep-alive` (data: null). A keep-alive only keeps the connection open: it is not data, and not an error. See \(Self.model.reference).")
        }
        try expect(model, try Self.forumMessages(), after: "a keep-alive event", mistake: "A keep-alive is not data: nothing changes.")
    }

    /// Issue 20: an `apply` that threw for a name it does not know passed every test. Firebase may add event names;
    /// §8.3 says such an event changes nothing and throws nothing.
    func test_anUnknownEventName_changesNothing_andThrowsNothing() throws {
        var model = try modelWithSnapshot()
        let unknown = ServerSentEvent(name: "rules_debug", data: #"{"path":"/","data":null}"#)
        do {
            try model.apply(unknown)
        } catch {
            throw fail("apply(_:) threw \(error) for an event named `rules_debug`, which it does not know. An unknown event changes nothing and is not an error: the stream goes on (a `default:` that does nothing). See \(Self.model.reference).")
        }
        try expect(model, try Self.forumMessages(), after: "an event named `rules_debug` (data: a put-like payload of null at \"/\")",
                   mistake: "Only `put` and `patch` change the thread: an event with another name, even with data that looks like a put, changes nothing.")
    }

    func test_aPutWhoseDataIsNotAPayload_throwsMalformedEvent() throws {
        var model = try modelWithSnapshot()
        let broken = ServerSentEvent(name: "put", data: #"{"path":"/","data":{"-NsA"#)
        do {
            try model.apply(broken)
        } catch let error as ForumStreamError {
            guard case .malformedEvent(let data) = error else {
                throw fail("For a put whose data is cut short (not JSON), apply(_:) threw \(error); expected ForumStreamError.malformedEvent(data). See \(Self.model.reference).")
            }
            if data != broken.data {
                throw fail("""
                    For a put whose data is cut short, apply(_:) threw malformedEvent(\(data.debugDescription)); expected \
                    malformedEvent with the event's data, \(broken.data.debugDescription): the error carries the text that \
                    did not decode, so the app can log what the server sent. See \(Self.model.reference).
                    """)
            }
            return try expect(model, try Self.forumMessages(), after: "a put whose data is not JSON (it threw, rightly)",
                              mistake: "An event that cannot be read changes nothing.")
        } catch {
            throw fail("For a put whose data is cut short (not JSON), apply(_:) threw \(type(of: error)) (\(error)); expected ForumStreamError.malformedEvent(data): turn the decoder's error into the lesson's own. See \(Self.model.reference).")
        }
        throw fail("""
            For a put whose data is cut short (\(broken.data), not JSON), apply(_:) returned normally; it should throw \
            ForumStreamError.malformedEvent(data): the stream is broken, and skipping the event would leave the thread \
            silently wrong. See \(Self.model.reference).
            """)
    }

    func test_cancel_throwsCancelled() throws {
        var model = try modelWithSnapshot()
        do {
            try model.apply(Self.cancel)
        } catch let error as ForumStreamError {
            XCTAssertEqual(error, .cancelled, "For `cancel`, apply(_:) threw \(error); expected ForumStreamError.cancelled. See \(Self.model.reference).")
            return
        } catch {
            throw fail("For `cancel`, apply(_:) threw \(error); expected ForumStreamError.cancelled. See \(Self.model.reference).")
        }
        throw fail("For `cancel`, apply(_:) returned normally; it should throw ForumStreamError.cancelled: the server will send nothing more, and the app must know. See \(Self.model.reference).")
    }

    func test_authRevoked_throwsAuthRevoked_withTheReason() throws {
        var model = try modelWithSnapshot()
        do {
            try model.apply(Self.authRevoked)
        } catch let error as ForumStreamError {
            XCTAssertEqual(error, .authRevoked("credential is no longer valid"), """
                For `auth_revoked` with data "credential is no longer valid" (a JSON string), apply(_:) threw \(error); \
                expected ForumStreamError.authRevoked("credential is no longer valid"), the string decoded. See \(Self.model.reference).
                """)
            return
        } catch {
            throw fail("For `auth_revoked`, apply(_:) threw \(error); expected ForumStreamError.authRevoked(reason). See \(Self.model.reference).")
        }
        throw fail("For `auth_revoked`, apply(_:) returned normally; it should throw ForumStreamError.authRevoked(reason): the credential expired and the stream ends. See \(Self.model.reference).")
    }

    /// Three snapshots of ten messages with one timestamp: a sort by timestamp alone leaves them in the
    /// dictionary's order, which is random per process — with one snapshot of five it came out right once in 120 runs.
    func test_messagesWithTheSameTimestamp_areOrderedByKey() throws {
        let time = Date(timeIntervalSinceReferenceDate: 750_000_000)
        for round in ["a", "b", "c"] {
            var model = ForumModel()
            // Upper case, `_` and lower case are different digits of a push ID: byte order, not case-blind order; and
            // a push ID's digits are characters, not numbers: "10" comes before "9z" (a `.numeric` compare puts 9 first).
            let keys = ["h", "C", "f", "A", "g", "_", "b", "e", "9z", "10"].map { "-NsA9\(round)\($0)" }
            // One sender, and texts in another order than the keys': only the key orders them (a tie broken by sender
            // or by text is no order here).
            let messages = keys.enumerated().map { ForumMessage(key: $1, text: "same time \($0)", sender: "Ana", timestamp: time) }
            let object = messages.map { #""\#($0.key)":\#(Self.json($0))"# }.joined(separator: ",")
            try apply(Self.event("put", "/", "{\(object)}"), to: &model)
            try expect(model, messages.sorted { $0.key < $1.key }, after: "a snapshot of ten messages with the same timestamp",
                       mistake: "Messages with the same timestamp go in the order of their keys, compared as they are (String's <: for push IDs digits, then upper case, then `_`, then lower case — not lowercased, and digits not read as numbers: \"10\" before \"9z\", not a `.numeric` or localized compare), so the list never changes order by chance.")
        }
    }

    /// Firebase sends only `put`, `patch`, `keep-alive`, `cancel` and `auth_revoked`, but an event the model does not
    /// know may carry any text, JSON or not: it changes nothing and throws nothing, whatever its data. (A model that
    /// decodes every event's data before it looks at the name throws here; the test above has JSON data.)
    func test_anUnknownEvent_whoseDataIsNotJSON_changesNothing() throws {
        var model = try modelWithSnapshot()
        let unknown = ServerSentEvent(name: "debug", data: "rules evaluated in 3 ms")
        do {
            try model.apply(unknown)
        } catch {
            throw fail("""
                apply(_:) threw \(error) for an event named `debug` whose data is plain text, not JSON. An event it does \
                not know changes nothing and throws nothing, whatever its data: look at the name first, and decode the \
                data only for put and patch (and auth_revoked's reason) — not every event's data up front. See \(Self.model.reference).
                """)
        }
        try expect(model, try Self.forumMessages(), after: "an event named `debug` with plain text as its data",
                   mistake: "An event it does not know changes nothing.")
    }

    /// Timestamps a fraction of a second apart (two clients posting at once; a Date() has its fraction): time orders
    /// them, not the key. Six messages 0.25 s apart whose keys go against time show a sort that compares whole seconds
    /// (Int(…), a formatted time) and then keys.
    func test_messagesLessThanASecondApart_goByTime() throws {
        var model = ForumModel()
        let messages = (0..<6).map { index in
            ForumMessage(key: "-NsA7\(Character(UnicodeScalar(UInt8(ascii: "z") - UInt8(index))))", text: "quick \(index)",
                         sender: index % 2 == 0 ? "Ana" : "Ben",
                         timestamp: Date(timeIntervalSinceReferenceDate: 750_000_000.25 + 0.25 * Double(index)))
        }
        let object = messages.map { #""\#($0.key)":\#(Self.json($0))"# }.joined(separator: ",")
        try apply(Self.event("put", "/", "{\(object)}"), to: &model)
        let got = model.messages
        let bySecond = messages.sorted {
            (Int($0.timestamp.timeIntervalSinceReferenceDate), $0.key) < (Int($1.timestamp.timeIntervalSinceReferenceDate), $1.key)
        }
        if got != messages, got == bySecond {
            throw fail("""
                After a snapshot of six messages 0.25 s apart, their keys against time, messages is \(Self.describe(got)): \
                the messages within one second went by key, not by time — the timestamps were compared in whole seconds \
                (Int(…), a formatted time, a Calendar granularity). A timestamp has a fraction of a second (a Date() \
                does): compare the Dates (or their Double seconds) as they are, exactly, and the keys only when they are \
                equal. See \(Self.model.reference).
                """)
        }
        try expect(model, messages, after: "a snapshot of six messages a fraction of a second (0.25 s) apart, their keys against time",
                   mistake: "Sort by the timestamp as it is, with its fraction of a second; the key only breaks exact ties.")
    }

    /// A message rewritten whole with PUT (an edit that sends the whole message again): Firebase sends a put at its
    /// key, a key the model already holds — the new message replaces the old one, its text and its time.
    func test_aPutAtAKeyAlreadyThere_replacesThatMessage() throws {
        var model = try modelWithSnapshot()
        let forum = try Self.forumMessages()
        let old = forum[0]
        let rewritten = ForumMessage(key: old.key, text: "Rewritten with PUT", sender: old.sender, timestamp: Date(timeIntervalSinceReferenceDate: 750_000_050))
        try apply(Self.event("put", "/\(old.key)", Self.json(rewritten)), to: &model)
        if model.messages == forum {
            throw fail("""
                After a put at "/\(old.key)" of a whole message (\(Self.describe([rewritten]))), a key the model already \
                holds, messages is as it was: the put was skipped because that key was already there. A put is not \
                "a child added": it replaces whatever is at its path — an existing message too (an edit sent whole). \
                See \(Self.model.reference).
                """)
        }
        try expect(model, (forum.filter { $0.key != old.key } + [rewritten]).sorted { $0.timestamp < $1.timestamp },
                   after: "a put at \"/\(old.key)\", a key already there, of a whole new message", mistake: """
            A put replaces what is at its path, a message that is already there too: its text and its timestamp are the \
            new ones.
            """)
    }

    /// A patch below the root with a null child (a client's PATCH of {"text": null} at one message): the null deletes
    /// that child at the patch's path plus its key — here one field of that message, which is then no whole message.
    func test_aPatchWithANullChild_belowTheRoot_deletesThatChildThere() throws {
        var model = try modelWithSnapshot()
        let forum = try Self.forumMessages()
        let cleared = forum[3]
        try apply(Self.event("patch", "/\(cleared.key)", #"{"text":null}"#), to: &model)
        if model.messages == forum {
            throw fail("""
                After a patch at "/\(cleared.key)" of {"text": null}, messages is as it was: \(cleared.sender)'s text was \
                not deleted. A null child of a patch is deleted where the patch writes it — at the patch's path plus the \
                child's key ("/\(cleared.key)/text" here), as every other child is, not at the key from the root. See \(Self.model.reference).
                """)
        }
        try expect(model, forum.filter { $0.key != cleared.key }, after: "a patch at \"/\(cleared.key)\" of {\"text\": null}", mistake: """
            The null deletes that message's text only: the message is no whole message any more, so it leaves messages \
            (its sender and timestamp stay, for a text written later).
            """)
    }

    /// A patch that cannot be read is as broken as a put that cannot: the same error, with its data. (A case of its own
    /// for patch, written with `try?` and `return`, skipped it in silence; the test of a broken put above passed.)
    func test_aPatchWhoseDataIsNotAPayload_throwsMalformedEventToo() throws {
        var model = try modelWithSnapshot()
        let broken = ServerSentEvent(name: "patch", data: #"{"path":"/-NsA1Jq8nC0kXw1tB2aQ","data":{"text":"Ed"#)
        do {
            try model.apply(broken)
        } catch let error as ForumStreamError {
            guard case .malformedEvent(let data) = error, data == broken.data else {
                throw fail("For a patch whose data is cut short (not JSON), apply(_:) threw \(error); expected ForumStreamError.malformedEvent with the event's data, \(broken.data.debugDescription), as for a put. See \(Self.model.reference).")
            }
            return try expect(model, try Self.forumMessages(), after: "a patch whose data is not JSON (it threw, rightly)",
                              mistake: "An event that cannot be read changes nothing.")
        } catch {
            throw fail("For a patch whose data is cut short (not JSON), apply(_:) threw \(type(of: error)) (\(error)); expected ForumStreamError.malformedEvent(data), as for a put. See \(Self.model.reference).")
        }
        throw fail("""
            For a patch whose data is cut short (\(broken.data), not JSON), apply(_:) returned normally; it should throw \
            ForumStreamError.malformedEvent(data), as it does for a put: a patch that cannot be read is a broken stream \
            too, and skipping it (`try?` … `return`) leaves the thread silently wrong. See \(Self.model.reference).
            """)
    }
}
