import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Lesson 3's tests share this: decoding fixtures and encoding threads through the learner's `init(from:)` and
/// `encode(to:)`, and turning a `DecodingError` into words that name the likely mistake.
class Lesson3TestCase: LabTestCase {
    static let initFrom = Exercise("MessageThread.init(from:)", section: "3.3")
    static let encodeTo = Exercise("MessageThread.encode(to:)", section: "3.4")
    /// The original course's sample thread (Fixtures/lesson3/thread-sample.json).
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"

    // MARK: Decoding

    /// `Fixtures/<path>` decoded as a thread with the learner's `init(from:)`; stops the test with an explanation
    /// when it throws.
    func decodeThread(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> MessageThread {
        try decode(MessageThread.self, fixture: path, threadDepth: 0, file: file, line: line)
    }

    /// `Fixtures/<path>` decoded as `type`. `threadDepth` is how deep in the JSON the threads sit (0: the file is one
    /// thread; 1: it is a database, threads keyed by identifier), to read the coding path of an error.
    func decode<T: Decodable>(_ type: T.Type, fixture path: String, threadDepth: Int,
                              file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let data = try Fixtures.data(path)
        let json = try Fixtures.json(path)
        return try decode(type, from: data, json: json, source: "Fixtures/\(path)", threadDepth: threadDepth, file: file, line: line)
    }

    /// `data` (whose parsed form is `json`) decoded as `type` with a plain JSONDecoder, as an app would.
    /// `writtenByEncode`: the JSON came from the learner's encode(to:) (perhaps via the emulator), so a missing
    /// title or identifier is encode's fault, not init(from:)'s.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, json: JSONValue, source: String, threadDepth: Int,
                              writtenByEncode: Bool = false,
                              file: StaticString = #filePath, line: UInt = #line) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw fail(Self.explain(error, in: json, source: source, threadDepth: threadDepth, writtenByEncode: writtenByEncode),
                       file: file, line: line)
        } catch {
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("MessageThread.init(from:) threw \(oneLine(error)) while decoding \(source). See LESSONS.md §3.3.",
                       file: file, line: line)
        }
    }

    /// What a `DecodingError` from the learner's `init(from:)` most likely means, in one line.
    static func explain(_ error: DecodingError, in json: JSONValue, source: String, threadDepth: Int,
                        writtenByEncode: Bool = false) -> String {
        let reference = "See LESSONS.md §3.3."
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath
            let holder = value(at: path, in: json)
            let keys = holder.objectValue.map { $0.keys.sorted() } ?? []
            let location = describe(path)
            if path.count == threadDepth, key.stringValue == "messages" {
                return """
                    init(from:) threw keyNotFound for "messages" decoding \(source)\(location): this thread has no \
                    `messages` key (its keys: \(keys.joined(separator: ", "))). A new thread has none — Firebase does not \
                    store an empty list — so `decode` is the wrong call: use `decodeIfPresent` for messages and make \
                    nil an empty array. \(reference)
                    """
            }
            if writtenByEncode, path.count == threadDepth, ["title", "identifier"].contains(key.stringValue) {
                return """
                    encode(to:) did not write the key "\(key.stringValue)", so init(from:) could not read it back \
                    from \(source) (its keys: \(keys.joined(separator: ", "))). Encode title, identifier and \
                    messages, each for its CodingKeys case. See LESSONS.md §3.4.
                    """
            }
            if let near = keys.first(where: { $0.lowercased() == key.stringValue.lowercased() }) {
                return """
                    init(from:) looked for the key "\(key.stringValue)" decoding \(source)\(location), but the JSON \
                    spells it "\(near)". A CodingKeys case's raw value must be exactly the JSON key: \
                    `case \(near)` (or `case x = "\(near)"`). \(reference)
                    """
            }
            if path.count == threadDepth, !keys.isEmpty, keys.allSatisfy({ ["title", "identifier", "messages"].contains($0) }) {
                return """
                    init(from:) looked for the key "\(key.stringValue)" decoding \(source)\(location), but a thread's JSON \
                    has the keys \(keys.joined(separator: ", ")). CodingKeys should be exactly title, identifier and \
                    messages, with raw values that match the JSON. \(reference)
                    """
            }
            return """
                init(from:) threw keyNotFound for "\(key.stringValue)" decoding \(source)\(location); the object there \
                has the keys \(keys.joined(separator: ", ")). \(oneLine(context.debugDescription)) \(reference)
                """
        case .typeMismatch(let type, let context):
            let path = context.codingPath
            let found = value(at: path, in: json)
            let expectsArray = String(describing: type).hasPrefix("Array")
            let expectsDictionary = String(describing: type).hasPrefix("Dictionary")
            if path.count == threadDepth + 1, path.last?.stringValue == "messages" {
                if expectsArray, let object = found.objectValue {
                    return """
                        init(from:) decoded `messages` as [Message], but in \(source) they are an object keyed by push \
                        IDs (\(object.keys.sorted().prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))\
                        \(object.count > 3 ? ", …" : "")): that is how Firebase stores messages POSTed one by one. \
                        Decode [String: Message] and take its values (then fall back to [Message] for a PUT-written \
                        array). \(reference)
                        """
                }
                if expectsDictionary, found.arrayValue != nil {
                    return """
                        init(from:) decoded `messages` only as [String: Message], but in \(source) they are a JSON \
                        array: what Firebase returns when a PUT stored them under the keys 0, 1, 2, … (its array \
                        heuristic). When the dictionary does not decode, try [Message]. \(reference)
                        """
                }
            }
            if path.count == threadDepth, found.objectValue != nil {
                if expectsArray {
                    return """
                        init(from:) asked for an unkeyed container (a JSON array) decoding \(source)\(describe(path)), \
                        but a thread is a JSON object with the keys title, identifier and messages. Use the keyed \
                        container: `let container = try decoder.container(keyedBy: CodingKeys.self)`. \(reference)
                        """
                }
                return """
                    init(from:) decoded the whole thread as one \(type) (a single-value container) decoding \
                    \(source)\(describe(path)), but a thread is a JSON object with the keys title, identifier and \
                    messages. Use the keyed container: `let container = try decoder.container(keyedBy: \
                    CodingKeys.self)`. \(reference)
                    """
            }
            return """
                init(from:) expected \(type) decoding \(source)\(describe(path)), but the JSON there is \
                \(shortJSON(found)). \(oneLine(context.debugDescription)) \(reference)
                """
        case .valueNotFound(let type, let context):
            return """
                init(from:) expected \(type) decoding \(source)\(describe(context.codingPath)) but found null or \
                nothing. \(oneLine(context.debugDescription)) \(reference)
                """
        case .dataCorrupted(let context):
            return "init(from:) found corrupted data decoding \(source)\(describe(context.codingPath)): \(oneLine(context.debugDescription)) \(reference)"
        @unknown default:
            return "init(from:) threw \(oneLine(error)) decoding \(source). \(reference)"
        }
    }

    /// " at messages/-LJNQ2zNeL4bwG1qpwYB", or "" at the top.
    static func describe(_ path: [CodingKey]) -> String {
        path.isEmpty ? "" : " at \(path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/"))"
    }

    /// The JSON at a decoder's coding path.
    static func value(at path: [CodingKey], in json: JSONValue) -> JSONValue {
        path.reduce(json) { node, key in
            if let index = key.intValue, let array = node.arrayValue {
                return array.indices.contains(index) ? array[index] : .null
            }
            return node[key.stringValue]
        }
    }

    static func shortJSON(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    // MARK: What a fixture says

    /// The thread `json` holds, read without the learner's code: messages from an object or an array, oldest first
    /// (or, with `keepingArrayOrder`, an array's messages in the array's order).
    static func expectedThread(_ json: JSONValue, keepingArrayOrder: Bool = false) -> MessageThread {
        let children = json["messages"].objectValue.map { Array($0.values) } ?? json["messages"].arrayValue ?? []
        let messages = children.compactMap { child -> MessageThread.Message? in
            guard let text = child["text"].stringValue, let sender = child["sender"].stringValue,
                let seconds = child["timestamp"].numberValue else { return nil }
            return MessageThread.Message(text: text, sender: sender, timestamp: Date(timeIntervalSinceReferenceDate: seconds))
        }
        let inOrder = keepingArrayOrder && json["messages"].arrayValue != nil
        return MessageThread(title: json["title"].stringValue ?? "", identifier: json["identifier"].stringValue ?? "",
                             messages: inOrder ? messages : messages.sorted { $0.timestamp < $1.timestamp })
    }

    /// "Ada 16:03:05.007" per message, to show an order in a message.
    static func timeline(_ messages: [MessageThread.Message]) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return "[" + messages.map { "\($0.sender) \(formatter.string(from: $0.timestamp))" }.joined(separator: ", ") + "]"
    }

    /// Checks `actual` against the thread `json` holds, field by field, with messages that say which part is wrong
    /// and why.
    func assertSameThread(_ actual: MessageThread, as json: JSONValue, decoding source: String,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = "See LESSONS.md §3.3."
        let expected = Self.expectedThread(json)
        let shape: String
        switch json["messages"] {
        case .object: shape = "Here `messages` is an object keyed by push IDs: decode [String: Message] and take its values."
        case .array: shape = "Here `messages` is a JSON array (as Firebase returns messages that a PUT stored under 0, 1, 2, …): when the dictionary does not decode, decode [Message]."
        default: shape = "Here there is no `messages` key: decodeIfPresent gives nil, which means no messages."
        }
        XCTAssertEqual(actual.title, expected.title, "init(from:) decoded the wrong title from \(source). Decode the key \"title\" as a String. \(reference)", file: file, line: line)
        XCTAssertEqual(actual.identifier, expected.identifier, "init(from:) decoded the wrong identifier from \(source). Decode the key \"identifier\" as a String. \(reference)", file: file, line: line)
        guard actual.messages.count == expected.messages.count else {
            throw fail("""
                init(from:) decoded \(actual.messages.count) message(s) from \(source); the JSON holds \
                \(expected.messages.count). \(shape) \(reference)
                """, file: file, line: line)
        }
        let sortedActual = actual.messages.sorted { $0.timestamp < $1.timestamp }
        if sortedActual == expected.messages, actual.messages != expected.messages {
            throw fail("""
                init(from:) decoded the right messages from \(source) but not in chronological order: \
                \(Self.timeline(actual.messages)); expected oldest first: \(Self.timeline(expected.messages)). \
                A dictionary (and a JSON object) has no order, so sort them: \
                `.sorted { $0.timestamp < $1.timestamp }` — after either shape, object or array. \(reference)
                """, file: file, line: line)
        }
        for (index, (got, want)) in zip(actual.messages, expected.messages).enumerated() where got != want {
            throw fail("""
                init(from:) decoded message \(index) from \(source) as (text: \(got.text.debugDescription), sender: \
                \(got.sender.debugDescription), timestamp: \(got.timestamp.timeIntervalSinceReferenceDate)); the JSON \
                says (text: \(want.text.debugDescription), sender: \(want.sender.debugDescription), timestamp: \
                \(want.timestamp.timeIntervalSinceReferenceDate)). Decode each message with Message's own Decodable \
                and keep it as it is. \(reference)
                """, file: file, line: line)
        }
    }

    // MARK: Encoding

    /// What is wrong with the shape of a thread's JSON that encode(to:) wrote, or nil when it is a JSON object with the
    /// keys title, identifier and messages (messages may be left out when `thread` has none).
    static func shapeProblem(of json: JSONValue, for thread: MessageThread) -> String? {
        guard let object = json.objectValue else {
            return """
                encode(to:) wrote \(shortJSON(json)), not a JSON object. A thread is an object with the keys title, \
                identifier and messages: use `encoder.container(keyedBy: CodingKeys.self)`, not a single-value or \
                unkeyed container. See LESSONS.md §3.4.
                """
        }
        let keys = Set(object.keys)
        var expected: Set = ["title", "identifier", "messages"]
        if thread.messages.isEmpty, !keys.contains("messages") { expected.remove("messages") }
        guard keys == expected else {
            return """
                encode(to:) wrote the keys \(keys.sorted()); a thread's JSON has exactly title, identifier and \
                messages. Missing: \(expected.subtracting(keys).sorted()); not expected: \
                \(keys.subtracting(expected).sorted()). Encode each property for its CodingKeys case, whose raw value \
                must be exactly the JSON key. See LESSONS.md §3.4.
                """
        }
        return nil
    }

    /// `thread` encoded with a plain JSONEncoder through the learner's `encode(to:)`, as JSON.
    func encodeThread(_ thread: MessageThread, file: StaticString = #filePath, line: UInt = #line) throws -> (data: Data, json: JSONValue) {
        let data: Data
        do {
            data = try JSONEncoder().encode(thread)
        } catch {
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("MessageThread.encode(to:) threw \(oneLine(error)). It should write the thread's three keys and never throw for a valid thread. See LESSONS.md §3.4.", file: file, line: line)
        }
        do {
            return (data, try JSONValue(data: data))
        } catch {
            throw fail("What encode(to:) wrote is not JSON: \(String(decoding: data, as: UTF8.self)). See LESSONS.md §3.4.", file: file, line: line)
        }
    }

    /// A thread with three messages, in order, built in code (so the encoding tests need no init(from:)).
    static func threeMessageThread() -> MessageThread {
        MessageThread(title: "Encoding by hand", identifier: "5D2C8A10-3B4E-4F6A-9C7D-8E1F2A3B4C5D", messages: [
            MessageThread.Message(text: "First: an array, in order.", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 5.55405872056162E8)),
            MessageThread.Message(text: "Second: no keys of my own.", sender: "Grace", timestamp: Date(timeIntervalSinceReferenceDate: 5.55405931123456E8)),
            MessageThread.Message(text: "Third: Firebase keeps them as 0, 1, 2 🎯", sender: "Linus", timestamp: Date(timeIntervalSinceReferenceDate: 5.55406010987654E8)),
        ])
    }
}
