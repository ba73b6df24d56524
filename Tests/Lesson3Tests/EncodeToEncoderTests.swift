import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Exercise 3.4: `MessageThread.encode(to:)` writes exactly title, identifier and messages (an array), so that what
/// it writes, stored by Firebase and read back, decodes to the same thread.
final class EncodeToEncoderTests: Lesson3TestCase {
    let exercise = Lesson3TestCase.encodeTo

    func test_encodeTo_writesExactlyTheKeysTitleIdentifierAndMessages() throws {
        let thread = Self.threeMessageThread()
        let (_, json) = try encodeThread(thread)
        if let problem = Self.shapeProblem(of: json, for: thread) {
            XCTFail(problem)
        }
    }

    func test_encodeTo_writesTheTitleAndIdentifier() throws {
        let thread = Self.threeMessageThread()
        let (_, json) = try encodeThread(thread)
        try requireObject(json, for: thread)
        XCTAssertEqual(json["title"], .string(thread.title), "encode(to:) wrote \"title\": \(json["title"].description); expected \"\(thread.title)\". See LESSONS.md §3.4.")
        XCTAssertEqual(json["identifier"], .string(thread.identifier), "encode(to:) wrote \"identifier\": \(json["identifier"].description); expected \"\(thread.identifier)\" (the thread's key in the database). See LESSONS.md §3.4.")
    }

    func test_encodeTo_writesMessagesAsAnArray_inTheThreadsOrder() throws {
        let thread = Self.threeMessageThread()
        let (_, json) = try encodeThread(thread)
        try requireObject(json, for: thread)
        let expected = try thread.messages.map { try JSONValue(encoding: $0) }
        switch json["messages"] {
        case .array(let written):
            XCTAssertEqual(written, expected, """
                encode(to:) wrote messages as \(Self.shortJSON(json["messages"])); expected the thread's messages, \
                in order, each as Message encodes itself: \(Self.shortJSON(.array(expected))). \
                `try container.encode(messages, forKey: .messages)`. See LESSONS.md §3.4.
                """)
        case .object(let written):
            throw fail("""
                encode(to:) wrote messages as an object with made-up keys (\(written.keys.sorted().prefix(3).joined(separator: ", "))\
                \(written.count > 3 ? ", …" : "")). Write them as an array: the client has no push IDs to give — \
                POST is how a message gets one — and a PUT of an array is stored under 0, 1, 2, …, which GET returns \
                as an array that init(from:) reads. See LESSONS.md §3.4.
                """)
        case .null:
            throw fail("encode(to:) did not write the thread's three messages: \"messages\" is missing or null in \(json.description). See LESSONS.md §3.4.")
        default:
            throw fail("encode(to:) wrote messages as \(Self.shortJSON(json["messages"])); expected an array of the thread's messages. See LESSONS.md §3.4.")
        }
    }

    func test_encodeTo_newThread_writesAnEmptyArrayOrNoMessagesKey() throws {
        let thread = MessageThread(title: "Nothing yet", identifier: "2A4C6E80-1B3D-4F5A-8C7E-9D0F1A2B3C4D")
        let (_, json) = try encodeThread(thread)
        if let problem = Self.shapeProblem(of: json, for: thread) {
            throw fail(problem)
        }
        XCTAssertEqual(json["title"], "Nothing yet", "encode(to:) wrote \(json.description) for a new thread; it needs its title. See LESSONS.md §3.4.")
        XCTAssertEqual(json["identifier"], .string(thread.identifier), "encode(to:) wrote \(json.description) for a new thread; it needs its identifier. See LESSONS.md §3.4.")
        let messages = json.objectValue?["messages"]
        XCTAssertTrue(messages == nil || messages == .array([]), """
            encode(to:) wrote "messages": \(messages?.description ?? "?") for a thread with no messages; write \
            messages as an array, here the empty array `[]` (or leave the key out — Firebase stores neither). \
            See LESSONS.md §3.4.
            """)
    }

    func test_encodeTo_roundTrip_decodeEncodeDecode_givesAnEqualThread() throws {
        for path in ["lesson3/thread-many-messages.json", "lesson3/thread-unicode.json",
                     "lesson3/thread-messages-array.json", "lesson3/thread-new.json"] {
            let decoded = try decodeThread(path)
            let (data, json) = try encodeThread(decoded)
            try assertRoundTrip(decoded, data: data, json: json, source: "what encode(to:) wrote for Fixtures/\(path)")
        }
    }

    func test_encodeTo_storedByFirebaseAndReadBack_decodesToAnEqualThread() throws {
        let thread = Self.threeMessageThread()
        let emulator = FirebaseEmulator()
        defer { emulator.invalidate() }
        let read = try putAndGet(thread, on: emulator)
        XCTAssertNotNil(read.json["messages"].arrayValue, """
            After a PUT of what encode(to:) wrote, GET returned messages as \(Self.shortJSON(read.json["messages"])), \
            not an array. Write messages as an array: Firebase stores it under the keys 0, 1, 2 and its array \
            heuristic returns an array again. See LESSONS.md §3.1.
            """)
        try assertRoundTrip(thread, data: read.data, json: read.json, source: "what GET returned after a PUT of encode(to:)'s JSON")
    }

    func test_encodeTo_newThread_storedByFirebaseAndReadBack_decodesToAnEqualThread() throws {
        let thread = MessageThread(title: "Stored without messages", identifier: "6B8D0F21-3C5E-4A7B-9D1F-2E4A6C8E0B13")
        let emulator = FirebaseEmulator()
        defer { emulator.invalidate() }
        let read = try putAndGet(thread, on: emulator)
        XCTAssertNil(read.json.objectValue?["messages"], "Firebase stores no empty list, so GET of the new thread has no messages key: \(read.json.description). See LESSONS.md §3.1.")
        try assertRoundTrip(thread, data: read.data, json: read.json, source: "what GET returned after a PUT of a new thread")
    }

    func test_encodeTo_storedThenAMessagePOSTed_readsBackAsAnObject_andDecodes() throws {
        let thread = Self.threeMessageThread()
        let emulator = FirebaseEmulator()
        defer { emulator.invalidate() }
        _ = try putAndGet(thread, on: emulator)
        let later = MessageThread.Message(text: "POSTed after the PUT: a push ID among 0, 1, 2", sender: "Spencer",
                                          timestamp: Date(timeIntervalSinceReferenceDate: 5.55406100000123E8))
        var post = URLRequest(url: emulator.baseURL.appendingPathComponent(thread.identifier)
            .appendingPathComponent("messages").appendingPathExtension("json"))
        post.httpMethod = "POST"
        post.httpBody = try JSONEncoder().encode(later)
        let posted = emulator.handle(post)
        XCTAssertEqual(posted.statusCode, 200, "The emulator refused a POST to the stored thread's messages: \(posted.bodyText ?? ""). See LESSONS.md §3.1.")
        let get = emulator.handle(URLRequest(url: emulator.baseURL.appendingPathComponent(thread.identifier).appendingPathExtension("json")))
        let json = try XCTUnwrap(get.bodyJSON, "GET of the thread returned no JSON.")
        let source = "the thread after a PUT and a POST (messages keyed 0, 1, 2 and a push ID)"
        let decoded = try decode(MessageThread.self, from: get.body, json: json, source: source, threadDepth: 0,
                                 writtenByEncode: true)
        try assertSameThread(decoded, as: json, decoding: source)
        XCTAssertTrue(decoded.messages == thread.messages + [later], """
            After a PUT of three messages and a POST of a fourth, GET returns messages as an object (keys 0, 1, 2 and \
            a push ID: no longer an array); init(from:) should read all four, oldest first. It read \
            \(Self.timeline(decoded.messages)). See LESSONS.md §3.3.
            """)
    }

    // MARK: Helpers

    /// Stops the test when encode(to:) did not write a JSON object at all.
    func requireObject(_ json: JSONValue, for thread: MessageThread, file: StaticString = #filePath, line: UInt = #line) throws {
        if json.objectValue == nil, let problem = Self.shapeProblem(of: json, for: thread) {
            throw fail(problem, file: file, line: line)
        }
    }

    /// `json` (whose bytes are `data`) came from encode(to:) for `original`, directly or through Firebase: it must
    /// hold the same thread, and init(from:) must read that thread back.
    func assertRoundTrip(_ original: MessageThread, data: Data, json: JSONValue, source: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        if let problem = Self.shapeProblem(of: json, for: original) {
            throw fail(problem, file: file, line: line)
        }
        guard Self.expectedThread(json, keepingArrayOrder: true) == original else {
            throw fail("""
                encode(to:) wrote \(Self.shortJSON(json)) for the thread "\(original.title)" \
                (\(original.identifier), \(original.messages.count) message(s)); that JSON does not hold the same \
                title, identifier and messages. encode(to:) must write everything init(from:) reads. \
                See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        let decoded = try decode(MessageThread.self, from: data, json: json, source: source, threadDepth: 0,
                                 writtenByEncode: true, file: file, line: line)
        try assertSameThread(decoded, as: json, decoding: source, file: file, line: line)
    }

    /// PUTs `thread`, as encode(to:) writes it, at its identifier, then GETs it back.
    func putAndGet(_ thread: MessageThread, on emulator: FirebaseEmulator,
                   file: StaticString = #filePath, line: UInt = #line) throws -> (data: Data, json: JSONValue) {
        let (body, json) = try encodeThread(thread, file: file, line: line)
        if let problem = Self.shapeProblem(of: json, for: thread) {
            throw fail(problem, file: file, line: line)
        }
        let url = emulator.baseURL.appendingPathComponent(thread.identifier).appendingPathExtension("json")
        var put = URLRequest(url: url)
        put.httpMethod = "PUT"
        put.httpBody = body
        let stored = emulator.handle(put)
        guard stored.statusCode == 200 else {
            throw fail("""
                Firebase (the emulator) refused a PUT of what encode(to:) wrote, with \(stored.statusCode) \
                \(oneLine(stored.bodyText ?? "")). The body: \(Self.shortJSON(json)). See LESSONS.md §3.4.
                """, file: file, line: line)
        }
        let got = emulator.handle(URLRequest(url: url))
        guard got.statusCode == 200, let read = got.bodyJSON else {
            throw fail("GET of the stored thread failed: \(got.statusCode) \(got.bodyText ?? ""). See LESSONS.md §3.4.", file: file, line: line)
        }
        return (got.body, read)
    }
}
