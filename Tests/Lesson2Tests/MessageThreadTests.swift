import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Exercise 2.3: `MessageThread` — the thread layer of the JSON, with the message layer nested in its `messages`.
/// (These tests compare threads through their JSON, not with ==, which is exercise 2.4.)
final class MessageThreadTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.thread
    let model = "MessageThread"

    func test_messageThread_encodesExactlyTheKeysFirebaseStores() throws {
        let json = try encoded(sampleThread(), exercise)
        let recorded = try recordedLayers().thread
        if let problem = Self.keyProblem(model, encodes: json, recorded: recorded, fixture: Self.databaseFixture) {
            XCTFail("\(problem) Your thread encodes to \(json.description). See LESSONS.md §2.1 and §2.3.")
        }
    }

    func test_messageThread_encodesMessagesAsAnArrayOfMessageObjects() throws {
        let first = MessageThread.Message(text: "First", sender: "Ada", timestamp: Self.sampleDate)
        let second = MessageThread.Message(text: "Second", sender: "Grace", timestamp: Self.sampleDate.addingTimeInterval(60))
        let thread = MessageThread(title: "Nesting", identifier: Self.sampleThreadID, messages: [first, second])
        let json = try encoded(thread, exercise)
        let messages = json["messages"]
        switch messages {
        case .array(let elements):
            let expected: JSONValue = [try encoded(first, exercise), try encoded(second, exercise)]
            XCTAssertTrue(messages == expected, """
                A thread with two messages should encode "messages" as an array of the two messages, each encoded as \
                MessageThread.Message encodes it, in order: \(expected.description). It encodes \(elements.count) element(s): \
                \(messages.description). Store the `messages` parameter unchanged. See LESSONS.md §2.1 and §2.3.
                """)
        case .object:
            XCTFail("""
                A thread with two messages encodes "messages" as a JSON object (\(messages.description)): your `messages` \
                property is a dictionary. The thread holds its messages as an array, `[MessageThread.Message]`, which \
                JSONEncoder writes as a JSON array of message objects. (Firebase itself keys POSTed messages by push ID; \
                reading that form is Lesson 3.) See LESSONS.md §2.3.
                """)
        case .null:
            XCTFail("""
                A thread with two messages encodes no "messages": \(json.description). Add a `messages` property, \
                `[MessageThread.Message]`, and store the parameter in it. See LESSONS.md §2.3.
                """)
        default:
            XCTFail("""
                A thread with two messages encodes "messages" as \(Self.kind(messages)) \(messages.description), not an array \
                of message objects. Type the property `[MessageThread.Message]`: the thread's JSON layer nests the message \
                layer. See LESSONS.md §2.1 and §2.3.
                """)
        }
    }

    func test_messageThread_encodesTheRecordedThread() throws {
        let json = try encoded(sampleThread(), exercise)
        let recorded = try Fixtures.json(Self.threadFixture)
        let differences = Self.differences(json, recorded)
        XCTAssertTrue(differences.isEmpty, """
            The recorded thread, built as MessageThread(title: "REST APIs", identifier: "\(Self.sampleThreadID)", \
            messages: [<the recorded message>]), encodes to \(json.description); a PUT of it must send \
            \(recorded.description) (Fixtures/\(Self.threadFixture)). Differences: \(differences.joined(separator: "; ")). \
            Store each parameter unchanged, under the data's key. See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_decodesTheRecordedThread() throws {
        let expected = try encoded(sampleThread(), exercise)
        let decoded = try decodeFixture(MessageThread.self, Self.threadFixture, exercise)
        let json = try encoded(decoded, exercise)
        let recorded = try Fixtures.json(Self.threadFixture)
        let differences = Self.differences(json, recorded)
        XCTAssertTrue(differences.isEmpty, """
            Decoding the recorded thread (Fixtures/\(Self.threadFixture)) and encoding it again gives \(json.description), \
            not the thread it records. Differences: \(differences.joined(separator: "; ")). Every property must be decoded \
            from its key and encoded back under it. See LESSONS.md §2.3.
            """)
        XCTAssertTrue(json == expected, """
            The recorded thread decoded from JSON is not the same thread as MessageThread(title: "REST APIs", identifier: \
            "\(Self.sampleThreadID)", messages: [<the recorded message>]): decoded, it encodes as \(json.description); \
            built, as \(expected.description). Differences of the built one: \(Self.differences(expected, json).joined(separator: "; ")). \
            The initialisers must store each parameter unchanged. See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_roundTripsThroughJSON() throws {
        let thread = MessageThread(title: "Round trip", messages: [
            MessageThread.Message(text: "One", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_000.5)),
            MessageThread.Message(text: "Two", sender: "Grace", timestamp: Date(timeIntervalSinceReferenceDate: 600_000_060.25)),
        ])
        let before = try encoded(thread, exercise)
        let data = try JSONEncoder().encode(thread)
        let back: MessageThread
        do {
            back = try JSONDecoder().decode(MessageThread.self, from: data)
        } catch {
            throw fail("A thread encoded by JSONEncoder does not decode again: \(Self.explain(error)) Encoded: \(before.description). See LESSONS.md §2.3.")
        }
        let after = try encoded(back, exercise)
        XCTAssertTrue(after == before, """
            A thread encoded and decoded again is not the same: it went out as \(before.description) and came back as \
            \(after.description). See LESSONS.md §2.3.
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
        XCTAssertNotNil(UUID(uuidString: identifier), """
            MessageThread(title:) should get a new UUID string as its identifier (the parameter's default, \
            `UUID().uuidString`); it encodes "identifier": "\(identifier)". Store the `identifier` parameter — its default \
            is already in the signature. See LESSONS.md §2.3.
            """)
        XCTAssertFalse(second["identifier"].stringValue == identifier, """
            Two threads made with MessageThread(title:) got the same identifier, "\(identifier)". Each new thread needs a \
            new UUID: it is the thread's key in the database, and two threads with one key overwrite each other. \
            Store the `identifier` parameter (a fixed value, or a `static let`, is shared). See LESSONS.md §2.3.
            """)
    }

    func test_messageThread_messagesDefaultToNone() throws {
        let json = try encoded(MessageThread(title: "Empty"), exercise)
        XCTAssertTrue(json["messages"] == [], """
            MessageThread(title:) should have no messages (the parameter defaults to `[]`), which JSONEncoder writes as \
            "messages": []. It encodes \(json.description). See LESSONS.md §2.3.
            """)
    }
}
