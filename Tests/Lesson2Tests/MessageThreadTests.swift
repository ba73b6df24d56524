import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Exercise 2.3: `MessageThread` — the thread layer of the JSON, with the message layer nested in its `messages`.
/// These tests compare threads through their JSON, not with == (exercise 2.4). Where a thread holds messages, the
/// expected JSON holds them as your `MessageThread.Message` encodes them, so a mistake of §2.2 is reported there, not
/// here; a test that must decode messages first checks that your Message decodes ("setup: …").
final class MessageThreadTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.thread
    let model = "MessageThread"

    /// Runs this exercise's own function first, so that against the stubs the test reports this exercise's stub
    /// ("not started yet: MessageThread.init…"), not the message's it also runs.
    override func setUp() {
        super.setUp()
        _ = MessageThread(title: "probe", identifier: "probe", messages: [])
    }

    /// The recorded thread's values, by the name of the parameter (and property) that holds each.
    var given: [(name: String, value: Any)] {
        [("title", Self.sampleTitle), ("identifier", Self.sampleThreadID), ("messages", [sampleMessage()])]
    }

    /// The recorded thread (Fixtures/lesson2/thread.json), its messages as the learner's Message encodes them.
    func expectedThread() throws -> JSONValue {
        guard case .object(var thread) = try Fixtures.json(Self.threadFixture) else { throw fail("setup: Fixtures/\(Self.threadFixture) is not an object") }
        thread["messages"] = [try encoded(sampleMessage(), exercise, setup: "MessageThread.Message (§2.2)")]
        return .object(thread)
    }

    /// Stops the test when the learner's Message (§2.2) cannot decode the recorded message or decodes another one.
    func requireMessageDecodes() throws {
        try requireSteadyMessageEquality()
        let message = try decodeFixture(MessageThread.Message.self, Self.messageFixture, Lesson2TestCase.message,
                                        sample: sampleMessage(), setup: "MessageThread.Message (§2.2) does not decode")
        if !(message == sampleMessage()) {
            throw fail("""
                setup: MessageThread.Message (§2.2) decodes the recorded message (Fixtures/\(Self.messageFixture)) as a \
                message that is not == to the same message built with its initialiser, so no thread holding it can decode \
                right. Make the tests of §2.2 (MessageTests) pass first. See LESSONS.md §2.2.
                """)
        }
    }

    /// Whether the learner's Message decodes the recorded message as the same message built with its initialiser.
    /// When it does not (a §2.2 mistake), messages that differ are no sign that `messages` kept an initial value.
    func messagesKeepTheirValues() -> Bool {
        (try? JSONDecoder().decode(MessageThread.Message.self, from: Fixtures.data(Self.messageFixture))).map { $0 == sampleMessage() } ?? false
    }

    func test_messageThread_encodesExactlyTheKeysFirebaseStores() throws {
        let thread = sampleThread()
        let json = try encoded(thread, exercise)
        let recorded = try recordedLayers().thread
        if let problem = Self.keyProblem(model, encodes: json, recorded: recorded, fixture: Self.databaseFixture,
                                         properties: Set(Self.stored(thread).keys)) {
            // A subclass of a Codable class gets no Codable of its own: it inherits the base's encode(to:), which
            // writes the base's properties only (the compiler asks for init(from:), never for encode(to:)).
            let inherited = Self.baseClass(of: thread).map { base in json["super"].objectValue != nil ? """
                 MessageThread inherits from \(base), and your encode(to:) hands \(base)'s encode(to:) \
                `container.superEncoder()`, which writes \(base)'s properties into a nested object under the key \
                "super" (and `superDecoder()` reads them back from there). The data holds them in the thread's own \
                object: call `try super.encode(to: encoder)` with the encoder itself (and `try super.init(from: decoder)`).
                """ : """
                 MessageThread inherits from \(base), and Swift writes no Codable for a subclass: it inherits \(base)'s \
                encode(to:), which writes \(base)'s properties only (the compiler asks you for `init(from:)`, never for \
                `encode(to:)`). Override encode(to:) in MessageThread to write its own properties too, after \
                `try super.encode(to: encoder)`.
                """ } ?? ""
            XCTFail("\(problem)\(inherited) Your thread encodes to \(json.description). See LESSONS.md §2.1 and §2.3.")
        }
    }

    func test_messageThread_isAClass() throws {
        // A class is told by its type, not by Mirror's displayStyle, which a custom mirror (CustomReflectable) may leave out.
        let style = Mirror(reflecting: sampleThread()).displayStyle
        if !((MessageThread.self as Any.Type) is AnyClass) {
            XCTFail("""
                MessageThread is a \(style.map { "\($0)" } ?? "?"), but it should be a class (`final class`): Lesson 1's \
                controller appends a new message to the thread the caller passed in, and only a reference type lets the \
                caller see that append — a struct would be copied, and the append lost with the copy. See LESSONS.md §2.3.
                """)
        }
    }

    func test_messageThread_propertiesAreNotOptional() throws {
        let stored = Self.stored(sampleThread())
        let optional = given.map(\.name).filter { stored[$0].map(Self.isOptional) ?? false }
        if !optional.isEmpty {
            XCTFail("""
                In MessageThread, \(optional.map { "`\($0)` is declared \(Self.typeDescription(of: stored[$0]!))" }.joined(separator: " and ")): \
                optional. Every thread has a title, an identifier and its messages (none is `[]`), so declare \
                \(optional.count == 1 ? "it" : "them") without `?`: an optional makes every reader unwrap it\
                \(optional.contains("messages") ? ", and Lesson 1's `messageThread.messages.append(message)` would not compile" : ""). \
                See LESSONS.md §2.3.
                """)
        }
    }

    func test_messageThread_encodesMessagesAsAnArrayOfMessageObjects() throws {
        // Not in time order, so that a thread that sorts its messages is seen; then the other way round, so that one that
        // loses the order (a Set) is seen whatever order it happens to keep; then one message twice (two POSTs of the
        // same words make two equal messages), so that one that drops repeated messages is seen; then one whose text is
        // empty, so that one that filters out "blank" messages (validation that belongs to the screens) is seen.
        let first = MessageThread.Message(text: "First", sender: "Ada", timestamp: Self.sampleDate.addingTimeInterval(60))
        let second = MessageThread.Message(text: "Second", sender: "Grace", timestamp: Self.sampleDate)
        let blank = MessageThread.Message(text: "", sender: "Grace", timestamp: Self.sampleDate.addingTimeInterval(120))
        // And one whose sender is empty (an anonymous post), so that one that filters out "anonymous" messages is seen.
        let anonymous = MessageThread.Message(text: "Anonymous", sender: "", timestamp: Self.sampleDate.addingTimeInterval(180))
        for given in [[first, second], [second, first], [first, first], [first, blank], [first, anonymous]] {
            let thread = MessageThread(title: "Nesting", identifier: Self.sampleThreadID, messages: given)
            let json = try encoded(thread, exercise)
            let messages = json["messages"]
            let declared = Self.stored(thread)["messages"].map { "your `messages` property is declared \(Self.typeDescription(of: $0))" }
            switch messages {
            case .array(let elements):
                let expected = JSONValue.array(try given.map { try encoded($0, exercise) })
                guard messages != expected else { continue }
                let reversed = JSONValue.array(try given.reversed().map { try encoded($0, exercise) })
                let storage = Self.storageProblems(thread, given: [("messages", given)])
                let initialValue = messagesKeepTheirValues()
                    ? initialValueProblems(sampleThread(), given: [("messages", [sampleMessage()])], fixture: Self.threadFixture) : []
                // The messages given that are not among those written (a repeated one counted once each).
                var missing = expected.arrayValue ?? []
                for element in elements { if let index = missing.firstIndex(of: element) { missing.remove(at: index) } }
                let cause = elements.count < given.count && !missing.isEmpty && missing.allSatisfy({ $0["text"] == .string("") })
                    ? "It was given a message whose text is empty and dropped it: keep every message the caller gives — what to accept, and how to show it, is for the screens to decide."
                    : elements.count < given.count && !missing.isEmpty && missing.allSatisfy({ $0["sender"] == .string("") })
                    ? "It was given a message whose sender is empty (an anonymous post) and dropped it: keep every message the caller gives — what to accept, and how to show a missing name, is for the screens to decide."
                    : given[0] == given[1] && elements.count < given.count
                    ? "It was given the same message twice and holds it once: keep every message, repeated ones too — two POSTs of the same words are two messages."
                    : messages == reversed ? (storage.isEmpty && Self.isArrayProperty(Self.stored(thread)["messages"])
                        ? "Your `messages` property holds them in the order given, so your own encoding (`encode(to:)`) writes them in another order (reversed, or sorted?): encode the array as it is, `container.encode(messages, forKey: .messages)` — the thread keeps its messages in order, and what order to show them in is for the screens."
                        : "It holds the two messages in another order: keep the order the caller gave (a Set, or sorting, loses it).")
                    : storage.isEmpty ? """
                        Your `messages` property holds the messages given, so your own encoding (`encode(to:)`) writes \
                        something else: \(Self.differences(messages, expected, at: "messages").joined(separator: "; ")). Let each \
                        message encode itself, as MessageThread.Message's Codable does: `container.encode(messages, forKey: .messages)`.
                        """
                    : initialValue.isEmpty ? "In the thread your initialiser built, \(storage.joined(separator: "; ")). Store the `messages` parameter unchanged."
                    : initialValue.joined(separator: " ")
                XCTFail("""
                    A thread made with two messages should encode "messages" as an array of the two, each encoded as \
                    MessageThread.Message encodes it, in the order given: \(expected.description). It encodes \
                    \(elements.count) element(s): \(messages.description). \(cause) \
                    See LESSONS.md §2.1 and §2.3.
                    """)
            case .object:
                let isArray = Self.isArrayProperty(Self.stored(thread)["messages"])
                // `for message in messages { try container.encode(message, forKey: .messages) }`: each encode under the same
                // key replaces the one before, and the last message is left, an object.
                let last = try encoded(given[given.count - 1], exercise)
                let lastOnly = isArray && messages == last
                // `@DefaultEmpty var messages` whose wrapper's Codable Swift wrote: the wrapper is encoded, as an object of
                // its own stored property, {"wrappedValue": [ … ]}.
                let wrapper = isArray ? Self.propertyWrapper(of: thread, "messages") : nil
                XCTFail("""
                    A thread made with two messages encodes "messages" as a JSON object (\(messages.description))\
                    \(declared.map { ": \($0)" } ?? ""). \(wrapper.map { """
                        Your `messages` property is an array behind your property wrapper @\($0), and JSONEncoder encodes \
                        the wrapper, with the wrapper's own Codable: the one Swift writes for a struct encodes it as an object \
                        of its stored properties\(messages["wrappedValue"].isNull ? "" : ", {\"wrappedValue\": [ … ]}"). Give @\($0) \
                        an encode(to:) and an init(from:) that encode the array itself in a single-value container \
                        (`var container = encoder.singleValueContainer(); try container.encode(wrappedValue)`), or drop the wrapper.
                        """ } ?? (lastOnly
                        ? "That object is your last message alone: encoding a value under a key that already holds one replaces it, so a loop that encodes each message under \"messages\" leaves only the last. Encode the array itself, once, `container.encode(messages, forKey: .messages)`, and JSONEncoder writes a JSON array of message objects, in order."
                        : isArray
                        ? "The property is an array, so your own encoding (`encode(to:)`) turns it into an object: encode the array itself, `container.encode(messages, forKey: .messages)`, and JSONEncoder writes a JSON array of message objects, in order."
                        : "The thread holds its messages as an array, `[MessageThread.Message]`, which JSONEncoder writes as a JSON array of message objects.")) \
                    (Firebase itself keys POSTed messages by push ID; reading that form is Lesson 3.) See LESSONS.md §2.3.
                    """)
            case .null:
                XCTFail("""
                    A thread made with two messages encodes no "messages": \(json.description). Add a `messages` property, \
                    `[MessageThread.Message]`, and store the parameter in it. See LESSONS.md §2.3.
                    """)
            default:
                let isArray = Self.isArrayProperty(Self.stored(thread)["messages"])
                XCTFail("""
                    A thread made with two messages encodes "messages" as \(Self.kind(messages)) \(messages.description), not an \
                    array of message objects\(declared.map { " (\($0))" } ?? ""). \(isArray
                        ? "The property is an array, so your own encoding (`encode(to:)`) turns it into \(Self.kind(messages) == "the string" ? "a string (a JSON text inside the JSON?)" : Self.kind(messages)): encode the array itself, `container.encode(messages, forKey: .messages)`, and JSONEncoder nests each message object in it."
                        : "Type the property `[MessageThread.Message]`: the thread's JSON layer nests the message layer.") \
                    See LESSONS.md §2.1 and §2.3.
                    """)
            }
            return
        }
        try requireLongThreadKept()
    }

    /// 150 messages a minute apart, each with a text of its own: the first 140 from the recorded one's date (2018) on,
    /// the last 10 in 2051 — dated in the future, as a device whose clock runs ahead, or a message scheduled for later,
    /// dates them.
    func longListOfMessages() -> [MessageThread.Message] {
        let future = Date(timeIntervalSinceReferenceDate: 1_600_000_000.5)
        return (0..<150).map { (index: Int) -> MessageThread.Message in
            let start: Date = index < 140 ? Self.sampleDate : future
            let sender = index % 2 == 0 ? "Ada" : "Grace"
            return MessageThread.Message(text: "Message \(index + 1)", sender: sender, timestamp: start.addingTimeInterval(Double(index) * 60))
        }
    }

    /// What a model that "bounds" its messages (`suffix(100)`, `prefix(50)`) or drops those dated in the future loses,
    /// in words: which of the `sent` messages `kept` holds, when it holds fewer, and in order.
    static func cutShort(_ kept: [JSONValue], of sent: [JSONValue]) -> String? {
        guard kept.count < sent.count else { return nil }
        let now = Date().timeIntervalSinceReferenceDate
        let past = sent.filter { ($0["timestamp"].numberValue ?? 0) <= now }
        if kept == past {
            return "only the \(kept.count) dated before now: the \(sent.count - kept.count) dated in the future are missing — a model that drops (or 'corrects') a future date loses the messages of a device whose clock runs ahead"
        }
        if kept == Array(sent.suffix(kept.count)) { return "only the last \(kept.count): the first \(sent.count - kept.count) are missing" }
        if kept == Array(sent.prefix(kept.count)) { return "only the first \(kept.count): the last \(sent.count - kept.count) are missing" }
        return "\(kept.count) of them"
    }

    /// The rest of test_messageThread_encodesMessagesAsAnArrayOfMessageObjects: a long thread keeps every message.
    func requireLongThreadKept() throws {
        let given = longListOfMessages()
        let thread = MessageThread(title: "A long thread", identifier: Self.sampleThreadID, messages: given)
        let json = try encoded(thread, exercise)
        let expected = try given.map { try encoded($0, exercise) }
        guard let written = json["messages"].arrayValue, written != expected else { return }
        let held = Self.stored(thread)["messages"].flatMap(Self.unwrap).map { Mirror(reflecting: $0).children.count }
        XCTFail("""
            A thread made with \(given.count) messages encodes \(Self.cutShort(written, of: expected) ?? "\(written.count) message(s), not the \(given.count) given in their order"). \
            \(held == given.count ? "Your `messages` property holds all \(given.count), so your own encoding (`encode(to:)`) is what drops some." : held.map { "Your `messages` property holds \($0): your initialiser drops some." } ?? "") \
            A thread keeps every message it is given, however many: how many to show (or to fetch) is for the screens \
            and the requests to decide, not for the model. Store the parameter unchanged. See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_encodesTheRecordedThread() throws {
        let thread = sampleThread()
        let json = try encoded(thread, exercise)
        let expected = try expectedThread()
        let differences = Self.differences(json, expected)
        guard !differences.isEmpty else { return }
        let storage = Self.storageProblems(thread, given: given)
        let initialValue = initialValueProblems(thread, given: given.filter { messagesKeepTheirValues() || $0.name != "messages" },
                                                fixture: Self.threadFixture)
        let cause = storage.isEmpty
            ? "Each property holds its parameter, so your own encoding (CodingKeys or `encode(to:)`) is what writes other values."
            : initialValue.isEmpty
            ? "In the thread your initialiser built, \(storage.joined(separator: "; ")). Store each parameter unchanged in the property of the same name."
            : initialValue.joined(separator: " ")
        let comparison = """
            The recorded thread, built as MessageThread(title: "\(Self.sampleTitle)", identifier: "\(Self.sampleThreadID)", \
            messages: [<the recorded message>]), encodes to \(json.description); a PUT of it must send \
            \(expected.description) (Fixtures/\(Self.threadFixture), its message as your MessageThread.Message encodes it). \
            Differences: \(differences.joined(separator: "; ")).
            """
        // When the initialiser is the cause, it comes first: the comparison only shows its effect.
        XCTFail(storage.isEmpty ? "\(comparison) \(cause) See LESSONS.md §2.3." : "\(cause) \(comparison) See LESSONS.md §2.3.")
    }

    func test_messageThread_keepsWhatItIsGivenUnchanged() throws {
        // An identifier is whatever key the app chose (Lesson 1): a lower-case UUID, a push ID. A title may have spaces.
        let cases: [(title: String, identifier: String)] = [
            ("  Codable: nesting ", "0d4ce3a0-7c2b-4b61-9a8e-3f1b2c4d5e6f"),
            ("REST APIs", "-LJNQ2zNeL4bwG1qpwYB"),
            ("", "thread-1"),
            ("A key with spaces", " thread 3 "),
            ("A title\non two lines", "thread-4"),
            (String(repeating: "A thread with a long title. ", count: 10), "thread-2"),
        ]
        for (title, identifier) in cases {
            let thread = MessageThread(title: title, identifier: identifier)
            let json = try encoded(thread, exercise)
            let expected: JSONValue = ["title": .string(title), "identifier": .string(identifier)]
            let written: JSONValue = ["title": json["title"], "identifier": json["identifier"]]
            let differences = Self.differences(written, expected)
            guard !differences.isEmpty else { continue }
            // A title of hundreds of characters, cut short: said in lengths, not quoted in full.
            if title.count > 120, json["identifier"] == .string(identifier), let kept = json["title"].stringValue, kept.count < title.count {
                let held = Self.stored(thread)["title"].flatMap(Self.unwrap) as? String
                XCTFail("""
                    MessageThread(title: <a title of \(title.count) characters>, identifier: "\(identifier)") encodes a title of \
                    \(kept.count) characters\(title.hasPrefix(kept) ? ", its beginning: cut short (a length limit?)" : ""). \
                    \(held == title ? "Your `title` property holds the whole title, so your own encoding (`encode(to:)`) is what cuts it." : "Your initialiser changes what it stores.") \
                    A thread keeps exactly the title it is given, however long: how much of it to show is for the screens \
                    to decide. Store the parameter unchanged. See LESSONS.md §2.3.
                    """)
                return
            }
            let storage = Self.storageProblems(thread, given: [("title", title), ("identifier", identifier)])
            let declared = Self.stored(thread)["identifier"].map(Self.typeDescription(of:)).flatMap { $0 == "String" ? nil : $0 }
            XCTFail("""
                MessageThread(title: \(JSONValue.string(title).description), identifier: "\(identifier)") encodes to \
                \(json.description): \(differences.joined(separator: "; ")). \
                \(storage.isEmpty ? "Each property holds its parameter, so your own encoding (CodingKeys or `encode(to:)`) is what changes it."
                    : "In the thread your initialiser built, \(storage.joined(separator: "; ")).")\
                \(declared.map { " Your `identifier` property is declared \($0): declare it a `String`, as the data's keys are — the identifier is whatever key the app chose, not always an upper-case UUID." } ?? "") \
                A thread keeps exactly what it is given — no trimming (of the identifier either), no change of case, \
                no title joined into one line, no stand-in for an empty title: store each parameter unchanged. \
                See LESSONS.md §2.3.
                """)
            return
        }
    }

    func test_messageThread_decodesTheRecordedThread() throws {
        try requireMessageDecodes()
        let decoded = try decodeFixture(MessageThread.self, Self.threadFixture, exercise, sample: sampleThread())
        let json = try encoded(decoded, exercise)
        let expected = try expectedThread()
        let differences = Self.differences(json, expected)
        guard !differences.isEmpty else { return }
        let storage = Self.storageProblems(decoded, given: given, decoded: true)
        let cause = storage.isEmpty
            ? "Its properties hold the recorded values, so your own encoding (CodingKeys or `encode(to:)`) is what writes other values."
            : "Decoded, \(storage.joined(separator: "; ")): decode each property from its key, unchanged."
        XCTFail("""
            Decoding the recorded thread (Fixtures/\(Self.threadFixture)) and encoding it again gives \(json.description), \
            not the thread it records, \(expected.description). Differences: \(differences.joined(separator: "; ")). \
            \(cause) See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_roundTripsThroughJSON() throws {
        // Not in time order, one message twice, and not the same read backwards: a decoding that sorts the messages,
        // drops a repeated one, or puts each before the ones read earlier, is seen.
        let later = MessageThread.Message(text: "Two", sender: "Grace", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_060.25))
        let messages = [
            later,
            MessageThread.Message(text: "One", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000.5)),
            later,
            MessageThread.Message(text: "Zero", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 599_999_940.75)),
        ]
        // Then a title with spaces at its ends, a lower-case UUID as identifier (a key the app chose), a message with an
        // empty text and one with an empty sender; then an empty title and a push ID; then an identifier with spaces in
        // it: what a decoding that "tidies", "validates" or fills in the server's data changes.
        let blank = MessageThread.Message(text: "", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_120.5))
        // And a message with an empty sender (an anonymous post), which a decoding that filters "spam" drops.
        let anonymous = MessageThread.Message(text: "Anonymous", sender: "", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_180.5))
        try requireSteadyMessageEquality()
        for message in messages + [blank, anonymous] {
            let back = try? JSONDecoder().decode(MessageThread.Message.self, from: JSONEncoder().encode(message))
            if !(back.map { $0 == message } ?? false) {
                throw fail("""
                    setup: a MessageThread.Message (§2.2) does not survive encode → decode on its own, so no thread holding \
                    it can. Make the tests of §2.2 (MessageTests) pass first. See LESSONS.md §2.2.
                    """)
            }
        }
        let threads = [
            MessageThread(title: "Round trip", messages: messages),
            MessageThread(title: "  Round trip ", identifier: "0d4ce3a0-7c2b-4b61-9a8e-3f1b2c4d5e6f", messages: [messages[1], blank, anonymous]),
            MessageThread(title: "", identifier: "-LJNQ2zNeL4bwG1qpwYB", messages: [messages[1]]),
            MessageThread(title: "A key with spaces", identifier: " thread 3 ", messages: [messages[1]]),
        ]
        for thread in threads {
            let before = try encoded(thread, exercise)
            let data = try JSONEncoder().encode(thread)
            let back: MessageThread
            do {
                back = try JSONDecoder().decode(MessageThread.self, from: data)
            } catch {
                throw fail("""
                    A thread encoded by JSONEncoder does not decode again: \(Self.explain(error, data: before)) Your encoding \
                    and your decoding must agree. Encoded: \(before.description). See LESSONS.md §2.3.
                    """)
            }
            let after = try encoded(back, exercise)
            // Compared as JSON, a layer written as JSON text too (a mistake the tests before name): that text has
            // JSONEncoder's key order, which is not fixed, so the same value could differ as a string by luck.
            guard Self.parsingEmbeddedJSON(after) != Self.parsingEmbeddedJSON(before) else { continue }
            let sent = before["messages"].arrayValue ?? [], received = after["messages"].arrayValue ?? []
            func sorted(_ list: [JSONValue]) -> [String] { list.map(\.description).sorted() }
            var missing = sorted(sent)
            for message in received { if let index = missing.firstIndex(of: message.description) { missing.remove(at: index) } }
            let droppedBlank = received.count < sent.count && !missing.isEmpty
                && sent.filter { missing.contains($0.description) }.allSatisfy { $0["text"] == .string("") }
            let droppedAnonymous = received.count < sent.count && !missing.isEmpty
                && sent.filter { missing.contains($0.description) }.allSatisfy { $0["sender"] == .string("") }
            // The title and the identifier the data held unchanged, and what the decoded thread holds instead.
            let held = Self.stored(back)
            let changed = ["title", "identifier"].filter { name in
                before[name].stringValue.map { value in held[name].flatMap(Self.unwrap).map { $0 as? String != value } == true } ?? false
            }.map { name in
                "decoded, `\(name)` holds \(held[name].flatMap(Self.unwrap).map { ($0 as? String).map { JSONValue.string($0).description } ?? Self.show($0) } ?? "nil") where the data holds \(before[name].description)"
            }
            let cause = droppedBlank
                ? " It went out with \(sent.count) messages and came back with \(received.count): your decoding drops the message whose text is empty. Keep every message the data holds — what to show is for the screens to decide."
                : droppedAnonymous
                ? " It went out with \(sent.count) messages and came back with \(received.count): your decoding drops the message with an empty sender (an anonymous post). Keep every message the data holds — how to show a missing name is for the screens to decide."
                : received.count < sent.count && Set(received.map(\.description)) == Set(sent.map(\.description))
                ? " It went out with \(sent.count) messages, one of them twice, and came back with \(received.count): your decoding drops a message equal to one before it. A message given twice must come back twice — two POSTs of the same words are two messages."
                : received.count == sent.count && received != sent && received == sent.reversed()
                ? " Its messages came back in reverse order: your decoding puts each message before the ones read earlier (insert at 0, or reversed()). Keep them in the order the data holds them — the thread keeps its messages in order (§2.3)."
                : received.count == sent.count && received != sent && sorted(received) == sorted(sent)
                ? " Its messages came back in another order: decode them in the order the data holds them — don't sort them (the thread keeps its messages in order, §2.3)."
                : received.count < sent.count && Array(sent.prefix(received.count)) == received
                ? " It went out with \(sent.count) messages and came back with only the first \(received.count): your decoding stops before the end of the array. Read every message: decode the whole array, `[MessageThread.Message].self`, or loop over a nested unkeyed container `while !list.isAtEnd`."
                : !changed.isEmpty
                ? " The JSON holds what the thread was given, but \(changed.joined(separator: "; ")): your decoding changes it (trimming? a stand-in for an empty title? a UUID's upper-case spelling, `UUID(uuidString:)?.uuidString`?). A thread keeps exactly what the data holds: the identifier is whatever key the app chose, and a lower-case UUID is another key than its upper-case spelling."
                : ""
            XCTFail("""
                A thread encoded and decoded again is not the same: it went out as \(before.description) and came back as \
                \(after.description). Differences: \(Self.differences(after, before).joined(separator: "; ")).\(cause) Every property \
                must be encoded and decoded unchanged. See LESSONS.md §2.3.
                """)
            return
        }
        try requireLongThreadRoundTrips()
    }

    /// The rest of test_messageThread_roundTripsThroughJSON: a long thread comes back with every message (a decoding
    /// that keeps a page of them, `prefix(100)`, is seen).
    func requireLongThreadRoundTrips() throws {
        let thread = MessageThread(title: "A long thread", identifier: Self.sampleThreadID, messages: longListOfMessages())
        let before = try encoded(thread, exercise)
        let back: MessageThread
        do {
            back = try JSONDecoder().decode(MessageThread.self, from: JSONEncoder().encode(thread))
        } catch {
            throw fail("""
                A thread of 150 messages encoded by JSONEncoder does not decode again: \(Self.explain(error, data: before)) \
                Your encoding and your decoding must agree. See LESSONS.md §2.3.
                """)
        }
        let after = try encoded(back, exercise)
        let sent = before["messages"].arrayValue ?? [], received = after["messages"].arrayValue ?? []
        guard received != sent else { return }
        XCTFail("""
            A thread encoded with \(sent.count) messages and decoded again comes back with \
            \(Self.cutShort(received, of: sent) ?? "\(received.count) message(s), not the \(sent.count) it held in their order"): \
            your decoding keeps part of the array (a page size, `prefix(_:)` or `suffix(_:)`?). A thread keeps every \
            message the data holds, however many: how many to show, or to fetch, is for the screens and the requests to \
            decide. Decode the whole array, `[MessageThread.Message].self`. See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_identifierDefaultsToANewUUIDString() throws {
        let first = try encoded(MessageThread(title: "First"), exercise)
        let second = try encoded(MessageThread(title: "Second"), exercise)
        guard let identifier = first["identifier"].stringValue else {
            throw fail("""
                MessageThread(title: "First") encodes its identifier as \(first["identifier"].description), not a string: \
                \(first.description). `identifier` is a String property holding the `identifier` parameter. See LESSONS.md §2.3.
                """)
        }
        let storesGiven = (try? JSONValue(encoding: MessageThread(title: "Given", identifier: Self.sampleThreadID)))?["identifier"] == .string(Self.sampleThreadID)
        XCTAssertNotNil(UUID(uuidString: identifier), """
            MessageThread(title:) should get a new UUID string as its identifier (the parameter's default, \
            `UUID().uuidString`); it encodes "identifier": "\(identifier)". \(storesGiven
                ? "Given an identifier, your initialiser stores it, so what differs is the value used when it is left out."
                : "Store the `identifier` parameter: its default is already in the signature.") See LESSONS.md §2.3.
            """)
        XCTAssertFalse(second["identifier"].stringValue == identifier, """
            Two threads made with MessageThread(title:) got the same identifier, "\(identifier)". Each new thread needs a \
            new UUID: it is the thread's key in the database, and two threads with one key overwrite each other. A default \
            (or a `static let`) computed once is shared by every thread; `UUID().uuidString` as the parameter's default is \
            computed anew for each call. See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_messagesDefaultToNone() throws {
        let thread = MessageThread(title: "Empty")
        let json = try encoded(thread, exercise)
        // Firebase stores an empty array as no data at all, so leaving the key out is as good as writing [].
        XCTAssertTrue(json["messages"] == [] || json["messages"].isNull, """
            MessageThread(title:) should have no messages (the parameter defaults to `[]`), which JSONEncoder writes as \
            "messages": []. It encodes \(json.description). See LESSONS.md §2.3.
            """)
        do {
            _ = try JSONDecoder().decode(MessageThread.self, from: JSONEncoder().encode(thread))
        } catch {
            XCTFail("""
                A thread with no messages encodes as \(json.description), which your MessageThread cannot decode again: \
                \(Self.explain(error, data: json)) Your encoding and your decoding must agree. See LESSONS.md §2.3.
                """)
        }
    }

    func test_messageThread_decodingMessagesItCannotRead_stops() throws {
        // What a server can answer: Firebase leaves a null where an array's element was deleted, and another app may
        // write a message without a sender. Throwing, or skipping what cannot be read, are both answers; looping for ever
        // is not: `try? list.decode(…)` inside `while !list.isAtEnd` — a decode that fails does not move the container
        // on, so it tries the same element again and again. The decoding runs on a thread of its own, so that such a
        // loop fails this test in a few seconds instead of hanging the run (the thread spins on until the run ends).
        let json = """
            {"identifier": "\(Self.sampleThreadID)", "title": "Holes", "messages": [\
            {"sender": "Ada", "text": "One", "timestamp": 600000000.5}, null, \
            {"text": "No sender", "timestamp": 600000001.5}, {"sender": "Grace", "text": "Two", "timestamp": 600000002.5}]}
            """
        let data = Data(json.utf8)
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            _ = try? JSONDecoder().decode(MessageThread.self, from: data)
            done.signal()
        }
        worker.stackSize = 8 << 20
        worker.start()
        if done.wait(timeout: .now() + 3) == .timedOut {
            XCTFail("""
                Decoding a thread whose "messages" hold a null (the hole Firebase leaves where an element was deleted) and \
                a message without "sender" did not finish in 3 seconds: your decoding loops for ever. A decode that fails \
                does not move an unkeyed container on, so `try? list.decode(…)` inside `while !list.isAtEnd` tries the same \
                element again and again. Let the error throw (`try`, or decode the whole array, `[MessageThread.Message].self`); \
                to skip what cannot be read, decode each element through a wrapper whose init(from:) does not throw \
                (`value = try? MessageThread.Message(from: decoder)`), which moves the container on. Decoding: \(json) \
                See LESSONS.md §2.3.
                """)
        }
    }
}
