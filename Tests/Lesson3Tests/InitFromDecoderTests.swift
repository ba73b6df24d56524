import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Exercise 3.3: `MessageThread.init(from:)` reads a thread as Firebase stores it: messages keyed by push IDs, or an
/// array after a PUT, or no `messages` key at all; sorted by timestamp.
final class InitFromDecoderTests: Lesson3TestCase {
    let exercise = Lesson3TestCase.initFrom

    func test_initFrom_decodesTheSampleThreadsTitleAndIdentifier() throws {
        let thread = try decodeThread("lesson3/thread-sample.json")
        XCTAssertEqual(thread.title, "REST APIs", """
            init(from:) decoded the sample thread's title as \(thread.title.debugDescription); the JSON says "REST APIs". \
            Decode it with `container.decode(String.self, forKey: .title)`. See LESSONS.md §3.3.
            """)
        XCTAssertEqual(thread.identifier, Self.sampleThreadID, """
            init(from:) decoded the sample thread's identifier as \(thread.identifier.debugDescription); the JSON says \
            "\(Self.sampleThreadID)". Decode it with `container.decode(String.self, forKey: .identifier)`. \
            See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_decodesOneMessageKeyedByAPushID_intoTheMessagesArray() throws {
        let thread = try decodeThread("lesson3/thread-sample.json")
        guard thread.messages.count == 1, let message = thread.messages.first else {
            throw fail("""
                The sample thread holds one message, under the push ID "\(Self.sampleMessageID)"; init(from:) decoded \
                \(thread.messages.count). Decode `messages` as [String: Message] and keep its values: \
                `Array(byPushID.values)`. See LESSONS.md §3.3.
                """)
        }
        let expected = MessageThread.Message(text: "This is a test to make sure the API works!", sender: "Spencer",
                                             timestamp: Date(timeIntervalSinceReferenceDate: 5.55405872056162E8))
        XCTAssertEqual(message, expected, """
            init(from:) decoded the sample message as (text: \(message.text.debugDescription), sender: \
            \(message.sender.debugDescription), timestamp: \(message.timestamp.timeIntervalSinceReferenceDate)); the \
            JSON says (text: "This is a test to make sure the API works!", sender: "Spencer", timestamp: \
            5.55405872056162E8 seconds since 2001). Let Message's own Decodable read each message. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_decodesANewThreadWithoutAMessagesKey_asNoMessages() throws {
        let thread = try decodeThread("lesson3/thread-new.json")
        XCTAssertEqual(thread.title, "Brand new thread", "init(from:) decoded the new thread's title wrongly. See LESSONS.md §3.3.")
        XCTAssertEqual(thread.messages, [], """
            A new thread has no `messages` key, so it has no messages; init(from:) decoded \(thread.messages.count). \
            When decodeIfPresent gives nil, use an empty array. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_decodesManyMessagesKeyedByPushIDs_oldestFirst() throws {
        let path = "lesson3/thread-many-messages.json"
        let thread = try decodeThread(path)
        try assertSameThread(thread, as: try Fixtures.json(path), decoding: "Fixtures/\(path)")
    }

    func test_initFrom_keepsUnicodeAndEmojiExactly() throws {
        let path = "lesson3/thread-unicode.json"
        let thread = try decodeThread(path)
        XCTAssertEqual(thread.title, "Unicode ☕️ — 日本語 🧵", """
            init(from:) decoded the title \(thread.title.debugDescription); the JSON says "Unicode ☕️ — 日本語 🧵". \
            JSON strings are Unicode: decode them as String and change nothing. See LESSONS.md §3.3.
            """)
        try assertSameThread(thread, as: try Fixtures.json(path), decoding: "Fixtures/\(path)")
        let decomposed = thread.messages.first { $0.sender == "Renée" }?.text.unicodeScalars.map(\.value) ?? []
        XCTAssertTrue(decomposed.contains(0x0301), """
            Renée's message ends with "e" + U+0301 (a combining accent); init(from:) lost the U+0301. Keep the text \
            exactly as decoded. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_decodesMessagesThatAPUTStoredAsAnArray_oldestFirst() throws {
        let path = "lesson3/thread-messages-array.json"
        let thread = try decodeThread(path)
        try assertSameThread(thread, as: try Fixtures.json(path), decoding: "Fixtures/\(path)")
    }

    func test_initFrom_threadWithoutATitle_throwsKeyNotFoundForTitle() throws {
        let path = "Fixtures/lesson3/thread-missing-title.json"
        let data = try Fixtures.data("lesson3/thread-missing-title.json")
        let json = try Fixtures.json("lesson3/thread-missing-title.json")
        let thread: MessageThread
        do {
            thread = try JSONDecoder().decode(MessageThread.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) where key.stringValue == "title" {
            return  // what a caller needs to learn: the data is bad, and which key is missing
        } catch DecodingError.keyNotFound(let key, _) where key.stringValue.lowercased() == "title" {
            throw fail("""
                init(from:) threw keyNotFound for "\(key.stringValue)", not "title": a CodingKeys case's raw value must \
                be exactly the JSON key, "title". See LESSONS.md §3.3.
                """)
        } catch let error as DecodingError {
            throw fail("""
                Fixtures/lesson3/thread-missing-title.json has no "title"; init(from:) should throw \
                DecodingError.keyNotFound for the key "title" (what `container.decode(String.self, forKey: .title)` \
                throws), but instead: \(Self.explain(error, in: json, source: path, threadDepth: 0))
                """)
        } catch {
            throw fail("""
                Fixtures/lesson3/thread-missing-title.json has no "title"; init(from:) should throw \
                DecodingError.keyNotFound for "title", but it threw \(oneLine(error)). See LESSONS.md §3.3.
                """)
        }
        throw fail("""
            init(from:) decoded a thread that has no "title" without an error (its title: \
            \(thread.title.debugDescription)). A thread without a title is bad data: use `decode`, not \
            `decodeIfPresent` with a default, for title and identifier, so the caller gets DecodingError.keyNotFound \
            naming "title". Only `messages` may be missing. See LESSONS.md §3.3.
            """)
    }

    func test_initFrom_decodesTheSampleDatabase_asThreadsByIdentifier() throws {
        let path = "databases/message-board-sample.json"
        let threads = try decode([String: MessageThread].self, fixture: path, threadDepth: 1)
        XCTAssertEqual(threads.keys.sorted(), [Self.sampleThreadID], "The sample database holds one thread, \(Self.sampleThreadID). See LESSONS.md §3.3.")
        let thread = try XCTUnwrap(threads[Self.sampleThreadID])
        XCTAssertEqual(thread.title, "REST APIs", "The sample database's thread decoded with the wrong title. See LESSONS.md §3.3.")
        XCTAssertEqual(thread.messages.map(\.sender), ["Spencer"], "The sample database's thread holds one message, from Spencer. See LESSONS.md §3.3.")
    }

    func test_initFrom_decodesAWholeDatabase_everyShapeOfThread() throws {
        let path = "lesson3/message-board.json"
        let threads = try decode([String: MessageThread].self, fixture: path, threadDepth: 1)
        let database = try XCTUnwrap(try Fixtures.json(path).objectValue)
        XCTAssertEqual(threads.keys.sorted(), database.keys.sorted(), "Decoding Fixtures/\(path) as [String: MessageThread] should give one thread per key. See LESSONS.md §3.3.")
        for (key, json) in database.sorted(by: { $0.key < $1.key }) {
            guard let thread = threads[key] else { continue }
            try assertSameThread(thread, as: json, decoding: "the thread \(key) in Fixtures/\(path)")
        }
    }
}
