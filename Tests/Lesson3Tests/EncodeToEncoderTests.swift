import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Exercise 3.4: `MessageThread.encode(to:)` writes title, identifier and messages (a list, in order), so that what
/// Firebase stores from it is the thread. These tests never call init(from:): they read what encode(to:) wrote as
/// JSON, directly or as the emulator stored it, and compare what it means, not its spelling.
///
/// Ordered from the most basic behaviour to the most specific: the order to fix them in.
final class EncodeToEncoderTests: Lesson3TestCase {
    let exercise = Lesson3TestCase.encodeTo

    func test_encodeTo_writesAnObjectWithTheKeysTitleIdentifierAndMessages() throws {
        let thread = Self.threeMessageThread()
        let (_, json) = try encodeThread(thread)
        if let problem = Self.keysProblem(of: json, for: thread) {
            XCTFail(problem)
        }
    }

    func test_encodeTo_writesTheTitleAndIdentifier() throws {
        let thread = Self.threeMessageThread()
        let object = try encodedObject(thread)
        let title = object["title"] ?? .null
        let identifier = object["identifier"] ?? .null
        XCTAssertEqual(title, .string(thread.title), """
            encode(to:) wrote "title": \(title.description); expected "\(thread.title)"\
            \(title == .string(thread.identifier) ? " — what it wrote is the identifier" : ""). See LESSONS.md §3.4.
            """)
        XCTAssertEqual(identifier, .string(thread.identifier), """
            encode(to:) wrote "identifier": \(identifier.description); expected "\(thread.identifier)" (the thread's \
            key in the database)\(identifier == .string(thread.title) ? " — what it wrote is the title" : "")\
            \(identifier.stringValue.map { $0 != thread.identifier && $0.lowercased() == thread.identifier.lowercased() } ?? false ? " — it changed the letters' case: write the String exactly as it is" : ""). \
            See LESSONS.md §3.4.
            """)
        // A thread a web app created: its identifier in lowercase, the thread's key exactly as written; its title
        // ends in the space its author typed, and spells é as an e and a combining accent (U+0301), as some
        // keyboards do.
        let fromTheWeb = MessageThread(title: "Made on the web by Rene\u{301}e ☕️ ", identifier: "e7a1c3f5-9b2d-4f6a-8c0e-1d3b5a7c9e24",
                                       messages: thread.messages)
        let webObject = try encodedObject(fromTheWeb)
        let webTitle = webObject["title"] ?? .null
        // Scalar by scalar: Swift's == calls "é" and "e\u{301}" equal, but Firebase stores the bytes.
        if webTitle.stringValue.map({ !$0.unicodeScalars.elementsEqual(fromTheWeb.title.unicodeScalars) }) ?? true {
            let trimmed = webTitle.stringValue == fromTheWeb.title.trimmingCharacters(in: .whitespacesAndNewlines)
            let respelled = webTitle.stringValue == fromTheWeb.title
            XCTFail("""
                encode(to:) wrote "title": \(webTitle.description) for a thread whose title is \
                \(fromTheWeb.title.debugDescription)\(trimmed ? ": it trimmed the trailing space its author typed" : "")\
                \(respelled ? ": it changed how the title is spelt in Unicode — its e followed by U+0301 (a combining accent) was written another way, such as one é (normalised, `precomposedStringWithCanonicalMapping`). Swift's == calls the two equal; Firebase stores other bytes, and every client reads another string" : ""). \
                Write the title exactly as the thread holds it: encoding changes no data. See LESSONS.md §3.4.
                """)
        }
        let webIdentifier = webObject["identifier"] ?? .null
        if webIdentifier != .string(fromTheWeb.identifier) {
            let recased = webIdentifier.stringValue.map { $0 != fromTheWeb.identifier && $0.lowercased() == fromTheWeb.identifier } ?? false
            XCTFail("""
                encode(to:) wrote "identifier": \(webIdentifier.description) for a thread whose identifier is \
                "\(fromTheWeb.identifier)"\(recased ? ": it changed the letters' case (as a UUID's uuidString does)" : ""). \
                The identifier is the thread's key in the database, and a web app may write it in lowercase: write the \
                String exactly as it is. See LESSONS.md §3.4.
                """)
        }
    }

    /// A title is a string, and "" is one (a web app's form may allow it): written as it is, without an error.
    func test_encodeTo_writesAnEmptyTitle() throws {
        let thread = MessageThread(title: "", identifier: "4E1B7C2A-9D3F-4A68-B05E-7C2D9F1A3B64", messages: Self.threeMessageThread().messages)
        let data: Data
        do {
            data = try JSONEncoder().encode(thread)
        } catch {
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("""
                encode(to:) threw \(oneLine(error)) for a thread whose title is "" (an empty title, which a web app \
                let its user leave empty): the thread is valid data, and the app must be able to write it — a \
                `guard !title.isEmpty else { throw … }` makes it impossible to save. Write the title as it is. \
                See LESSONS.md §3.4.
                """)
        }
        let written = try? JSONValue(data: data)
        if let object = written?.objectValue, object["title"] == nil {
            throw fail("""
                encode(to:) left out the key "title" for a thread whose title is "" (an empty title): it wrote \
                \(Self.shortJSON(written ?? .null)). An empty string is a value, and Firebase stores it (it drops only \
                empty objects and arrays, and null); without the key the thread is stored with no title at all, and \
                init(from:) rightly throws keyNotFound for it. Write the title as it is, even "". See LESSONS.md §3.4.
                """)
        }
        let title = written?["title"] ?? .null
        XCTAssertEqual(title, .string(""), """
            encode(to:) wrote "title": \(title.description) for a thread with an empty title: a title of its own, \
            which Firebase would store. Write the title exactly as the thread holds it, even an empty one. \
            See LESSONS.md §3.4.
            """)
    }

    func test_encodeTo_writesTheMessagesAsAList_inTheThreadsOrder() throws {
        let thread = Self.threeMessageThread()
        let original = thread.messages
        let object = try encodedObject(thread)
        if thread.messages != original {
            // A class: encode(to:) can change the thread it writes (`messages.sort`), and the app then shows that.
            let senders: [String] = thread.messages.map(\.sender), texts: [String] = thread.messages.map(\.text)
            let order: String
            if thread.messages == Array(original.reversed()) {
                order = "newest first"
            } else if senders == original.map(\.sender).sorted() {
                order = "sorted by sender"
            } else if texts == original.map(\.text).sorted() {
                order = "sorted by text"
            } else {
                order = "in another order"
            }
            throw fail("""
                encode(to:) changed the thread it encoded: its messages are now \(thread.messages.map(\.sender)), \
                \(order); they were \(original.map(\.sender)), oldest first. Encoding must leave the thread as it is \
                (the app still shows it), and write its messages in the thread's order: a sort in encode(to:) changes \
                the thread's own list (`sort`), where `sorted` would make a copy. See LESSONS.md §3.4.
                """)
        }
        // A message in the thread twice, equal in every field (a POST tried again): two messages, both written.
        let twice = MessageThread(title: "Sent twice", identifier: "3C5E7A91-2B4D-4F6A-8E0C-1D3F5B7A9C42",
                                  messages: [thread.messages[0], thread.messages[1], thread.messages[1], thread.messages[2]])
        let twiceWritten = try encodedObject(twice)["messages"]
        // Every message there but fewer of them: de-duplicated (a `contains` check, a Set). Said first, because a Set
        // drops the twin every run, where its order of three messages may look like a sort by text or by sender, or
        // even be right, by luck.
        if let list = twiceWritten.flatMap(Self.messagesAsFirebaseStoresThem), list.count < twice.messages.count,
           Set(list.map(\.description)) == Set(try twice.messages.map { try JSONValue(encoding: $0).description }) {
            try assertWrittenMessages(twiceWritten, of: twice)
        }
        try assertWrittenMessages(object["messages"], of: thread)
        // One message is a list too.
        let one = MessageThread(title: "Just one", identifier: "8F0A2C4E-6B1D-4E3F-A5C7-9D2B4F6A8C01",
                                messages: [thread.messages[1]])
        try assertWrittenMessages(try encodedObject(one)["messages"], of: one)
        try assertWrittenMessages(twiceWritten, of: twice)
    }

    /// A long thread is written whole: a PUT replaces the thread, so a message left out is deleted from the database.
    func test_encodeTo_writesEveryMessageOfALongThread() throws {
        let start = Self.threeMessageThread().messages[0].timestamp
        // The last one was stamped in 2058 by a phone whose date was set by hand: a message like any other.
        let messages = (0..<120).map { index in
            MessageThread.Message(text: "Message \(index + 1) of 120", sender: index % 3 == 0 ? "Ada" : "Grace",
                                  timestamp: index == 119 ? Date(timeIntervalSinceReferenceDate: 1.79884801605321E9)
                                                          : start.addingTimeInterval(Double(index) * 61.25 + 0.000123))
        }
        let thread = MessageThread(title: "A long thread", identifier: "0D2F4B6A-8C1E-4A3B-9D5F-7E9A1C3B5D42", messages: messages)
        let written = try encodedObject(thread)["messages"]
        let writtenList = written.flatMap(Self.messagesAsFirebaseStoresThem)
        if let list = writtenList, list.count == messages.count - 1,
           !list.contains(where: { $0["text"].stringValue == messages[119].text }) {
            throw fail("""
                encode(to:) wrote 119 of the 120 messages of a long thread: it left out the one dated in the future \
                (\(messages[119].text.debugDescription), stamped in 2058 by a phone whose date was set by hand). It is \
                one of the thread's messages, and a PUT replaces the thread: a filter by date here deletes it from the \
                database. Write every message, whatever its timestamp. See LESSONS.md §3.4.
                """)
        }
        if let list = writtenList, list.count < messages.count {
            throw fail("""
                encode(to:) wrote \(list.count) of the 120 messages of a long thread. The app PUTs the whole thread to \
                /<identifier>.json, and a PUT replaces what is there: every message left out (a `prefix`, a `suffix`, \
                a page of them 'to keep uploads small') is deleted from the database. Write every message. \
                See LESSONS.md §3.4.
                """)
        }
        try assertWrittenMessages(written, of: thread)
    }

    /// Each text is written exactly, scalar by scalar: Swift's == calls "é" and "e\u{301}" equal, so a comparison of
    /// Strings would miss a text rewritten in another Unicode spelling; Firebase stores the bytes.
    func test_encodeTo_writesEachTextExactly() throws {
        let base = Self.threeMessageThread().messages[0].timestamp
        let texts = ["Merci, Rene\u{301}e !",                          // an e and a combining accent (U+0301)
                     "First line\r\nsecond line, typed on Windows",   // a CR LF line break: one Character in Swift
                     "Tom & Jerry <3 (see <b>the list</b>)",          // characters HTML would escape
                     "Sent with the return key\n",                    // the newline its author typed
                     Self.pastedLog]                                  // more than a thousand characters: a pasted log
        let messages = texts.enumerated().map { offset, text in
            MessageThread.Message(text: text, sender: offset % 2 == 0 ? "Renée" : "Brigitte",
                                  timestamp: base.addingTimeInterval(Double(offset) * 7.5 + 0.000321))
        }
        let thread = MessageThread(title: "Texts as typed", identifier: "5E7A9C1B-3D5F-4B7A-9C1E-3F5A7C9E1B26", messages: messages)
        let written = try encodedObject(thread)["messages"]
        let list = written.flatMap(Self.messagesAsFirebaseStoresThem) ?? []
        if list.count == messages.count {
            for (got, want) in zip(list, messages) {
                guard let text = got["text"].stringValue, !text.unicodeScalars.elementsEqual(want.text.unicodeScalars) else { continue }
                var cause = "it was changed on the way out."
                if text == want.text {
                    cause = """
                        its Unicode was respelt: an e followed by U+0301 (a combining accent) was written another way, \
                        such as one é (normalised, `precomposedStringWithCanonicalMapping`). Swift's == calls the two \
                        equal; Firebase stores other bytes, and every other client reads another string.
                        """
                } else if want.text.contains("\r\n"), !text.unicodeScalars.contains("\r") {
                    cause = "its line endings were rewritten (`\\r\\n` replaced with `\\n`): the database would hold other bytes than the author's app wrote."
                } else if text.contains("&amp;") || text.contains("&lt;") || text.contains("&gt;") {
                    cause = """
                        it was HTML-escaped (`&amp;`, `&lt;`, `&gt;`): the database would hold text nobody typed, and \
                        every client would show the entities. Escaping belongs to whatever shows a text as HTML, not \
                        to the data.
                        """
                } else if text == want.text.trimmingCharacters(in: .whitespacesAndNewlines) {
                    cause = "it was trimmed: the newline its author typed at its end is gone."
                } else if text.count < want.text.count, want.text.hasPrefix(text) {
                    cause = """
                        it was cut to its first \(text.count) characters of \(want.text.count) (a `prefix` 'to keep \
                        writes small'): Firebase stores a long text whole, and the PUT replaces the message the thread \
                        holds with the cut one.
                        """
                }
                throw fail("""
                    encode(to:) wrote the text \(want.text.debugDescription) as \(text.debugDescription): \(cause) \
                    Encoding changes no data: write each text exactly as the thread holds it — or let Message's own \
                    Encodable write each message. See LESSONS.md §3.4.
                    """)
            }
        }
        try assertWrittenMessages(written, of: thread)
    }

    /// A long text (a pasted log of 40 lines, more than a thousand characters), written whole.
    static let pastedLog = "A pasted log, every line of it:\n" + (1...40).map { "line \($0): fetched 20 threads in 0.3 s, all OK" }.joined(separator: "\n")

    /// A message whose text is empty or only whitespace is still a message: written with the others; so is one whose
    /// sender is empty.
    func test_encodeTo_writesMessagesWithEmptyOrBlankText() throws {
        let base = Self.threeMessageThread().messages
        let messages = [base[0],
                        MessageThread.Message(text: "", sender: "Ada", timestamp: base[0].timestamp.addingTimeInterval(4.25)),
                        MessageThread.Message(text: "   ", sender: "Grace", timestamp: base[0].timestamp.addingTimeInterval(9.5)),
                        MessageThread.Message(text: "\n", sender: "Linus", timestamp: base[0].timestamp.addingTimeInterval(13.75)),
                        // A user who never chose a name: the sender is "".
                        MessageThread.Message(text: "I never chose a name in the app.", sender: "", timestamp: base[0].timestamp.addingTimeInterval(21.125)),
                        base[1]]
        let thread = MessageThread(title: "Blank messages", identifier: "9B3D5F71-2C4E-4A86-8E0F-3A5C7E9B1D28", messages: messages)
        let written = try encodedObject(thread)["messages"]
        let list = written.flatMap(Self.messagesAsFirebaseStoresThem) ?? []
        let texts = list.compactMap { $0["text"].stringValue }
        let lost = messages.filter { $0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !texts.contains($0.text) }
        if !lost.isEmpty, texts.count < messages.count {
            throw fail("""
                encode(to:) left out the messages whose text is empty or only whitespace \
                (\(lost.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: ", "))). They are the \
                thread's messages, and a PUT replaces the thread: leaving them out deletes them from the database. \
                Write every message, text as it is. See LESSONS.md §3.4.
                """)
        }
        if let noName = messages.first(where: { $0.sender.isEmpty }), list.count < messages.count, !texts.contains(noName.text) {
            throw fail("""
                encode(to:) left out the message whose sender is empty (\(noName.text.debugDescription): a user who \
                never chose a name). It is one of the thread's messages, and a PUT replaces the thread: leaving it out \
                deletes it from the database. Write every message, sender as it is, even "". See LESSONS.md §3.4.
                """)
        }
        try assertWrittenMessages(written, of: thread)
    }

    func test_encodeTo_newThread_writesNoMessagesOrAnEmptyList() throws {
        let thread = MessageThread(title: "Nothing yet", identifier: "2A4C6E80-1B3D-4F5A-8C7E-9D0F1A2B3C4D")
        let object = try encodedObject(thread)
        let written = JSONValue.object(object).description
        XCTAssertEqual(object["title"], .string(thread.title), "encode(to:) wrote \(written) for a new thread; it needs its title. See LESSONS.md §3.4.")
        XCTAssertEqual(object["identifier"], .string(thread.identifier), "encode(to:) wrote \(written) for a new thread; it needs its identifier. See LESSONS.md §3.4.")
        if let messages = object["messages"] {
            XCTAssertEqual(Self.messagesAsFirebaseStoresThem(messages)?.count, 0, """
                encode(to:) wrote "messages": \(Self.shortJSON(messages)) for a thread with no messages; write an \
                empty list `[]` or leave the key out (Firebase stores neither). See LESSONS.md §3.4.
                """)
        }
    }

    func test_encodeTo_storedByFirebase_readsBackAsTheSameThread() throws {
        let thread = Self.threeMessageThread()
        let read = try storeAndReadBack(thread)
        XCTAssertNotNil(read["messages"].arrayValue, """
            After a PUT of what encode(to:) wrote, GET returned messages as \(Self.shortJSON(read["messages"])), not \
            an array: Firebase stores a list under the keys 0, 1, 2 and its array heuristic returns an array. \
            See LESSONS.md §3.4.
            """)
        assertSameThread(read, as: thread, source: "what GET returned after a PUT of encode(to:)'s JSON")
    }

    func test_encodeTo_newThread_storedByFirebase_readsBackWithoutMessages() throws {
        let thread = MessageThread(title: "Stored without messages", identifier: "6B8D0F21-3C5E-4A7B-9D1F-2E4A6C8E0B13")
        let read = try storeAndReadBack(thread)
        XCTAssertTrue(read["messages"].isNull, """
            After a PUT of what encode(to:) wrote for a thread with no messages, GET returned "messages": \
            \(Self.shortJSON(read["messages"])); Firebase stores no empty list, so there should be none. \
            See LESSONS.md §3.4.
            """)
        assertSameThread(read, as: thread, source: "what GET returned after a PUT of encode(to:)'s JSON for a new thread")
    }

    // MARK: Helpers

    /// What encode(to:) wrote for `thread`, as a JSON object; stops the test when it is not one.
    func encodedObject(_ thread: MessageThread, file: StaticString = #filePath, line: UInt = #line) throws -> [String: JSONValue] {
        let (_, json) = try encodeThread(thread, file: file, line: line)
        guard let object = json.objectValue else {
            throw fail(Self.keysProblem(of: json, for: thread) ?? "encode(to:) did not write a JSON object. See LESSONS.md §3.4.", file: file, line: line)
        }
        return object
    }

    /// `written` (the value of "messages" encode(to:) wrote, nil when the key is missing) must be what Firebase
    /// stores as the thread's messages, in order: an array of the messages, each as Message encodes itself — or an
    /// object keyed exactly "0", "1", …, which Firebase stores the same way.
    func assertWrittenMessages(_ written: JSONValue?, of thread: MessageThread,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let expected: [JSONValue]
        do {
            expected = try thread.messages.map { try JSONValue(encoding: $0) }
        } catch {
            throw fail("setup: could not encode the test's own messages: \(oneLine(error)).", file: file, line: line)
        }
        guard let written = written, !written.isNull else {
            throw fail("""
                encode(to:) did not write the thread's \(thread.messages.count) message(s): "messages" is \
                \(written == nil ? "missing" : "null").\(thread.messages.count == 1 ? " One message is a list too, of one." : "") \
                See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        guard let list = Self.messagesAsFirebaseStoresThem(written) else {
            if let object = written.objectValue, Set(object.keys) == ["text", "sender", "timestamp"], thread.messages.count == 1 {
                throw fail("""
                    encode(to:) wrote the thread's one message as an object for the key "messages" \
                    (\(Self.shortJSON(written))), not as a list of one: every client reads "messages" as a list (Firebase \
                    would store the message's fields as three children of "messages"). One message is a list too: \
                    encode the array, whatever its length. See LESSONS.md §3.4.
                    """, file: file, line: line)
            }
            if let object = written.objectValue, Set(object.keys) == ["text", "sender", "timestamp"] {
                throw fail("""
                    encode(to:) wrote one message for the key "messages" (\(Self.shortJSON(written))), not a list of the \
                    thread's \(thread.messages.count): a key holds one value, so encoding each message for the same key \
                    keeps only the last. Encode the whole array for "messages". See LESSONS.md §3.4.
                    """, file: file, line: line)
            }
            if let object = written.objectValue, Array(object.keys) == ["messages"] {
                throw fail("""
                    encode(to:) wrote the messages one level too deep, at messages/messages: a nested container for \
                    the key "messages", then the key again inside it. Encode the array itself for "messages" in the \
                    thread's container. It wrote: \(written.description). See LESSONS.md §3.4.
                    """, file: file, line: line)
            }
            if let object = written.objectValue {
                let keys = object.keys.sorted()
                throw fail("""
                    encode(to:) wrote messages as an object with keys of its own (\(keys.prefix(3).joined(separator: ", "))\
                    \(keys.count > 3 ? ", …" : "")). Firebase would store those keys as they are, and they are not push \
                    IDs. Write the messages as an array: the client has no push IDs to give (POST is how a message \
                    gets one), and Firebase stores an array under 0, 1, 2, … and returns it as an array. \
                    See LESSONS.md §3.4.
                    """, file: file, line: line)
            }
            if let text = written.stringValue, (try? JSONValue(data: Data(text.utf8))) != nil {
                throw fail("""
                    encode(to:) wrote messages as a string that holds JSON text (\(Self.shortJSON(written))): Firebase \
                    would store one long string. Encode the array itself for "messages"; the encoder writes it as \
                    JSON. See LESSONS.md §3.4.
                    """, file: file, line: line)
            }
            throw fail("encode(to:) wrote messages as \(Self.shortJSON(written)); expected an array of the thread's messages. See LESSONS.md §3.4.", file: file, line: line)
        }
        guard list != expected else { return }
        if list.count == 1, let inner = list[0].arrayValue, inner == expected {
            throw fail("""
                encode(to:) wrote the messages one level too deep: a list holding the list ([[…]]: Firebase would \
                store them at messages/0/0, messages/0/1, …). The whole array went into a nested unkeyed container \
                for "messages". Encode the array itself for "messages" — or, in the nested container, each message \
                on its own. See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        // Each message is its own, even one equal in every field to another (a request tried again stores it twice).
        var unmatched = list
        let dropped = expected.filter { want in
            guard let index = unmatched.firstIndex(of: want) else { return true }
            unmatched.remove(at: index)
            return false
        }
        if list.count < expected.count, unmatched.isEmpty, !dropped.isEmpty, dropped.allSatisfy({ list.contains($0) }) {
            let twin = dropped[0]
            throw fail("""
                encode(to:) wrote \(list.count) message(s); the thread has \(expected.count). It left out a message \
                equal in every field to one it wrote (\(twin["sender"].stringValue ?? "?")'s \
                \((twin["text"].stringValue ?? "").debugDescription), in the thread twice — a request tried again \
                stores a message twice, and init(from:) keeps both). Write every message the thread holds, as it is: \
                no `contains` check, no Set. See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        guard list.count == expected.count else {
            throw fail("encode(to:) wrote \(list.count) message(s); the thread has \(expected.count): \(Self.shortJSON(written)). Write every message the thread holds. See LESSONS.md §3.4.", file: file, line: line)
        }
        if Set(list.map(\.description)) == Set(expected.map(\.description)) {
            let reversed = list == expected.reversed()
            let sortedBy = ["text", "sender"].first { field in
                list.map { $0[field].stringValue ?? "" } == expected.map { $0[field].stringValue ?? "" }.sorted()
            }
            throw fail("""
                encode(to:) wrote the thread's messages in another order\(reversed ? " (reversed: newest first)" : ""): \
                \(list.map { $0["sender"].stringValue ?? "?" }); the thread holds \
                \(thread.messages.map(\.sender)), oldest first.\(sortedBy.map { " That is the order of their \($0)s: sorted by \($0), not by time." } ?? "")\
                \(!reversed && sortedBy == nil ? " That order is no sort the tests know of — a Set or a Dictionary of the messages, for one, has no order of its own." : "") \
                Write them in the thread's order. See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        for (index, (got, want)) in zip(list, expected).enumerated() where got != want {
            var cause = "Encode each message as it is, with Message's own Encodable."
            let gotKeys = Set(got.objectValue.map { Array($0.keys) } ?? [])
            let wantKeys = Set(want.objectValue.map { Array($0.keys) } ?? [])
            if let object = got.objectValue, object.count == 1, let key = object.keys.first, object[key] == want {
                cause = """
                    It is the message wrapped in an object of its own, keyed "\(key)": Firebase would store the \
                    message one level too deep (messages/\(index)/\(key)/text). Firebase gives a list's children the \
                    keys 0, 1, 2 itself: write each message as it is, in a plain array.
                    """
            } else if got.objectValue != nil, gotKeys != wantKeys {
                let missing = wantKeys.subtracting(gotKeys).sorted(), extra = gotKeys.subtracting(wantKeys).sorted()
                cause = """
                    Its keys are \(gotKeys.sorted().joined(separator: ", ")); a message's are exactly text, sender and \
                    timestamp\(missing.isEmpty ? "" : " (missing: \(missing.joined(separator: ", ")))")\
                    \(extra.isEmpty ? "" : " (not expected: \(extra.joined(separator: ", ")) — no client reads them)"). \
                    Encode each message as it is, with Message's own Encodable.
                    """
            } else if got["timestamp"][".sv"].stringValue != nil {
                cause = """
                    Its timestamp is Firebase's server value \(got["timestamp"].description): the server replaces it \
                    with the time of the PUT, in milliseconds since 1970 — not the message's own time, in seconds \
                    since 2001, which every client reads. Write message.timestamp — or the whole message, with \
                    Message's own Encodable.
                    """
            } else if let seconds = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
               abs(abs(seconds - wanted) - Self.secondsFrom1970To2001) < 1 {
                cause = """
                    Its timestamp is off by exactly the 31 years between 1970 and 2001: Message's own Encodable (and \
                    the data in Firebase) counts seconds since 2001, not since 1970.
                    """
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      abs(number - (wanted + Self.secondsFrom1970To2001) * 1000) < 1000 {
                cause = """
                    Its timestamp is in milliseconds since 1970 (JavaScript's Date.now()): Message's own Encodable \
                    (and the data in Firebase) counts seconds since 2001.
                    """
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      Self.isTimeZoneShift(number - wanted, at: Date(timeIntervalSinceReferenceDate: wanted)) {
                cause = Self.timeZoneCause(number - wanted) + " Write message.timestamp — or the whole message, with Message's own Encodable."
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      abs(number - wanted) > 3600, abs(number - Date().timeIntervalSinceReferenceDate) < 600 {
                cause = """
                    Its timestamp is the moment encode(to:) ran (a new `Date()`), not the message's own: write \
                    message.timestamp — or the whole message, with Message's own Encodable.
                    """
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      number != wanted, abs(number - wanted) < 0.00001 {
                cause = """
                    Its timestamp is \(number), not \(wanted): off in its last digits. Arithmetic on the seconds rounds \
                    — through 1970 and back (`timeIntervalSince1970 - 978307200`), or any other sum — and a Double \
                    keeps only about 16 digits. Encode the Date itself (Date's own Encodable writes \
                    timeIntervalSinceReferenceDate, exactly), or the whole message.
                    """
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      number != wanted, abs(number - wanted) < 1 {
                cause = """
                    Its timestamp is \(number), not \(wanted): it lost its fraction of a second (rounded, or written \
                    as a whole number). Encode the Date itself, or the whole message.
                    """
            } else if got["text"] == want["sender"], got["sender"] == want["text"] {
                cause = """
                    Its text and sender are swapped: write the message's text for the key "text" and its sender for \
                    "sender" — or let Message's own Encodable write them.
                    """
            } else if got["timestamp"] == want["timestamp"], got["sender"] == want["sender"], let text = got["text"].stringValue,
                      let wanted = want["text"].stringValue, text != wanted, wanted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                cause = Self.placeholderCause("text", was: wanted, now: text)
            } else if got["timestamp"] == want["timestamp"], got["text"] == want["text"], want["sender"] == .string(""),
                      let sender = got["sender"].stringValue, !sender.isEmpty {
                cause = Self.placeholderCause("sender", was: "", now: sender)
            } else if got["text"] == want["text"], got["timestamp"] == want["timestamp"],
                      let sender = got["sender"].stringValue, let wanted = want["sender"].stringValue,
                      sender != wanted, sender.lowercased() == wanted.lowercased() {
                cause = """
                    Its sender's letters' case was changed (\(wanted.debugDescription) written as \
                    \(sender.debugDescription), as `capitalized` does): encoding changes no data — write each sender \
                    exactly as the thread holds it, or let Message's own Encodable write each message.
                    """
            } else if let number = got["timestamp"].numberValue, let wanted = want["timestamp"].numberValue,
                      abs(number - wanted) >= 1, Float(number) == Float(wanted) {
                cause = """
                    Its timestamp is \(number), not \(wanted): it went through a Float, which keeps about 7 significant \
                    digits (this timestamp has 15). Encode the Date itself (or a Double), or the whole message.
                    """
            } else if let text = got.stringValue, let inner = try? JSONValue(data: Data(text.utf8)), inner.objectValue != nil {
                cause = """
                    It is a string that holds the message's JSON text (\(Self.shortJSON(got))): the message was encoded \
                    with a JSONEncoder of its own and its text written into the list, so Firebase would store a string. \
                    Encode the Message itself into the list (`list.encode(message)`), or the whole array.
                    """
            } else if let text = got.stringValue, let bytes = Data(base64Encoded: text), (try? JSONValue(data: bytes)) != nil {
                cause = """
                    It is a base64 string (\(Self.shortJSON(got))): the message was encoded to Data with a JSONEncoder \
                    of its own, and JSONEncoder writes Data as base64 text. Encode the Message itself into the list \
                    (`list.encode(message)`), or the whole array.
                    """
            } else if let text = got["timestamp"].stringValue {
                cause = """
                    Its timestamp is a string, \(text.debugDescription): Message's own Encodable writes a Date as a \
                    number, seconds since 2001 (JSONEncoder's default), and that is what init(from:) and every other \
                    client read. Encode the Date itself, or the whole message.
                    """
            }
            throw fail("""
                encode(to:) wrote message \(index) as \(got.description); the thread's message \(index) encodes \
                itself as \(want.description). \(cause) See LESSONS.md §3.4.
                """, file: file, line: line)
        }
    }

    /// Fields of `read` (a thread's JSON as Firebase returned it), read without the learner's code, against `thread`.
    func assertSameThread(_ read: JSONValue, as thread: MessageThread, source: String,
                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(read["title"].stringValue, thread.title, "\(source) has the title \(read["title"].description); the thread's is \"\(thread.title)\". See LESSONS.md §3.4.", file: file, line: line)
        XCTAssertEqual(read["identifier"].stringValue, thread.identifier, "\(source) has the identifier \(read["identifier"].description); the thread's is \"\(thread.identifier)\". See LESSONS.md §3.4.", file: file, line: line)
        let messages = (read["messages"].arrayValue ?? []).map(Self.referenceMessage)
        XCTAssertTrue(messages == thread.messages.map { Optional($0) }, """
            \(source) holds the messages \(Self.shortJSON(read["messages"])); the thread's are \
            \(Self.timeline(thread.messages)), in that order. See LESSONS.md §3.4.
            """, file: file, line: line)
    }

    /// PUTs what encode(to:) wrote for `thread` at its identifier in a fresh emulator, then GETs it back.
    func storeAndReadBack(_ thread: MessageThread, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let (body, _) = try encodeThread(thread, file: file, line: line)
        let emulator = FirebaseEmulator()
        defer { emulator.invalidate() }
        let url = emulator.baseURL.appendingPathComponent(thread.identifier).appendingPathExtension("json")
        var put = URLRequest(url: url)
        put.httpMethod = "PUT"
        put.httpBody = body
        let stored = emulator.handle(put)
        guard stored.statusCode == 200 else {
            throw fail("""
                Firebase (the emulator) refused a PUT of what encode(to:) wrote, with \(stored.statusCode) \
                \(oneLine(stored.bodyText ?? "")). The body: \(String(decoding: body.prefix(300), as: UTF8.self)). \
                See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        let got = emulator.handle(URLRequest(url: url))
        guard got.statusCode == 200, let read = got.bodyJSON else {
            throw fail("setup: GET of the stored thread failed: \(got.statusCode) \(got.bodyText ?? "").", file: file, line: line)
        }
        return read
    }
}
