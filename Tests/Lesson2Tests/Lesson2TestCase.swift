import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Lesson 2's tests share this: the recorded data, and ways to look at the learner's model without naming its stored
/// properties. The learner declares those, so a test that named one would not compile against a learner who spelled it
/// differently; instead every test goes through the initialisers, JSONEncoder/JSONDecoder and `==`, and a misspelled
/// property shows up as a JSON key that differs from the data's — which the failure message names.
class Lesson2TestCase: LabTestCase {
    static let message = Exercise("MessageThread.Message.init(text:sender:timestamp:)", section: "2.2")
    static let thread = Exercise("MessageThread.init(title:identifier:messages:)", section: "2.3")
    static let equality = Exercise("MessageThread.==(lhs:rhs:)", section: "2.4")

    // MARK: The recorded data (Fixtures/lesson2/README.md)

    static let messageFixture = "lesson2/message.json"
    static let threadFixture = "lesson2/thread.json"
    static let databaseFixture = "lesson2/database.json"

    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"
    static let sampleText = "This is a test to make sure the API works!"
    static let sampleSender = "Spencer"
    /// The recorded `"timestamp" : 5.55405872056162E8`: seconds since 1 January 2001 (2018-08-08T07:24:32Z).
    static let sampleSeconds = 5.55405872056162E8
    static var sampleDate: Date { Date(timeIntervalSinceReferenceDate: sampleSeconds) }

    /// The recorded message, built with the learner's initialiser.
    func sampleMessage() -> MessageThread.Message {
        MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate)
    }

    /// The recorded thread, built with the learner's initialisers.
    func sampleThread() -> MessageThread {
        MessageThread(title: "REST APIs", identifier: Self.sampleThreadID, messages: [sampleMessage()])
    }

    /// The message layer and the thread layer of the recorded database export.
    func recordedLayers() throws -> (thread: JSONValue, message: JSONValue) {
        let database = try Fixtures.json(Self.databaseFixture)
        let thread = database[Self.sampleThreadID]
        return (thread, thread["messages"][Self.sampleMessageID])
    }

    // MARK: Encoding and decoding, with messages that say what went wrong

    /// `value` encoded by a plain JSONEncoder, read back as a JSON value.
    func encoded<T: Encodable>(_ value: T, _ exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw fail("JSONEncoder could not encode \(Self.name(of: T.self)): \(oneLine(error)). See \(exercise.reference).", file: file, line: line)
        }
    }

    /// `Fixtures/<path>` decoded as `type` by a plain JSONDecoder; stops the test with the decoding error in words.
    func decodeFixture<T: Decodable>(_ type: T.Type, _ path: String, _ exercise: Exercise,
                                     file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let data = try Fixtures.data(path)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            let json = (try? JSONValue(data: data)) ?? .null
            throw fail("""
                JSONDecoder could not decode the recorded \(path.hasSuffix("message.json") ? "message" : "thread") \
                (Fixtures/\(path): \(json.description)) as \(Self.name(of: T.self)): \(Self.explain(error, data: json)) See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// A DecodingError in a learner's words: which key, what the data holds, what the model wanted.
    /// `data`, when given, is the JSON that was decoded: the message then lists the keys the data has where one was missing.
    static func explain(_ error: Error, data: JSONValue? = nil) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            codingPath.isEmpty ? "the top level" : "\"" + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "\""
        }
        func value(at codingPath: [CodingKey], in json: JSONValue) -> JSONValue {
            codingPath.reduce(json) { node, key in
                if let index = key.intValue, let array = node.arrayValue { return array.indices.contains(index) ? array[index] : .null }
                return node[key.stringValue]
            }
        }
        guard let decodingError = error as? DecodingError else { return oneLine(error) }
        switch decodingError {
        case .keyNotFound(let key, let context):
            var notes: [String] = []
            if !context.codingPath.isEmpty { notes.append("inside \(path(context.codingPath))") }
            if let json = data, let keys = value(at: context.codingPath, in: json).objectValue?.keys {
                notes.append("the data's keys there are \(quotedList(keys))")
                if let twin = keys.first(where: { $0.lowercased() == key.stringValue.lowercased() }) {
                    notes.append("\"\(twin)\" differs from your \"\(key.stringValue)\" only in capitals, and JSON keys are case-sensitive")
                }
            }
            let detail = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
            return """
                your model wants a key "\(key.stringValue)" that the data does not have\(detail). \
                Codable takes each JSON key from a property's name, so rename that property to the data's key.
                """
        case .typeMismatch(let type, let context):
            let found = data.map { value(at: context.codingPath, in: $0) }.map { "\(kind($0)) \($0.description)" }
                ?? oneLine(context.debugDescription)
            return """
                at \(path(context.codingPath)) your model expects \(typeName(type)), but the data holds \(found). \
                Give that property the type the data has.
                """
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)) your model expects \(typeName(type)), but the data holds null."
        case .dataCorrupted(let context):
            return "the data at \(path(context.codingPath)) does not fit: \(oneLine(context.debugDescription))."
        @unknown default:
            return oneLine(error)
        }
    }

    /// "MessageThread.Message", without the module's name.
    static func name(of type: Any.Type) -> String {
        let name = String(reflecting: type)
        return name.hasPrefix("Lesson2.") ? String(name.dropFirst("Lesson2.".count)) : name
    }

    static func typeName(_ type: Any.Type) -> String {
        let name = "\(type)"
        if name.hasPrefix("Dictionary") { return "a dictionary (JSON object)" }
        if name.hasPrefix("Array") { return "an array" }
        return "a \(name)"
    }

    // MARK: Comparing JSON

    /// Nil when `actual` has exactly the keys of `recorded`; otherwise a sentence naming the keys that differ.
    static func keyProblem(_ model: String, encodes actual: JSONValue, recorded: JSONValue, fixture: String) -> String? {
        guard let object = actual.objectValue else {
            return "\(model) encodes to \(actual.description), not a JSON object with the keys \(quotedList(recorded.objectValue?.keys ?? [:].keys)) (Fixtures/\(fixture))."
        }
        let have = Set(object.keys)
        let want = Set(recorded.objectValue?.keys ?? [:].keys)
        guard have != want else { return nil }
        var sentences = ["\(model) encodes the keys \(quotedList(have)), but the recorded data (Fixtures/\(fixture)) has \(quotedList(want))."]
        var extra = have.subtracting(want)
        for key in want.subtracting(have).sorted() {
            if let twin = extra.first(where: { $0.lowercased() == key.lowercased() }) {
                extra.remove(twin)
                sentences.append("Your \"\(twin)\" differs from the data's \"\(key)\" only in capitals, and JSON keys are case-sensitive: the data's \"\(key)\" would never be read. Name the property `\(key)`.")
            } else if let guess = extra.sorted().first(where: { $0.lowercased().contains(key.lowercased()) || key.lowercased().contains($0.lowercased()) }) {
                extra.remove(guess)
                sentences.append("Your \"\(guess)\" is not the data's \"\(key)\": name the property `\(key)`.")
            } else {
                sentences.append("The data's \"\(key)\" is missing: add a property named `\(key)`.")
            }
        }
        if !extra.isEmpty {
            sentences.append("The data has no \(quotedList(extra)): rename or remove \(extra.count == 1 ? "that property" : "those properties").")
        }
        sentences.append("Codable names each JSON key after its stored property, so the names must be the data's keys exactly.")
        return sentences.joined(separator: " ")
    }

    /// Where `actual` and `expected` differ, as phrases (`at "text", the string "a" where the data has the string "b"`);
    /// empty when they are equal.
    static func differences(_ actual: JSONValue, _ expected: JSONValue, at path: String = "") -> [String] {
        if actual == expected { return [] }
        let here = path.isEmpty ? "the top level" : "\"\(path)\""
        switch (actual, expected) {
        case (.object(let a), .object(let e)):
            var found: [String] = []
            for key in Set(a.keys).union(e.keys).sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                switch (a[key], e[key]) {
                case (nil, _?): found.append("no \"\(child)\", which the data has")
                case (_?, nil): found.append("an extra \"\(child)\", which the data does not have")
                case (let x?, let y?): found += differences(x, y, at: child)
                default: break
                }
            }
            return found
        case (.array(let a), .array(let e)) where a.count == e.count:
            return zip(a, e).enumerated().flatMap { differences($0.element.0, $0.element.1, at: "\(path)[\($0.offset)]") }
        default:
            return ["at \(here), \(kind(actual)) \(actual.description) where the data has \(kind(expected)) \(expected.description)"]
        }
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "the number"
        case .string: return "the string"
        case .array(let elements): return "an array of \(elements.count)"
        case .object: return "an object"
        }
    }

    static func quotedList<S: Sequence>(_ keys: S) -> String where S.Element == String {
        "[" + keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    // MARK: Dates

    /// The coding paths (e.g. "timestamp", "messages.0.timestamp") at which encoding `value` encoded a `Date`.
    /// A JSONEncoder with a custom date strategy sees every Date it encodes; a timestamp stored as a Double or a
    /// String never reaches it, though the JSON may look alike.
    func datePaths<T: Encodable>(in value: T) -> [String] {
        let seen = PathRecorder()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            seen.record(encoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        _ = try? encoder.encode(value)
        return seen.paths
    }
}

/// Collects coding paths from the encoder's date strategy (a Sendable closure).
final class PathRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        recorded.append(path)
    }

    var paths: [String] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }
}

extension Lesson2TestCase {
    /// Nil when `value` (what the learner's model encoded for a timestamp) is `date` as JSONEncoder writes a Date:
    /// seconds since 1 January 2001. Otherwise a sentence that names the likely mistake.
    static func timestampProblem(_ value: JSONValue, for date: Date, encodedAsDate: Bool, model: String) -> String? {
        let expected = date.timeIntervalSinceReferenceDate
        let here = expected == sampleSeconds ? "" : " (\(JSONValue.number(expected).description) for this date)"
        let since2001 = "JSONEncoder writes a Date as seconds since 1 January 2001\(here), which is how the recorded data holds it (5.55405872056162E8)"
        switch value {
        case .null:
            return "\(model) encodes no \"timestamp\" at all. Store the message's date in a `Date` property named `timestamp`: \(since2001)."
        case .string(let text):
            return "\(model) encodes \"timestamp\" as the string \"\(text)\": your timestamp is stored as text. Store a `Date`: \(since2001), and JSONDecoder reads that number back into a Date."
        case .number(let number):
            if abs(number - expected) < 0.001 {
                if encodedAsDate { return nil }
                return "\(model) encodes \"timestamp\" as the right number, but not from a Date: your timestamp is stored as a number (a Double?). Store the `Date` itself and let JSONEncoder write it: \(since2001). A number loses what it counts from, and the rest of the app (sorting, showing a time) wants a Date."
            }
            if abs(number - Date().timeIntervalSinceReferenceDate) < 60 {
                return "\(model) encodes \"timestamp\" as \(value.description), which is now, not the date passed to the initialiser (\(JSONValue.number(expected).description)): store the `timestamp` parameter. Its default, `Date()`, is already in the signature; it applies only when the caller leaves the timestamp out."
            }
            if abs(number - date.timeIntervalSince1970) < 1 {
                return "\(model) encodes \"timestamp\" as \(value.description), the seconds since 1970 (timeIntervalSince1970), but \(since2001). Store the Date as it is; don't convert it."
            }
            if abs(number - date.timeIntervalSince1970 * 1000) < 1000 {
                return "\(model) encodes \"timestamp\" as \(value.description), milliseconds since 1970 (Firebase's server timestamps count that way), but \(since2001). Store the Date as it is; don't convert it."
            }
            return "\(model) encodes \"timestamp\" as \(value.description), but \(since2001). Store the `timestamp` parameter, unchanged, in a `Date` property."
        default:
            return "\(model) encodes \"timestamp\" as \(kind(value)) \(value.description), but \(since2001). Store it in a plain `Date` property."
        }
    }
}
