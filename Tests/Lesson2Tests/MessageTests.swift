import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Exercise 2.2: `MessageThread.Message` — the message layer of the JSON, its stored properties and initialiser.
/// The tests run from the most basic behaviour (the keys) to the most specific (==): fix their failures in this order.
final class MessageTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.message
    let model = "MessageThread.Message"

    /// The recorded message's values, by the name of the parameter (and property) that holds each.
    var given: [(name: String, value: Any)] {
        [("text", Self.sampleText), ("sender", Self.sampleSender), ("timestamp", Self.sampleDate)]
    }

    func test_message_encodesExactlyTheKeysFirebaseStores() throws {
        let message = sampleMessage()
        let json = try encoded(message, exercise)
        let recorded = try recordedLayers().message
        if let problem = Self.keyProblem(model, encodes: json, recorded: recorded, fixture: Self.databaseFixture,
                                         properties: Set(Self.stored(message).keys)) {
            XCTFail("\(problem) Your message encodes to \(json.description). See LESSONS.md §2.1 and §2.2.")
        }
    }

    func test_message_isAStruct() throws {
        // A class is told by its type, not by Mirror's displayStyle, which a custom mirror (CustomReflectable) may leave out.
        let style = Mirror(reflecting: sampleMessage()).displayStyle
        if (MessageThread.Message.self as Any.Type) is AnyClass || style == .enum {
            XCTFail("""
                MessageThread.Message is a \((MessageThread.Message.self as Any.Type) is AnyClass ? "class" : style.map { "\($0)" } ?? "?"), but it should be a struct: a message is a value, \
                copied when you pass it around, and Swift writes its == (Equatable) and Codable for you. See LESSONS.md §2.1.
                """)
        }
    }

    func test_message_propertiesAreNotOptional() throws {
        let stored = Self.stored(sampleMessage())
        let optional = given.map(\.name).filter { stored[$0].map(Self.isOptional) ?? false }
        if !optional.isEmpty {
            XCTFail("""
                In MessageThread.Message, \(optional.map { "`\($0)` is declared \(Self.typeDescription(of: stored[$0]!))" }.joined(separator: " and ")): \
                optional. Every message has a text, a sender and a timestamp (Fixtures/\(Self.messageFixture)), so declare \
                \(optional.count == 1 ? "it" : "them") without `?`: an optional makes every reader unwrap it, and lets a \
                message with a key missing decode as nil instead of failing. See LESSONS.md §2.2.
                """)
        }
    }

    func test_message_storesTimestampAsADate() throws {
        let message = sampleMessage()
        let json = try encoded(message, exercise)
        let paths = datePaths(in: message)
        guard !paths.contains("timestamp") else { return }
        let problem = Self.notADateProblem(json["timestamp"], for: Self.sampleDate, stored: Self.stored(message)["timestamp"],
                                           wrapper: Self.propertyWrapper(of: message, "timestamp"), model: model)
        XCTFail("""
            \(problem)\(paths.isEmpty ? "" : " (It encoded a Date only at \(Self.quotedList(paths)).)") \
            Your message encodes to \(json.description). See LESSONS.md §2.5.
            """)
    }

    func test_message_encodesTimestampAsSecondsSince2001() throws {
        let message = sampleMessage()
        let json = try encoded(message, exercise)
        if let problem = Self.timestampProblem(json["timestamp"], for: Self.sampleDate, stored: Self.stored(message)["timestamp"], model: model) {
            let initialValue = initialValueProblems(message, given: [("timestamp", Self.sampleDate)], fixture: Self.messageFixture)
            // A `let` with an initial value is the cause, and says what the property holds: the general diagnosis
            // after it would say the same again, in other words (and with another cure).
            XCTFail("\((initialValue.isEmpty ? [problem] : initialValue).joined(separator: " ")) Your message encodes to \(json.description).\(initialValue.isEmpty ? " See LESSONS.md §2.5." : "")")
        }
    }

    func test_message_encodesTheRecordedMessage() throws {
        let message = sampleMessage()
        let json = try encoded(message, exercise)
        let recorded = try Fixtures.json(Self.messageFixture)
        let differences = Self.differences(json, recorded)
        guard !differences.isEmpty else { return }
        let storage = Self.storageProblems(message, given: given)
        let initialValue = initialValueProblems(message, given: given, fixture: Self.messageFixture)
        let cause = storage.isEmpty
            ? "Each property holds its parameter, so your own encoding (CodingKeys or `encode(to:)`) is what writes other values."
            : initialValue.isEmpty
            ? "In the message your initialiser built, \(storage.joined(separator: "; ")). Store each parameter unchanged in the property of the same name."
            : initialValue.joined(separator: " ")
        let comparison = """
            The recorded message, built as MessageThread.Message(text: "\(Self.sampleText)", sender: "\(Self.sampleSender)", \
            timestamp: <its date>), encodes to \(json.description); the recorded data (Fixtures/\(Self.messageFixture)) \
            is \(recorded.description). Differences: \(differences.joined(separator: "; ")).
            """
        // When the initialiser is the cause, it comes first: the comparison only shows its effect.
        XCTFail(storage.isEmpty ? "\(comparison) \(cause) See LESSONS.md §2.2." : "\(cause) \(comparison) See LESSONS.md §2.2.")
    }

    func test_message_keepsWhatItIsGivenUnchanged() throws {
        // Spaces, a tab, a Windows line end, a newline, lower case, a name with spaces at its ends and a fraction of a
        // second: what a careful initialiser might "tidy".
        let text = "  Two spaces,\ta tab, a Windows line end\r\nand a newline\n", sender = " ada lovelace "
        let date = Date(timeIntervalSinceReferenceDate: 600_000_000.123456)
        let message = MessageThread.Message(text: text, sender: sender, timestamp: date)
        let json = try encoded(message, exercise)
        let expected: JSONValue = ["text": .string(text), "sender": .string(sender), "timestamp": .number(date.timeIntervalSinceReferenceDate)]
        let differences = Self.differences(json, expected)
        guard !differences.isEmpty else { return try requireLongTextAndEmptySenderKept() }
        let storage = Self.storageProblems(message, given: [("text", text), ("sender", sender), ("timestamp", date)])
        XCTFail("""
            MessageThread.Message(text: \(JSONValue.string(text).description), sender: "\(sender)", timestamp: <a date>) \
            encodes to \(json.description), not \(expected.description): \(differences.joined(separator: "; ")). \
            \(storage.isEmpty ? "Each property holds its parameter, so your own encoding (CodingKeys or `encode(to:)`) is what changes it."
                : "In the message your initialiser built, \(storage.joined(separator: "; ")).") A message keeps exactly what it \
            is given — no trimming (of the sender's name either), no change of case or of line endings ("\\r\\n" stays \
            "\\r\\n"), no rounding: store each parameter unchanged. See LESSONS.md §2.2.
            """)
    }

    /// The rest of test_message_keepsWhatItIsGivenUnchanged: what a careful initialiser might "limit" (a text of
    /// thousands of characters) or "fill in" (an empty sender).
    func requireLongTextAndEmptySenderKept() throws {
        let text = String(repeating: "Lorem ipsum dolor sit amet. ", count: 200), sender = ""
        let date = Date(timeIntervalSinceReferenceDate: 600_000_000.5)
        let message = MessageThread.Message(text: text, sender: sender, timestamp: date)
        let json = try encoded(message, exercise)
        var changes: [String] = []
        if json["text"] != .string(text) {
            changes.append(json["text"].stringValue.map { written in
                "the text of \(text.count) characters is written with \(written.count)\(written.count < text.count ? " (cut short: a length limit?)" : "")"
            } ?? "the text of \(text.count) characters is written as \(json["text"].description)")
        }
        if json["sender"] != .string(sender) { changes.append("the empty sender is written as \(json["sender"].description)") }
        guard !changes.isEmpty else { return try requireFutureTimestampKept() }
        let held = Self.stored(message)
        let stored = held["text"].flatMap(Self.unwrap) as? String == text && held["sender"].flatMap(Self.unwrap) as? String == sender
        XCTFail("""
            MessageThread.Message(text: <a text of \(text.count) characters>, sender: "", timestamp: <a date>) does not \
            keep what it is given: \(changes.joined(separator: "; ")). \(stored
                ? "Each property holds its parameter, so your own encoding (CodingKeys or `encode(to:)`) is what changes it."
                : "Your initialiser changes what it stores.") A message keeps exactly what it is given — no length limit, \
            no stand-in for an empty sender: what to accept, and how to show it, is for the screens to decide. Store each \
            parameter unchanged. See LESSONS.md §2.2.
            """)
    }

    /// The rest of test_message_keepsWhatItIsGivenUnchanged: what a careful initialiser might "correct" — a timestamp
    /// in the future (a device whose clock runs ahead, a message scheduled for later).
    func requireFutureTimestampKept() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1_600_000_000.5)  // 2051-09-13
        let message = MessageThread.Message(text: "From the future", sender: "Ada", timestamp: date)
        let json = try encoded(message, exercise)
        guard let seconds = json["timestamp"].numberValue, abs(seconds - date.timeIntervalSinceReferenceDate) > 0.001 else {
            return try requireMarkupKept()
        }
        let now = abs(seconds - Date().timeIntervalSinceReferenceDate) < 60
        let held = Self.stored(message)["timestamp"].flatMap(Self.unwrap) as? Date
        XCTFail("""
            MessageThread.Message(text: "From the future", sender: "Ada", timestamp: <a date in 2051>) encodes \
            "timestamp": \(JSONValue.number(seconds).description), not \(JSONValue.number(date.timeIntervalSinceReferenceDate).description)\
            \(now ? " — that is now: your \(held.map { abs($0.timeIntervalSinceNow) < 60 } ?? true ? "initialiser" : "encoding") replaces a timestamp in the future with the present (`min(timestamp, Date())`?)" : ""). \
            A message keeps exactly the timestamp it is given, a future one too: a device whose clock runs ahead, or a \
            message scheduled for later, is for the app to handle, and a model that "corrects" it loses the data. Store \
            the parameter unchanged. See LESSONS.md §2.2.
            """)
    }

    /// The rest of test_message_keepsWhatItIsGivenUnchanged: what a careful initialiser might "sanitise" — markup,
    /// quotes and ampersands, which a web page would have to escape (JSONEncoder escapes what JSON needs itself).
    func requireMarkupKept() throws {
        let text = "<b>Tom & \"Jerry\"</b> won't <script>", sender = "O'Brien & Co"
        let message = MessageThread.Message(text: text, sender: sender, timestamp: Self.sampleDate)
        let json = try encoded(message, exercise)
        var changes: [String] = []
        for (name, value) in [("text", text), ("sender", sender)] where json[name] != .string(value) {
            changes.append("the \(name) \(JSONValue.string(value).description) is written as \(json[name].description)")
        }
        guard !changes.isEmpty else { return try requireEmptyTextKept() }
        let escaped = ["&lt;", "&gt;", "&amp;", "&quot;", "&#39;", "&apos;"].contains { entity in
            ["text", "sender"].contains { json[$0].stringValue?.contains(entity) == true }
        }
        XCTFail("""
            MessageThread.Message(text: \(JSONValue.string(text).description), sender: \(JSONValue.string(sender).description), \
            timestamp: <a date>) does not keep what it is given: \(changes.joined(separator: "; ")).\
            \(escaped ? " Your initialiser escapes it as HTML (&lt;, &amp;, &quot;): escaping belongs where the text is put into a web page, and JSONEncoder already escapes what JSON needs — a model that escapes stores another text, and escapes again each time it is saved." : "") \
            A message keeps exactly what it is given — no escaping, no filtering: store each parameter unchanged. See LESSONS.md §2.2.
            """)
    }

    /// The rest of test_message_keepsWhatItIsGivenUnchanged: what a careful initialiser might "fill in" — an empty text,
    /// which a screen may show with a placeholder.
    func requireEmptyTextKept() throws {
        let message = MessageThread.Message(text: "", sender: "Ada", timestamp: Self.sampleDate)
        let json = try encoded(message, exercise)
        guard json["text"] != .string("") else { return }
        let held = Self.stored(message)["text"].flatMap(Self.unwrap) as? String
        XCTFail("""
            MessageThread.Message(text: "", sender: "Ada", timestamp: <a date>) encodes "text": \(json["text"].description), \
            not "": \(held == "" ? "your `text` property holds the empty text, so your own encoding (CodingKeys or `encode(to:)`) is what changes it"
                : "your initialiser stores \(held.map { JSONValue.string($0).description } ?? "something else") for the empty text"). \
            A message keeps exactly what it is given, an empty text too: a placeholder such as "(no text)" is for the \
            screen that shows it to choose. Store each parameter unchanged. See LESSONS.md §2.2.
            """)
    }

    func test_message_decodesTheRecordedMessage() throws {
        let expected = sampleMessage()
        let decoded = try decodeFixture(MessageThread.Message.self, Self.messageFixture, exercise, sample: expected)
        let equal = try requireSteadyEquality(decoded, expected, "the decoded recorded message and the same message built in code", exercise)
        guard !equal else { return }
        let storage = Self.storageProblems(decoded, given: given, decoded: true)
        var cause: String
        if Self.summary(decoded) == Self.summary(expected) {
            cause = "Both hold the same values (\(Self.summary(decoded))), yet == says they differ: let Swift write Message's == (don't write your own), or compare exactly the three properties (an == on JSONEncoder's bytes depends on its key order, which is not fixed)."
        } else {
            cause = "Decoded, \(storage.isEmpty ? "it holds \(Self.summary(decoded)); built, \(Self.summary(expected))" : storage.joined(separator: "; "))."
            let extra = Self.extraPropertyProblems(decoded, expected, given: given)
            if storage.isEmpty && !extra.isEmpty {
                cause = """
                    Both hold the recorded text, sender and timestamp, but \(extra.joined(separator: "; ")): decoding gives \
                    it a value of its own, and the == Swift writes for a struct compares every stored property, so a decoded \
                    message never equals the one you built. A message stores its three keys and nothing else (§2.2): remove \
                    \(extra.count == 1 ? "that property" : "those properties"), or make \(extra.count == 1 ? "it" : "them") computed.
                    """
            } else if let date = Self.stored(decoded)["timestamp"].flatMap(Self.unwrap) as? Date,
               abs(date.timeIntervalSince1970 - Self.sampleSeconds) < 0.001 {
                cause += " Your decoding reads the recorded number as seconds since 1970, but it counts seconds since 2001 (§2.5): decode a Date as Swift's own Codable does."
            } else if let date = Self.stored(decoded)["timestamp"].flatMap(Self.unwrap) as? Date,
               date != Self.sampleDate, abs(date.timeIntervalSinceReferenceDate - Self.sampleSeconds) < 0.001 {
                cause += """
                     That is the recorded number with a rounding error (\(JSONValue.number(date.timeIntervalSinceReferenceDate - Self.sampleSeconds).description) \
                    seconds): your decoding computes the date from the number (through seconds since 1970, say), and Double \
                    arithmetic on numbers this large is not exact — a thread fetched and PUT back would change its timestamps. \
                    Decode the Date itself, `decode(Date.self, forKey: .timestamp)`, as Swift's own Codable does: JSONDecoder \
                    reads it exactly (§2.5).
                    """
            } else if let date = Self.stored(decoded)["timestamp"].flatMap(Self.unwrap) as? Date,
                      date.timeIntervalSinceReferenceDate == Double(Float(Self.sampleSeconds)) {
                cause += """
                     That is the recorded number rounded to a Float (\(JSONValue.number(Double(Float(Self.sampleSeconds))).description)): \
                    a Float holds about 7 digits, and this number has 15 — your decoding reads the timestamp as a Float. \
                    Decode the Date itself, `decode(Date.self, forKey: .timestamp)`, as Swift's own Codable does (or a \
                    Double, never a Float): JSONDecoder reads it exactly (§2.5).
                    """
            } else {
                cause += " Decode each property from its key, unchanged."
            }
        }
        XCTFail("""
            Decoding the recorded message (Fixtures/\(Self.messageFixture)) gave a message that is not equal (==) to the \
            same message built with your initialiser from the same text, sender and date (\(Self.sampleSeconds) seconds \
            since 1 January 2001). \(cause) See LESSONS.md §2.2 and §2.5.
            """)
    }

    func test_message_roundTripsThroughJSON() throws {
        // Then a text with spaces and a newline at its ends and an empty sender, then a text of thousands of characters:
        // what a decoding that "tidies" the server's data (trimming, a stand-in for an empty name, a length limit)
        // changes, though the recorded message survives it.
        let values = [
            (text: "Quotes \" and ünïcödé ✓", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000.123456)),
            (text: "  Spaces, a tab\tand a newline\n", sender: "", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000.5)),
            (text: String(repeating: "Lorem ipsum dolor sit amet. ", count: 200), sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_001.25)),
            // And one dated in the future (2051: a device whose clock runs ahead), which a decoding that "corrects" dates changes.
            (text: "From the future", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 1_600_000_000.5)),
            // And an empty text and a sender with spaces at its ends, which a decoding that fills in or tidies changes.
            (text: "", sender: "  Grace ", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_002.75)),
        ]
        for given in values {
            let message = MessageThread.Message(text: given.text, sender: given.sender, timestamp: given.timestamp)
            let data = try JSONEncoder().encode(message)
            let back: MessageThread.Message
            do {
                back = try JSONDecoder().decode(MessageThread.Message.self, from: data)
            } catch {
                throw fail("""
                    A message encoded by JSONEncoder does not decode again: \(Self.explain(error, data: try? JSONValue(data: data))) \
                    Your encoding and your decoding must agree. Encoded: \(String(decoding: data, as: UTF8.self)). See LESSONS.md §2.2.
                    """)
            }
            let equal = try requireSteadyEquality(back, message, "a message and the same message encoded and decoded again", exercise)
            guard !equal else { continue }
            // Which of the strings the data held unchanged came back changed: the decoding, not the encoding, did it.
            let sent = try? JSONValue(data: data), held = Self.stored(back)
            let changed = [("text", given.text), ("sender", given.sender)].filter { name, value in
                sent?[name] == .string(value) && held[name].flatMap(Self.unwrap).map { $0 as? String != value } == true
            }.map { name, value in
                func brief(_ text: String) -> String { text.count > 120 ? "a text of \(text.count) characters" : JSONValue.string(text).description }
                let now = held[name].flatMap(Self.unwrap).map { ($0 as? String).map(brief) ?? Self.show($0) } ?? "nil"
                return "decoded, `\(name)` holds \(now) where the data holds \(brief(value))"
            }
            let heldDate = held["timestamp"].flatMap(Self.unwrap) as? Date
            let futureNow = given.timestamp > Date() && heldDate.map { abs($0.timeIntervalSinceNow) < 60 } == true
            let why = futureNow ? """
                Decoded, its timestamp in the future (2051) became now: your decoding replaces a date in the future with the \
                present (`min(timestamp, Date())`?). A message keeps exactly the timestamp the data holds, a future one too — \
                a device whose clock runs ahead is for the app to handle.
                """ + " " : changed.isEmpty ? "" : """
                The JSON holds what the message was given, but \(changed.joined(separator: "; ")): your decoding changes \
                it (trimming? a stand-in for an empty sender or text? a length limit?). A message keeps exactly what the data holds — what to \
                show is for the screens to decide.
                """ + " "
            let wentOut = given.text.count > 120 ? "a message with a text of \(given.text.count) characters" : String(decoding: data, as: UTF8.self)
            let cameBack = given.text.count > 120 ? "another" : "holding \(Self.summary(back))"
            XCTFail("""
                A message encoded and decoded again is not equal to the original: it went out as \(wentOut) \
                and came back \(cameBack). \(why)Every stored property must be encoded and decoded unchanged. \
                See LESSONS.md §2.2.
                """)
            return
        }
    }

    func test_message_timestampDefaultsToNow() throws {
        let before = Date()
        let message = MessageThread.Message(text: "Now", sender: "Ada")
        let after = Date()
        let json = try encoded(message, exercise)
        guard let seconds = json["timestamp"].numberValue else {
            let found = json["timestamp"].isNull ? "encodes no \"timestamp\"" : "encodes \"timestamp\" as \(json["timestamp"].description)"
            throw fail("""
                MessageThread.Message(text:sender:) \(found), where the data holds a number: seconds since 1 January 2001 \
                (JSONEncoder's way of writing a Date). Encoded: \(json.description). See LESSONS.md §2.2 and §2.5.
                """)
        }
        let now = before.timeIntervalSinceReferenceDate
        let storesGiven = (try? JSONValue(encoding: sampleMessage()))?["timestamp"].numberValue.map { abs($0 - Self.sampleSeconds) < 0.001 } ?? false
        XCTAssertTrue((now - 5)...(after.timeIntervalSinceReferenceDate + 5) ~= seconds, """
            MessageThread.Message(text:sender:), made without a timestamp, should be timestamped now: about \
            \(JSONValue.number(now).description) seconds since 2001. It encodes "timestamp": \(JSONValue.number(seconds).description), \
            \(Int((seconds - now).rounded())) seconds off\(Self.timeZoneNote(before.addingTimeInterval((seconds - now).rounded()), before)). \
            The `timestamp` parameter's default is `Date()`, the moment the message is made; \(storesGiven
                ? "given a timestamp, your initialiser stores it, so what differs is the value used when it is left out."
                : "store the parameter, unchanged, in a `Date` property.") See LESSONS.md §2.2.
            """)
        guard (now - 5)...(after.timeIntervalSinceReferenceDate + 5) ~= seconds else { return }
        // `Date()` as the default is evaluated during the call, so it lies between the moments read just before and just
        // after it: a default rounded (to whole seconds, say) or made earlier is seen every time, not by luck.
        if !((now - 0.001)...(after.timeIntervalSinceReferenceDate + 0.001) ~= seconds) {
            let again = try encoded(MessageThread.Message(text: "Again", sender: "Ada"), exercise)
            if again["timestamp"] != json["timestamp"] || seconds.rounded(.down) == seconds {
                throw fail("""
                    MessageThread.Message(text:sender:), made without a timestamp between \(JSONValue.number(now).description) \
                    and \(JSONValue.number(after.timeIntervalSinceReferenceDate).description) seconds since 2001, encodes \
                    "timestamp": \(JSONValue.number(seconds).description)\(seconds.rounded(.down) == seconds ? ", a whole number of seconds: your default rounds the moment" : ", not the moment it was made"). \
                    It should be timestamped now, exactly: two messages made within the same second must not share a \
                    timestamp. The parameter's default, `Date()` in the signature, is that moment — don't round it. \
                    See LESSONS.md §2.2.
                    """)
            }
        }
        Thread.sleep(forTimeInterval: 0.02)
        let later = try encoded(MessageThread.Message(text: "Later", sender: "Ada"), exercise)
        XCTAssertFalse(later["timestamp"] == json["timestamp"], """
            Two messages made without a timestamp, 0.02 s apart, have the same "timestamp", \(json["timestamp"].description): \
            the default is computed once and shared (a `static let`, or a stored value), so every message carries the same \
            moment. The parameter's default must be `Date()` in the signature, computed anew for each message. See LESSONS.md §2.2.
            """)
    }

    func test_message_equality_comparesTextSenderAndTimestamp() throws {
        let message = sampleMessage()
        let twin = sampleMessage()
        let equal = try requireSteadyEquality(message, twin, "two messages built from the same text, sender and timestamp", exercise)
        XCTAssertTrue(equal, Self.summary(message) == Self.summary(twin) ? """
            Two messages built from the same text, sender and timestamp are not equal (==), although their stored \
            properties hold the same values (\(Self.summary(message))): let Swift write Message's == (don't write your \
            own), or compare exactly text, sender and timestamp. See LESSONS.md §2.2.
            """ : """
            Two messages built from the same text, sender and timestamp are not equal (==): their stored properties \
            differ (\(Self.summary(message)) and \(Self.summary(twin))), so your initialiser does not store only its \
            parameters. See LESSONS.md §2.2.
            """)
        // Hashable's one rule, when the learner's Message is Hashable (a Set, a diffable data source, SwiftUI's ForEach):
        // equal messages hash alike. The tests cannot name Hashable (the exercise does not ask for it): they look at run time.
        if equal, let left = (message as Any) as? AnyHashable, let right = (twin as Any) as? AnyHashable,
           left.hashValue != right.hashValue {
            let extra = Self.extraPropertyProblems(message, twin, given: given)
            XCTFail("""
                Two equal messages (==, built from the same text, sender and timestamp) hash differently: your \
                MessageThread.Message is Hashable, and Hashable's one rule is that equal values have equal hashes — a \
                Set<MessageThread.Message> would keep both, and a diffable data source would take them for two rows. \
                \(extra.isEmpty
                    ? "Your hash(into:) hashes something your == does not compare: hash what == compares (or let Swift write both, from the stored properties)."
                    : "They differ only in what your == does not compare — \(extra.joined(separator: "; ")) — and your hash(into:) hashes it: a stored `id = UUID()` is new in every message, even in two equal ones (and in every message decoded). Hash what == compares (or let Swift write both), and for Identifiable make `id` computed from the data (`public var id: String { … }`).") \
                See LESSONS.md §2.2.
                """)
        }
        // Then differences an == "tolerant" of what it takes for noise misses: a sender only in case (a name's capitals
        // are part of it), a text by a trailing space, a timestamp by a fifth of a millisecond (a tolerance, or
        // rounding, to milliseconds: Firebase's and JavaScript's precision; a Date keeps far less than a microsecond).
        let others: [(property: String, by: String, other: MessageThread.Message)] = [
            ("text", "", MessageThread.Message(text: "Another text", sender: Self.sampleSender, timestamp: Self.sampleDate)),
            ("sender", "", MessageThread.Message(text: Self.sampleText, sender: "Grace", timestamp: Self.sampleDate)),
            ("timestamp", " (by a second)", MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(1))),
            ("timestamp", " (by a quarter of a second)", MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(0.25))),
            ("sender", " (only in case, \"\(Self.sampleSender)\" and \"\(Self.sampleSender.lowercased())\": a name's capitals are part of it, so compare senders with ==, not case-insensitively)",
             MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender.lowercased(), timestamp: Self.sampleDate)),
            ("text", " (by a trailing space: compare texts exactly, without trimming spaces)",
             MessageThread.Message(text: Self.sampleText + " ", sender: Self.sampleSender, timestamp: Self.sampleDate)),
            ("timestamp", " (by a fifth of a millisecond: a Date is exact to far less than that, so compare timestamps with ==, with no tolerance and no rounding to milliseconds)",
             MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(0.0002))),
        ]
        for (property, by, other) in others where message == other {
            XCTFail(Self.summary(message) == Self.summary(other) ? """
                Two messages made with different \(property)s\(by) hold the same stored values (\(Self.summary(message))): \
                your initialiser drops or changes the \(property). Store each parameter in its property, unchanged. See LESSONS.md §2.2.
                """ : """
                Two messages that differ only in their \(property)\(by) compare equal (==), although their stored properties \
                differ (\(Self.summary(message)) and \(Self.summary(other))). Message's == must compare every stored \
                property — text, sender and timestamp, exactly — as the one Swift writes for a struct does: don't write your own ==. \
                See LESSONS.md §2.2.
                """)
        }
        // App code that writes `message != other` calls Message's own `!=` when it declares one (the compiler picks it
        // over Equatable's `!(lhs == rhs)`): it must say the opposite of == for each of these pairs.
        let pairs = [("two messages built from the same text, sender and timestamp", twin)]
            + others.map { ("two messages that differ only in their \($0.property)", $0.other) }
        for (what, other) in pairs where (message != other) == (message == other) {
            XCTFail("""
                For \(what), your == answers \(message == other) and your != answers \(message != other) too: your own \
                `!=` is not the opposite of ==. Equatable already gives MessageThread.Message a != (`!(lhs == rhs)`): delete \
                yours, or write it as `!(lhs == rhs)` — a `!=` of your own must compare all that == compares. See LESSONS.md §2.2.
                """)
            return
        }
    }
}
