import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Exercise 3.3: `MessageThread.init(from:)` reads a thread as Firebase returns it: messages keyed by push IDs, an
/// array after a PUT, both kinds of keys after a PUT and a POST, or no `messages` key at all; oldest first. Bad data
/// throws. These tests never call encode(to:).
///
/// Ordered from the most basic behaviour to the most specific: the order to fix them in.
final class InitFromDecoderTests: Lesson3TestCase {
    let exercise = Lesson3TestCase.initFrom

    func test_initFrom_readsTheTitleAndIdentifier() throws {
        let (thread, _, _) = try decodeThread("lesson3/thread-sample.json")
        XCTAssertEqual(thread.title, "REST APIs", """
            init(from:) read the sample thread's title as \(thread.title.debugDescription); the JSON says "REST APIs"\
            \(thread.title == Self.sampleThreadID ? " (what it read is the identifier)" : "")\
            \(thread.title.hasPrefix("Optional(") ? ": an Optional written out as text (string interpolation or String(describing:) of a `decodeIfPresent`'s result) — unwrap it, or use `decode`, which returns the String itself" : ""). \
            Read the key "title" as a String. See LESSONS.md §3.3.
            """)
        XCTAssertEqual(thread.identifier, Self.sampleThreadID, """
            init(from:) read the sample thread's identifier as \(thread.identifier.debugDescription); the JSON says \
            "\(Self.sampleThreadID)"\(thread.identifier == "REST APIs" ? " (what it read is the title)" : "")\
            \(thread.identifier != Self.sampleThreadID && thread.identifier.lowercased() == Self.sampleThreadID.lowercased() ? ": it changed the letters' case. The identifier is the thread's key in the database, exactly as written: keep it, don't lowercase or uppercase it" : ""). \
            Read the key "identifier" as a String. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_readsOneMessageKeyedByAPushID() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-sample.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-sample.json (one message, under the push ID \"\(Self.sampleMessageID)\")", log: log, thread: thread)
    }

    func test_initFrom_threadWithoutAMessagesKey_hasNoMessages() throws {
        let (thread, _, _) = try decodeThread("lesson3/thread-new.json")
        XCTAssertEqual(thread.messages.count, 0, """
            Fixtures/lesson3/thread-new.json has no `messages` key, so the thread has no messages; init(from:) read \
            \(thread.messages.count). When `decodeIfPresent` gives nil, the list is empty. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_readsTwelveMessagesKeyedByPushIDs_oldestFirst() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-many-messages.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-many-messages.json", log: log, thread: thread)
    }

    func test_initFrom_readsMessagesThatAPUTStoredAsAnArray_oldestFirst() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-messages-array.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-messages-array.json", log: log, thread: thread)
    }

    func test_initFrom_readsMessagesKeyedByIndexesAndPushIDs_oldestFirst() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-put-then-posted.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-put-then-posted.json (keys 0 to 7 from a PUT, then four POSTs)", log: log, thread: thread)
    }

    func test_initFrom_keepsAMessageSentTwice() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-burst.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-burst.json (Spencer sent \"Count me in\" twice)", log: log, checkingOrder: false)
    }

    func test_initFrom_ordersMessagesWithinOneSecond_oldestFirst() throws {
        let (thread, json, log) = try decodeThread("lesson3/thread-burst.json")
        try assertMessages(thread.messages, of: json, source: "Fixtures/lesson3/thread-burst.json (eight of its twelve messages within one second)", log: log, thread: thread)
    }

    /// Twelve messages as a JSON array, in six pairs whose two messages are 0.4 ms apart (an app that posts a batch
    /// of replies at once), each pair listed newer first: in whole milliseconds a pair is a tie, so a sort by
    /// milliseconds keeps the array's order within it, every run.
    func test_initFrom_ordersMessagesWithinOneMillisecond_oldestFirst() throws {
        var list: [JSONValue] = []
        for (pair, k) in [3, 0, 5, 1, 4, 2].enumerated() {
            let older = 5.557e8 + Double(k) * 7 + 0.2461
            for (offset, seconds) in [(2, older + 0.0004), (1, older)] {
                list.append(.object(["text": .string("Batch \(k + 1), reply \(offset)"), "sender": .string(pair % 2 == 0 ? "Ada" : "Grace"),
                                     "timestamp": .number(seconds)]))
            }
        }
        let json = JSONValue.object(["title": .string("Replies in a batch"), "identifier": .string("7C1E3A5B-2D4F-4B6A-8C0E-9F1A3B5D7E20"),
                                     "messages": .array(list)])
        let data = try JSONEncoder().encode(json)
        let source = "a thread of 12 messages as a JSON array, in pairs 0.4 ms apart, each pair listed newer first (built in the test)"
        guard let (result, log) = Self.attemptDecoding(data, within: 2) else {
            throw fail(Self.notReturned(decoding: source, loopHint: "A `while` whose condition never changes: does every pass move on?"))
        }
        switch result {
        case .success(let thread):
            try assertMessages(thread.messages, of: json, source: source, log: log, thread: thread)
        case .failure(let error as DecodingError):
            throw fail(Self.explain(error, in: json, source: source, threadDepth: 0, log: log))
        case .failure(let error):
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("init(from:) threw \(oneLine(error)) decoding \(source); a Decodable throws DecodingError, or nothing. See LESSONS.md §3.3.")
        }
    }

    /// Equal timestamps are no tie to break: the three may come in any order among themselves.
    func test_initFrom_keepsMessagesThatShareATimestamp_oldestFirst() throws {
        let path = "lesson3/thread-shared-timestamp.json"
        let (thread, json, log) = try decodeThread(path)
        // As init(from:) returned them (work it left running may reorder them later).
        let messages = log.messagesAtReturn as? [MessageThread.Message] ?? thread.messages
        let expected = Self.referenceMessages(json)
        var unmatched = messages
        let dropped = expected.filter { want in
            guard let index = unmatched.firstIndex(of: want) else { return true }
            unmatched.remove(at: index)
            return false
        }
        let shared = Dictionary(grouping: expected, by: \.timestamp).values.filter { $0.count > 1 }.flatMap { $0 }
        let source = "Fixtures/\(path) (three of its six messages share a timestamp, to the microsecond: an app stamped a batch with one Date(); and Ada's reply is in the list twice, equal in every field: her app appended it again when a request was tried again)"
        if !dropped.isEmpty, unmatched.isEmpty, dropped.allSatisfy({ want in messages.contains(want) }),
           Set(expected.filter { shared.contains($0) }.map(\.text)).isSubset(of: Set(messages.map(\.text))) {
            // Only messages equal in every field to one it kept are missing: the batch that shares a time is whole.
            throw fail("""
                init(from:) read \(messages.count) message(s) from \(source); the JSON holds \(expected.count). \
                It dropped \(dropped.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: " and ")), \
                equal in every field to a message it kept: messages were de-duplicated (a `contains` check, a Set). \
                Each child of `messages` is its own message, stored twice if it was sent twice: keep every one, even \
                when two are equal. See LESSONS.md §3.3.
                """)
        }
        if !dropped.isEmpty, unmatched.isEmpty, dropped.allSatisfy({ want in shared.contains(want) }) {
            throw fail("""
                init(from:) read \(messages.count) message(s) from \(source); the JSON holds \(expected.count). \
                It dropped \(dropped.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: " and ")), \
                which share a timestamp with a message it kept: messages were keyed (a dictionary by timestamp) or \
                de-duplicated by their time. Two messages may be sent at the same time: keep every child of `messages`, \
                and sort them by timestamp. See LESSONS.md §3.3.
                """)
        }
        guard dropped.isEmpty, unmatched.isEmpty else {
            try assertMessages(messages, of: json, source: source, log: log, checkingOrder: false)
            throw fail("init(from:) read messages from \(source) that the JSON does not hold: \(unmatched.map(Self.describe)). See LESSONS.md §3.3.")
        }
        let times = messages.map(\.timestamp)
        XCTAssertEqual(times, times.sorted(), """
            init(from:) read the messages of \(source) out of order: \(messages.map { $0.text.debugDescription }). \
            Sort them by timestamp, oldest first (the three that share one may come in any order). See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_keepsUnicodeAndEmojiExactly() throws {
        let path = "lesson3/thread-unicode.json"
        let (thread, json, log) = try decodeThread(path)
        // Its "café" is spelt with an e and a combining accent (U+0301); it ends in the space its author typed.
        let title = "Unicode ☕️ — 日本語 — cafe\u{301} 🧵 "
        // Scalar by scalar: Swift's == calls "é" and "e\u{301}" equal, but Firebase stores the bytes.
        if !thread.title.unicodeScalars.elementsEqual(title.unicodeScalars) {
            XCTFail("""
                init(from:) read the title \(thread.title.debugDescription); the JSON says \(title.debugDescription)\
                \(thread.title == title.trimmingCharacters(in: .whitespacesAndNewlines) ? ": the trailing space its author typed was trimmed" : "")\
                \(thread.title == title ? ": its Unicode was respelt — the e followed by U+0301 (a combining accent) in its \"café\" became another spelling, such as one é (normalised, `precomposedStringWithCanonicalMapping`). Swift's == calls the two equal; Firebase stores other bytes, and the next PUT would write another title" : ""). \
                JSON strings are Unicode: read them as String and change nothing. See LESSONS.md §3.3.
                """)
        }
        // Brigitte's text has a CR LF line break (a browser on Windows): "\r\n" is one Character in Swift, but two bytes
        // that Firebase stores.
        for written in Self.referenceMessages(json) where written.text.contains("\r\n") {
            let read = thread.messages.first { $0.sender == written.sender && $0.timestamp == written.timestamp }
            if let read = read, read.text != written.text || !read.text.unicodeScalars.elementsEqual(written.text.unicodeScalars),
               !read.text.unicodeScalars.contains("\r") {
                throw fail("""
                    init(from:) read \(written.sender)'s text as \(read.text.debugDescription); Fixtures/\(path) holds \
                    \(written.text.debugDescription): its line endings were rewritten (`\\r\\n` replaced with `\\n`). A text is \
                    kept as its author's app wrote it, line endings too: the next PUT would store other bytes. \
                    See LESSONS.md §3.3.
                    """)
            }
        }
        try assertMessages(thread.messages, of: json, source: "Fixtures/\(path)", log: log, checkingOrder: false)
        let scalars = thread.messages.first { $0.sender == "Renée" }?.text.unicodeScalars.map(\.value) ?? []
        XCTAssertTrue(scalars.contains(0x0301), """
            Renée's message has an "e" followed by U+0301 (a combining accent); the text init(from:) read has no \
            U+0301 (Swift's == calls the two spellings equal, so this is checked scalar by scalar). Keep the text \
            exactly as decoded. See LESSONS.md §3.3.
            """)
    }

    /// A timestamp that is a whole number of seconds is a timestamp like any other: JSON has one kind of number, and
    /// Firebase prints a whole one without a fraction (`556186200`).
    func test_initFrom_readsTimestampsThatAreWholeSeconds() throws {
        let path = "lesson3/thread-whole-second-timestamps.json"
        let (data, json) = try fixture(path)
        let whole = Self.referenceMessages(json).filter { $0.timestamp.timeIntervalSinceReferenceDate.rounded() == $0.timestamp.timeIntervalSinceReferenceDate }
        let source = "Fixtures/\(path) (two of its three messages stamped by a web app in whole seconds, which Firebase prints without a fraction: \(whole.map { String(format: "%.0f", $0.timestamp.timeIntervalSinceReferenceDate) }.joined(separator: ", ")))"
        let cure = """
            A JSON number without a fraction is still a timestamp: read it as a Date (or a Double) — or let Message's \
            own Decodable read each message. A JSON value type that tries Int before Double holds such a number as an \
            Int, and a `case .double` (or an `as? Double` on a Swift Int) then misses it.
            """
        guard let (result, log) = Self.attemptDecoding(data, within: 2) else {
            throw fail(Self.notReturned(decoding: source, loopHint: "A `while` whose condition never changes: does every pass move on?"))
        }
        switch result {
        case .success(let thread):
            let lost = whole.filter { want in !thread.messages.contains { $0.sender == want.sender && $0.text == want.text } }
            if !lost.isEmpty, thread.messages.count < Self.referenceMessages(json).count {
                throw fail("""
                    init(from:) read \(thread.messages.count) message(s) from \(source); the JSON holds \
                    \(Self.referenceMessages(json).count). It left out the one(s) whose timestamp is a whole number: \
                    \(lost.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: ", ")). \(cure) See LESSONS.md §3.3.
                    """)
            }
            try assertMessages(thread.messages, of: json, source: source, log: log, thread: thread)
        case .failure(let error):
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            let said = (error as? DecodingError).map { Self.explain($0, in: json, source: source, threadDepth: 0, log: log) } ?? oneLine(error)
            throw fail("""
                init(from:) threw decoding \(source), whose messages are all good data; every timestamp in it is a \
                number of seconds since 2001, two of them whole numbers. \(cure) What it threw: \(said)
                """)
        }
    }

    /// A title is a string, and "" is one: Firebase stores an empty string (it drops only empty objects and arrays).
    func test_initFrom_readsAnEmptyTitle_withoutAnError() throws {
        let path = "lesson3/thread-empty-title.json"
        let (data, json) = try fixture(path)
        let source = "Fixtures/\(path) (a thread a web app created with its title field left empty: \"title\": \"\")"
        let (result, log) = Self.attemptDecoding(data)
        switch result {
        case .success(let thread):
            XCTAssertEqual(thread.title, "", """
                init(from:) read the empty title of \(source) as \(thread.title.debugDescription): a title of its \
                own, which the next PUT of the thread would store. Read "title" as the String it is, even an empty \
                one; what the screen shows for it is the view's business. See LESSONS.md §3.3.
                """)
            try assertMessages(thread.messages, of: json, source: source, log: log, thread: thread)
        case .failure(let error as DecodingError):
            throw fail("""
                init(from:) threw \(Self.summary(error)) decoding \(source): an empty title is a title — the key is \
                there, and its value is a String. Only a missing key (or a value that is not a String) is bad data; \
                a guard such as `guard !title.isEmpty else { throw … }` makes a thread nobody can read, and with \
                it, the whole board that holds it. See LESSONS.md §3.3.
                """)
        case .failure(let error):
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("init(from:) threw \(oneLine(error)) decoding \(source): an empty title is a title, not an error. See LESSONS.md §3.3.")
        }
    }

    /// A message whose text is empty or only whitespace is still a message the database holds; so is one whose
    /// sender is empty (a user who never chose a name).
    func test_initFrom_keepsMessagesWithEmptyOrBlankText() throws {
        let path = "lesson3/thread-blank-messages.json"
        let (thread, json, log) = try decodeThread(path)
        let source = "Fixtures/\(path) (messages with the texts \"\", \"   \" and \"\\n\": sent with an empty field, spaces, the return key; and one whose sender is \"\": a user who never chose a name)"
        let blank = Self.referenceMessages(json).filter { $0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || $0.sender.isEmpty }
        // Lost: no message at all at its time (one kept with another text or sender is a placeholder: assertMessages).
        let lost = blank.filter { want in !thread.messages.contains { $0.timestamp == want.timestamp } }
        if !lost.isEmpty {
            let blankText = lost.filter { !$0.sender.isEmpty }, noName = lost.filter { $0.sender.isEmpty }
            let what = [blankText.isEmpty ? nil : "the ones whose text is empty or only whitespace: \(blankText.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: ", "))",
                        noName.isEmpty ? nil : "the one whose sender is empty (\(noName.map { $0.text.debugDescription }.joined(separator: ", ")): a user who never chose a name)"]
                .compactMap { $0 }.joined(separator: "; and ")
            throw fail("""
                init(from:) read \(thread.messages.count) message(s) from \(source); the JSON holds \
                \(Self.referenceMessages(json).count). It left out \(what). They are messages the database holds, and \
                the model is what the next PUT of the thread writes back: a filter here deletes them. Keep every child \
                of `messages`, text and sender as they are (hiding blank ones is the view's choice). See LESSONS.md §3.3.
                """)
        }
        try assertMessages(thread.messages, of: json, source: source, log: log, thread: thread)
    }

    func test_initFrom_threadWithoutATitle_throwsKeyNotFoundForTitle() throws {
        try assertThrowsKeyNotFound(for: "title", decoding: "lesson3/thread-missing-title.json")
    }

    func test_initFrom_threadWithoutAnIdentifier_throwsKeyNotFoundForIdentifier() throws {
        try assertThrowsKeyNotFound(for: "identifier", decoding: "lesson3/thread-missing-identifier.json")
    }

    /// A title that is there but is no String (a number a web form sent) is bad data too: `decode` throws typeMismatch.
    func test_initFrom_threadWhoseTitleIsNotAString_throws() throws {
        let path = "lesson3/thread-title-not-a-string.json"
        let (data, _) = try fixture(path)
        let source = "Fixtures/\(path) (its \"title\" is the number 2024, which a web form sent)"
        let (result, log) = Self.attemptDecoding(data)
        guard case .success(let thread) = result else {
            return  // any error: the caller learns that this data is bad (a stub's NotImplemented is "not started")
        }
        let calls = log.calls(forKey: "title")
        var cause = ""
        if let call = calls.first(where: { $0.error != nil }), let error = call.error {
            cause = " \(call.description) threw \(Self.summary(error)), and init(from:) carried on with a title of its own: a `try?` (or a `catch`) swallowed the error\(calls.contains { $0.method.hasPrefix("decode") && $0.error == nil && !$0.type.isEmpty && $0.type != "String" } ? ", and a second read made the number into text" : "")."
        }
        throw fail("""
            init(from:) decoded \(source) without an error, with the title \(thread.title.debugDescription).\(cause) \
            A title that is not a String is bad data, like a missing one: read it with `decode(String.self, \
            forKey: .title)`, which throws DecodingError.typeMismatch, and let that error reach the caller — no \
            default, no conversion of a number into a title nobody wrote. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_aMessageThatDoesNotDecode_throwsInsteadOfHidingIt() throws {
        // The same bad message in both shapes: under a push ID, and in a JSON array (a PUT), which code often reads
        // with a branch of its own.
        // Last, a message whose timestamp is there but is no number (text a web page wrote): a typeMismatch inside the
        // messages, which a `catch DecodingError.typeMismatch` meant for the shapes also catches.
        for (path, place, key) in [("lesson3/thread-message-without-timestamp.json", "under a push ID", "timestamp"),
                                   ("lesson3/thread-messages-array-without-timestamp.json", "in a JSON array, as a PUT leaves them,", "timestamp"),
                                   ("lesson3/thread-message-without-sender.json", "under a push ID", "sender"),
                                   ("lesson3/thread-message-without-text.json", "under a push ID", "text"),
                                   ("lesson3/thread-message-timestamp-as-text.json", "under a push ID", "timestamp")] {
            let (data, json) = try fixture(path)
            let children = json["messages"].objectValue.map { Array($0.values) } ?? json["messages"].arrayValue ?? []
            // "without "timestamp"", or "whose "timestamp" is text, "Sat Aug 11 …", not a number".
            let problem = children.lazy.compactMap { child -> String? in
                guard let text = child[key].stringValue, key == "timestamp" else { return nil }
                return "whose \"\(key)\" is text, \(text.debugDescription), and is not a number (seconds since 2001),"
            }.first ?? "without \"\(key)\""
            guard let (result, log) = Self.attemptDecoding(data, within: 2) else {
                throw fail(Self.notReturned(decoding: "Fixtures/\(path), where a message \(place) is \(problem)",
                                            loopHint: path.contains("array") ? """
                    A loop over an unkeyed container (`while !list.isAtEnd`) whose `try? list.decode(Message.self)` \
                    fails never ends: a decode that throws does not move the container past that element. Let the \
                    error reach the caller (`try`), or decode the whole array as [Message].
                    """ : "Let an error in a message reach the caller (`try`) instead of trying the same message again."))
            }
            guard case .success(let thread) = result else {
                continue  // any error: the caller learns that this data is bad (a stub's NotImplemented is "not started")
            }
            // A typeMismatch at `messages` itself is a shape that did not match (the next attempt is the right one);
            // any other error is the broken message's, and whatever carried on swallowed it.
            let swallowedCalls = log.callsThatThrew.filter { call in
                if case DecodingError.typeMismatch(_, let context)? = call.error, context.codingPath.count <= 1 { return false }
                return true
            }
            let swallowed = swallowedCalls.compactMap { call in call.error.map { "\(call.description) threw \(Self.summary($0))" } }
            // A catch for the keyNotFound of a new thread (no `messages`) that caught a message's missing field.
            let caughtKeyNotFound = swallowedCalls.lazy.compactMap { call -> String? in
                // With `decode` (not decodeIfPresent), a missing `messages` is a keyNotFound too: the catch was meant for it.
                guard call.method == "decode", case DecodingError.keyNotFound(let missing, _)? = call.error,
                      missing.stringValue != "messages" else { return nil }
                return """
                     That error is a keyNotFound for "\(missing.stringValue)", inside a message — not for "messages": \
                    a `catch DecodingError.keyNotFound` (or a `try?`) meant for a new thread catches it too. Catch only \
                    the missing `messages` key (`catch DecodingError.keyNotFound(let key, _) where key.stringValue == \
                    "messages"`), or read them with `decodeIfPresent`.
                    """
            }.first ?? ""
            // The message without the key, kept with a value init(from:) made up (a `?? Date()`, a `?? "Anonymous"`).
            let madeUp = children.filter { $0[key].isNull || (key == "timestamp" && $0[key].numberValue == nil) }.lazy.compactMap { child -> String? in
                if let text = child["text"].stringValue {
                    return thread.messages.contains { $0.text == text } ? text.debugDescription : nil
                }
                // No text: the message is found by its sender and timestamp, kept with a text init(from:) made up.
                guard let sender = child["sender"].stringValue, let seconds = child["timestamp"].numberValue,
                      let kept = thread.messages.first(where: { $0.sender == sender && $0.timestamp.timeIntervalSinceReferenceDate == seconds })
                else { return nil }
                return "\(sender)'s, its text \(kept.text.debugDescription)"
            }.first
            throw fail("""
                Fixtures/\(path) has a message \(problem) \(place.trimmingCharacters(in: [","])) (bad data from a buggy client); \
                init(from:) should throw, as Message's own Decodable does, but it returned a thread with \
                \(thread.messages.count) message(s)\(swallowed.isEmpty ? "" : ": \(swallowed.joined(separator: "; ")), and init(from:) carried on — a `try?` (or a `catch`) swallowed the error")\
                \(madeUp.map { ", among them that one (\($0)) with a \(key) init(from:) made up" } ?? "").\(swallowed.isEmpty ? "" : caughtKeyNotFound) \
                Let an error in the messages reach the caller, whatever their shape: only a missing `messages` key \
                means no messages. See LESSONS.md §3.3.
                """)
        }
    }

    func test_initFrom_decodesAWholeDatabase_everyShapeOfThread() throws {
        let path = "lesson3/message-board.json"
        let (returned, json) = try decode([String: ReturnedThread].self, fixture: path, threadDepth: 1)
        let threads = returned.mapValues(\.thread)
        guard let database = json.objectValue else { throw fail("setup: Fixtures/\(path) is not a JSON object.") }
        XCTAssertEqual(threads.keys.sorted(), database.keys.sorted(), "Decoding Fixtures/\(path) as [String: MessageThread] should give one thread per key. See LESSONS.md §3.3.")
        for (key, threadJSON) in database.sorted(by: { $0.key < $1.key }) {
            guard let thread = threads[key] else { continue }
            let source = "the thread \(key) in Fixtures/\(path)"
            XCTAssertEqual(thread.title, threadJSON["title"].stringValue, "init(from:) read the wrong title from \(source). See LESSONS.md §3.3.")
            if let written = threadJSON["identifier"].stringValue, thread.identifier != written {
                let recased = thread.identifier.lowercased() == written.lowercased()
                XCTFail("""
                    init(from:) read the identifier of \(source) as \(thread.identifier.debugDescription); the JSON says \
                    \(written.debugDescription).\(recased ? " It changed the letters' case (as a UUID's uuidString does): another client — a web app — may write its UUIDs in lowercase, and the thread's key is the identifier exactly as written." : "") \
                    Read "identifier" as a String and keep it exactly: it is the thread's key in the database, and a \
                    PUT or POST to any other spelling writes somewhere else. See LESSONS.md §3.3.
                    """)
            }
            try assertMessages(returned[key]?.messages ?? thread.messages, of: threadJSON, source: source, log: nil, thread: thread)
        }
    }

    /// A sort left running on another thread (`DispatchQueue.global().async`, `Task.detached`, a queue of its own)
    /// races with init(from:)'s return; on the fixtures' dozen messages it wins about as often as it loses. Here the
    /// thread has 3,000 messages: their sort takes milliseconds, init(from:) returns in microseconds, so such a sort
    /// is still under way when init(from:) has returned, every run.
    func test_initFrom_sortsTheMessagesBeforeItReturns() throws {
        let count = 3_000
        var children: [String: JSONValue] = [:]
        for index in 0..<count {
            // Push-ID-like keys whose order (and the dictionary's) is not the messages' time order.
            let key = String(format: "-LongThread%05d", (index * 1_777) % count)
            children[key] = .object(["text": .string("Message \(index)"), "sender": .string(index % 2 == 0 ? "Ada" : "Grace"),
                                     "timestamp": .number(5.554e8 + Double(index) * 0.25 + 0.0001)])
        }
        let json = JSONValue.object(["title": .string("A long thread"), "identifier": .string("A1B2C3D4-0000-4000-8000-000000003000"),
                                     "messages": .object(children)])
        let data = try JSONEncoder().encode(json)
        let source = "a thread of \(count) messages keyed by push IDs (built in the test)"
        // A sort left on another thread races with the read of `messages` as init(from:) returns, and on a busy
        // machine it wins now and then. Correct code returns the thread in order every time, so it is decoded up to
        // three times: a sort left behind must win all three races to pass. (Such code returns in milliseconds; code
        // that sorts slowly itself — a hand-written O(n²) sort, a busy machine — is not decoded again once a second
        // has gone, so that a correct solution stays well inside the test's time limit.)
        let started = Date()
        var thread: MessageThread
        var log: DecoderLog
        var returned: [MessageThread.Message]
        var attempts = 0
        repeat {
            attempts += 1
            guard let (result, attemptLog) = Self.attemptDecoding(data, within: 5) else {
                throw fail(Self.notReturned(decoding: source, loopHint: "A `while` whose condition never changes: does every pass move on?"))
            }
            switch result {
            case .success(let decoded): thread = decoded
            case .failure(let error as DecodingError):
                throw fail(Self.explain(error, in: json, source: source, threadDepth: 0, log: attemptLog))
            case .failure(let error):
                // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
                throw fail("init(from:) threw \(oneLine(error)) decoding \(source); a Decodable throws DecodingError, or nothing. See LESSONS.md §3.3.")
            }
            log = attemptLog
            returned = log.messagesAtReturn as? [MessageThread.Message] ?? thread.messages
        } while attempts < 3 && Date().timeIntervalSince(started) < 1 && returned.count == count && Self.isOldestFirst(returned)
        guard returned.count != count || !Self.isOldestFirst(returned) else { return }
        // Let work left on another thread finish (and only then, the main queue), to say what it did.
        var later = thread.messages
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline, !Self.isOldestFirst(later) {
            Thread.sleep(forTimeInterval: 0.005)
            later = thread.messages
        }
        if !Self.isOldestFirst(later) {
            RunLoop.current.run(until: Date().addingTimeInterval(0.1))
            later = thread.messages
        }
        if returned.count == count, later.count == count, Self.isOldestFirst(later) {
            throw fail("""
                init(from:) returned the messages of \(source) not oldest first: they were sorted after init(from:) \
                had returned, by work it left on a queue (a `DispatchQueue.global().async`, a `Task`, a queue of its \
                own). On a short thread that sort may finish first, by luck; whoever decodes a thread uses it as soon \
                as the decoder returns, and a sort on another thread races with that use (and writes `messages` while \
                it is read). Sort them in init(from:) itself, before it returns: `messages = list.sorted { … }`. \
                See LESSONS.md §3.3.
                """)
        }
        try assertMessages(thread.messages, of: json, source: source, log: log, thread: thread)
    }

    // MARK: Helpers

    /// Decoding `Fixtures/<path>`, which lacks `key`, must throw DecodingError.keyNotFound for that key.
    func assertThrowsKeyNotFound(for key: String, decoding path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (data, json) = try fixture(path, file: file, line: line)
        let (result, log) = Self.attemptDecoding(data)
        let thread: MessageThread
        switch result {
        case .failure(DecodingError.keyNotFound(let missing, let context))
            where missing.stringValue == key && [[], [key]].contains(context.codingPath.map(\.stringValue)):
            // What a caller needs to learn: the data is bad, and which key is missing. (`decode` gives the path of the
            // thread, []; an error thrown by hand may end it with the key itself.)
            return
        case .failure(DecodingError.keyNotFound(let other, _)) where other.stringValue != key && !json[other.stringValue].isNull:
            throw fail("""
                Fixtures/\(path) has no "\(key)"; init(from:) should throw DecodingError.keyNotFound for "\(key)", but \
                its keyNotFound names "\(other.stringValue)", a key this thread has: the error names the wrong key (one \
                thrown by hand, copied from the one for "\(other.stringValue)"?). The caller learns from it which key \
                is missing. See LESSONS.md §3.3.
                """, file: file, line: line)
        case .failure(DecodingError.dataCorrupted(let context)) where json[key].isNull && context.underlyingError == nil:
            // A dataCorrupted of its own: thrown by hand for the missing key, or in place of the keyNotFound it caught.
            if let wrapped = log.calls(forKey: key).first(where: { call in
                if case DecodingError.keyNotFound? = call.error { return true } else { return false }
            }) {
                throw fail("""
                    Fixtures/\(path) has no "\(key)"; init(from:) should throw DecodingError.keyNotFound for "\(key)", \
                    but it threw a new DecodingError.dataCorrupted ("\(oneLine(context.debugDescription))") in place of \
                    the keyNotFound for "\(key)" that \(wrapped.description) threw: a catch that wraps every error loses \
                    what the caller needs to know, which key is missing. Let a DecodingError through as it is \
                    (`catch let error as DecodingError { throw error }`). See LESSONS.md §3.3.
                    """, file: file, line: line)
            }
            throw fail("""
                Fixtures/\(path) has no "\(key)"; init(from:) should throw DecodingError.keyNotFound for "\(key)", \
                but it threw DecodingError.dataCorrupted\(Self.describe(context.codingPath)) \
                ("\(oneLine(context.debugDescription))"): dataCorrupted says a value is there but cannot be read. A \
                missing key is keyNotFound — `decode` throws it for you, naming the key (by hand: \
                `DecodingError.keyNotFound(CodingKeys.\(key), …)`, not `dataCorruptedError(forKey:in:…)`). \
                See LESSONS.md §3.3.
                """, file: file, line: line)
        case .failure(let error as DecodingError):
            throw fail("""
                Fixtures/\(path) has no "\(key)"; init(from:) should throw DecodingError.keyNotFound for "\(key)" \
                (what `decode` throws for a missing key), but instead: \
                \(Self.explain(error, in: json, source: "Fixtures/\(path)", threadDepth: 0, log: log))
                """, file: file, line: line)
        case .failure(let error):
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("""
                Fixtures/\(path) has no "\(key)"; init(from:) should throw DecodingError.keyNotFound for "\(key)", \
                but it threw \(oneLine(error)). See LESSONS.md §3.3.
                """, file: file, line: line)
        case .success(let decoded):
            thread = decoded
        }
        let value = key == "title" ? thread.title : thread.identifier
        let article = key == "title" ? "a" : "an"
        let calls = log.calls(forKey: key)
        var cause = ""
        if let call = calls.first(where: { $0.error != nil }), let error = call.error {
            cause = " \(call.description) threw \(Self.summary(error)), and init(from:) carried on with a value of its own: a `try?` (or a `catch`) swallowed the error."
        } else if let call = calls.first(where: { $0.method == "decodeIfPresent" }) {
            cause = " It read \"\(key)\" with \(call.description), which gives nil for a missing key, and put a value of its own in its place."
        } else if calls.isEmpty {
            cause = " It never asked its container for \"\(key)\" (it asked for: \(log.keysAskedFor.map { "\"\($0)\"" }.joined(separator: ", ")))."
        }
        throw fail("""
            init(from:) decoded a thread that has no "\(key)" without an error (its \(key): \(value.debugDescription)).\
            \(cause) A thread without \(article) \(key) is bad data: read it with `decode`, so the caller gets \
            DecodingError.keyNotFound naming "\(key)". Only `messages` may be missing. See LESSONS.md §3.3.
            """, file: file, line: line)
    }
}
