import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Exercise 2.2: `MessageThread.Message` — the message layer of the JSON, its stored properties and initialiser.
final class MessageTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.message
    let model = "MessageThread.Message"

    func test_message_encodesExactlyTheKeysFirebaseStores() throws {
        let json = try encoded(sampleMessage(), exercise)
        let recorded = try recordedLayers().message
        if let problem = Self.keyProblem(model, encodes: json, recorded: recorded, fixture: Self.databaseFixture) {
            XCTFail("\(problem) Your message encodes to \(json.description). See LESSONS.md §2.1 and §2.2.")
        }
    }

    func test_message_encodesTheRecordedMessage() throws {
        let json = try encoded(sampleMessage(), exercise)
        let recorded = try Fixtures.json(Self.messageFixture)
        let differences = Self.differences(json, recorded)
        XCTAssertTrue(differences.isEmpty, """
            The recorded message, built as MessageThread.Message(text: "\(Self.sampleText)", sender: "\(Self.sampleSender)", \
            timestamp: <its date>), encodes to \(json.description); the recorded data (Fixtures/\(Self.messageFixture)) \
            is \(recorded.description). Differences: \(differences.joined(separator: "; ")). Each property must hold its \
            parameter unchanged, under the data's key. See LESSONS.md §2.2.
            """)
    }

    func test_message_encodesTimestampAsSecondsSince2001() throws {
        let json = try encoded(sampleMessage(), exercise)
        if let problem = Self.timestampProblem(json["timestamp"], for: Self.sampleDate, encodedAsDate: true, model: model) {
            XCTFail("\(problem) Your message encodes to \(json.description). See LESSONS.md §2.5.")
        }
    }

    func test_message_storesTimestampAsADate() throws {
        let message = sampleMessage()
        let json = try encoded(message, exercise)
        let paths = datePaths(in: message)
        guard !paths.contains("timestamp") else { return }
        let problem = Self.timestampProblem(json["timestamp"], for: Self.sampleDate, encodedAsDate: false, model: model)
            ?? "\(model) encodes no Date under \"timestamp\"."
        XCTFail("""
            \(problem) (Encoding it encoded \(paths.isEmpty ? "no Date at all" : "a Date only at \(Self.quotedList(paths))").) \
            Your message encodes to \(json.description). See LESSONS.md §2.5.
            """)
    }

    func test_message_decodesTheRecordedMessage() throws {
        let expected = sampleMessage()
        let decoded = try decodeFixture(MessageThread.Message.self, Self.messageFixture, exercise)
        if decoded != expected {
            let got = try encoded(decoded, exercise)
            let built = try encoded(expected, exercise)
            XCTFail("""
                Decoding the recorded message (Fixtures/\(Self.messageFixture)) gave a message that is not equal (==) to the \
                same message built with your initialiser: decoded, it encodes as \(got.description); built from the same \
                text, sender and date (\(Self.sampleSeconds) seconds since 1 January 2001), as \(built.description). \
                Differences of the built one: \(Self.differences(built, got).joined(separator: "; ")). The initialiser \
                must store each parameter unchanged; then both ways give the same message. See LESSONS.md §2.2 and §2.5.
                """)
        }
    }

    func test_message_roundTripsThroughJSON() throws {
        let message = MessageThread.Message(text: "Quotes \" and ünïcödé ✓", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000.123456))
        let data = try JSONEncoder().encode(message)
        let back: MessageThread.Message
        do {
            back = try JSONDecoder().decode(MessageThread.Message.self, from: data)
        } catch {
            throw fail("""
                A message encoded by JSONEncoder does not decode again: \(Self.explain(error)) \
                Encoded: \(String(decoding: data, as: UTF8.self)). See LESSONS.md §2.2.
                """)
        }
        XCTAssertTrue(back == message, """
            A message encoded and decoded again is not equal to the original: it went out as \(String(decoding: data, as: UTF8.self)) \
            and came back as \(oneLine((try? JSONValue(encoding: back))?.description ?? "?")). Every stored property must be encoded \
            and decoded unchanged. See LESSONS.md §2.2.
            """)
    }

    func test_message_timestampDefaultsToNow() throws {
        let before = Date()
        let json = try encoded(MessageThread.Message(text: "Now", sender: "Ada"), exercise)
        let after = Date()
        guard let seconds = json["timestamp"].numberValue else {
            let found = json["timestamp"].isNull ? "encodes no \"timestamp\"" : "encodes \"timestamp\" as \(json["timestamp"].description)"
            throw fail("""
                MessageThread.Message(text:sender:) \(found), where the data holds a number: seconds since 1 January 2001 \
                (JSONEncoder's way of writing a Date). Encoded: \(json.description). See LESSONS.md §2.5.
                """)
        }
        let now = before.timeIntervalSinceReferenceDate
        XCTAssertTrue((now - 5)...(after.timeIntervalSinceReferenceDate + 5) ~= seconds, """
            MessageThread.Message(text:sender:) should be timestamped now (the `timestamp` parameter defaults to `Date()`): \
            about \(JSONValue.number(now).description) seconds since 2001. It encodes "timestamp": \(JSONValue.number(seconds).description), \
            \(Int((seconds - now).rounded())) seconds off\(abs(seconds - before.timeIntervalSince1970) < 10 ? ": that is the seconds since 1970, not since 2001" : ""). \
            Store the `timestamp` parameter, unchanged; don't make or convert a date of your own. See LESSONS.md §2.2.
            """)
    }

    func test_message_equality_comparesTextSenderAndTimestamp() throws {
        let message = sampleMessage()
        XCTAssertTrue(message == sampleMessage(), "Two messages built from the same text, sender and timestamp should be equal (==): each stored property must hold its parameter unchanged (a `Date()` made inside the initialiser differs every time). See LESSONS.md §2.2.")
        let others: [(String, MessageThread.Message)] = [
            ("text", MessageThread.Message(text: "Another text", sender: Self.sampleSender, timestamp: Self.sampleDate)),
            ("sender", MessageThread.Message(text: Self.sampleText, sender: "Grace", timestamp: Self.sampleDate)),
            ("timestamp", MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(1))),
        ]
        for (property, other) in others {
            XCTAssertFalse(message == other, """
                Two messages with different \(property)s compare equal (==). Message's == is the one Swift writes for a struct: \
                it compares every stored property, so each of text, sender and timestamp must be a stored property holding its \
                parameter. See LESSONS.md §2.2.
                """)
        }
    }

    func test_message_isAStruct() throws {
        let style = Mirror(reflecting: sampleMessage()).displayStyle
        if style != .struct {
            XCTFail("""
                MessageThread.Message is a \(style.map { "\($0)" } ?? "?"), but it should be a struct: a message is a value, \
                copied when you pass it around, and Swift writes its == (Equatable) and Codable for you. See LESSONS.md §2.1.
                """)
        }
    }
}
