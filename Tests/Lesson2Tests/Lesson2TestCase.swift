import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Lesson 2's tests share this: the recorded data, and ways to look at the learner's model without naming its stored
/// properties. The learner declares those, so a test that named one would not compile against a learner who spelled it
/// differently; instead every verdict goes through the initialisers, JSONEncoder/JSONDecoder and `==`, and a misspelled
/// property shows up as a JSON key that differs from the data's — which the failure message names. To say *why* a
/// verdict failed, the messages also read the stored properties at run time (Mirror): a message names a cause only
/// when it has checked it there.
class Lesson2TestCase: TimeZonedTestCase {
    static let message = Exercise("MessageThread.Message.init(text:sender:timestamp:)", section: "2.2")
    static let thread = Exercise("MessageThread.init(title:identifier:messages:)", section: "2.3")
    static let equality = Exercise("MessageThread.==(lhs:rhs:)", section: "2.4")

    // MARK: The time zone the tests run in

    // The tests run in Asia/Kolkata, whatever the machine's time zone (TimeZonedTestCase): a model that "converts" a
    // Date to local time (adding `TimeZone.current.secondsFromGMT()`) changes the instant, and that shows.

    /// A sentence (beginning " — ") when `actual` is `expected` moved by the local time zone's offset from UTC, either way.
    static func timeZoneNote(_ actual: Date, _ expected: Date) -> String {
        let shift = actual.timeIntervalSince(expected)
        let zone = TimeZone.current
        guard let offset = [expected, actual, Date()].map({ TimeInterval(zone.secondsFromGMT(for: $0)) })
                .first(where: { $0 != 0 && abs(abs(shift) - abs($0)) < 0.001 }) else { return "" }
        let minutes = Int(abs(offset) / 60)
        return """
             — moved by \(minutes / 60) h \(minutes % 60) min, exactly the offset from UTC of the time zone the tests run \
            in (\(zone.identifier)). A Date is an instant, the same in every time zone: there is nothing to convert, and \
            adding `secondsFromGMT` makes it another instant. A time zone matters only when a date is shown as text \
            (DateFormatter) (§2.5)
            """
    }

    // MARK: The recorded data (Fixtures/lesson2/README.md)

    static let messageFixture = "lesson2/message.json"
    static let threadFixture = "lesson2/thread.json"
    static let databaseFixture = "lesson2/database.json"

    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"
    static let sampleTitle = "REST APIs"
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
        MessageThread(title: Self.sampleTitle, identifier: Self.sampleThreadID, messages: [sampleMessage()])
    }

    /// The message layer and the thread layer of the recorded database export.
    func recordedLayers() throws -> (thread: JSONValue, message: JSONValue) {
        let database = try Fixtures.json(Self.databaseFixture)
        let thread = database[Self.sampleThreadID]
        return (thread, thread["messages"][Self.sampleMessageID])
    }

    // MARK: Encoding and decoding, with messages that say what went wrong

    /// `value` encoded by a plain JSONEncoder, read back as a JSON value.
    func encoded<T: Encodable>(_ value: T, _ exercise: Exercise, setup: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw fail("\(setup.map { "setup: \($0): " } ?? "")JSONEncoder could not encode \(Self.name(of: T.self)): \(oneLine(error)). See \(exercise.reference).", file: file, line: line)
        }
    }

    /// `Fixtures/<path>` decoded as `type` by a plain JSONDecoder; stops the test with the decoding error in words.
    /// `sample` is the same value built with the learner's initialisers: its stored properties (read through Mirror)
    /// let the message say whether a property's type or the decoding code is what does not fit the data.
    /// `setup`, when given, begins the message: the decoding is the setup of a test of another exercise.
    func decodeFixture<T: Decodable>(_ type: T.Type, _ path: String, _ exercise: Exercise, sample: Any? = nil, setup: String? = nil,
                                     file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let data = try Fixtures.data(path)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            let json = (try? JSONValue(data: data)) ?? .null
            let what = path.hasSuffix("message.json") ? "message" : "thread"
            throw fail("""
                \(setup.map { "setup: \($0): " } ?? "")JSONDecoder could not decode the recorded \(what) \
                (Fixtures/\(path): \(json.description)) as \(Self.name(of: T.self)): \(Self.explain(error, data: json, sample: sample)) \
                See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// A DecodingError in a learner's words: which key, what the data holds, what the model asked for.
    /// `data`, when given, is the JSON that was decoded: the message then lists the keys the data has where one was missing.
    /// `sample`, when given, is a value of the decoded type built with the learner's initialisers: the message then
    /// names a cause only when the stored properties (read through Mirror) show it — a property's type, a property's
    /// name, or decoding code (CodingKeys, `init(from:)`) that asks for something the property does not have.
    static func explain(_ error: Error, data: JSONValue? = nil, sample: Any? = nil) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            codingPath.isEmpty ? "the top level" : "\"" + codingPath.map { arrayIndex($0).map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "\""
        }
        func value(at codingPath: [CodingKey], in json: JSONValue) -> JSONValue {
            codingPath.reduce(json) { node, key in
                if let index = key.intValue, let array = node.arrayValue { return array.indices.contains(index) ? array[index] : .null }
                return node[key.stringValue]
            }
        }
        /// The learner's value at `codingPath` inside `sample` (a nested message is found inside the thread's array).
        func owner(at codingPath: [CodingKey]) -> Any? {
            var node: Any? = sample
            for key in codingPath {
                guard let current = node.flatMap(unwrap) else { return nil }
                if let index = arrayIndex(key) {
                    guard Mirror(reflecting: current).displayStyle == .collection else { return nil }
                    let elements = Mirror(reflecting: current).children.map(\.value)
                    node = elements.indices.contains(index) ? elements[index] : elements.first
                } else {
                    node = stored(current)[key.stringValue]
                }
            }
            return node.flatMap(unwrap)
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
            var cause = ""
            if let model = owner(at: context.codingPath), Mirror(reflecting: model).displayStyle != .collection {
                cause = stored(model)[key.stringValue] != nil
                    ? " You have a stored property `\(key.stringValue)`, and Codable takes each JSON key from a property's name: rename that property to the data's key."
                    : " None of your stored properties is named `\(key.stringValue)`: the key comes from your CodingKeys or your own `init(from:)`. Ask for the data's key."
            }
            return "your model wants a key \"\(key.stringValue)\" that the data does not have\(detail).\(cause)"
        case .typeMismatch(let type, let context):
            let found = data.map { value(at: context.codingPath, in: $0) }.map { "\(kind($0)) \($0.description)" }
                ?? oneLine(context.debugDescription)
            var cause = ""
            if let last = context.codingPath.last, arrayIndex(last) == nil,
               let model = owner(at: Array(context.codingPath.dropLast())), let property = stored(model)[last.stringValue] {
                let declared = typeDescription(of: property)
                cause = decodes(type, into: property)
                    ? " Your `\(last.stringValue)` property is declared \(declared): give that property the type the data has."
                    : " Your `\(last.stringValue)` property is declared \(declared), which is not what is decoded for it: your own `init(from:)` asks for \(typeName(type)). Decode the property's own type."
            }
            return "at \(path(context.codingPath)) your model asks for \(typeName(type)), but the data holds \(found).\(cause)"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)) your model asks for \(typeName(type)), but the data holds null."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, let json = data, context.debugDescription.contains("not valid JSON") {
                return wholeNumberProblem(json, reported: oneLine(context.debugDescription), path: path, owner: { owner(at: $0) })
            }
            return "the data at \(path(context.codingPath)) does not fit: \(oneLine(context.debugDescription))."
        @unknown default:
            return oneLine(error)
        }
    }

    /// The position a coding key stands for in an array (JSONEncoder's and JSONDecoder's keys for an unkeyed
    /// container: "Index 2", or "2"), nil for an object's key — even one with an Int value: CodingKeys declared
    /// `enum CodingKeys: Int, CodingKey` give each key an intValue, yet JSON writes its string, the case's name.
    static func arrayIndex(_ key: CodingKey) -> Int? {
        key.intValue.flatMap { index in key.stringValue == "Index \(index)" || key.stringValue == "\(index)" ? index : nil }
    }

    /// Foundation on Linux (Swift 6.3) reports a number decoded as a type that cannot hold it — `decode(Int.self, …)`
    /// where the data has 5.55405872056162E8 — as "The given data was not valid JSON." at the top level, with no key
    /// (Darwin says "Parsed JSON number <…> does not fit in Int." at the key). `json` parsed, so it is valid JSON: the
    /// message names the data's numbers with a fraction, and what the learner's property there is declared.
    static func wholeNumberProblem(_ json: JSONValue, reported: String, path: ([CodingKey]) -> String,
                                   owner: ([CodingKey]) -> Any?) -> String {
        struct Key: CodingKey {
            var stringValue: String, intValue: Int?
            init(_ key: String) { stringValue = key; intValue = nil }
            init(_ index: Int) { stringValue = "\(index)"; intValue = index }
            init?(stringValue: String) { self.init(stringValue) }
            init?(intValue: Int) { self.init(intValue) }
        }
        func fractions(_ node: JSONValue, _ at: [CodingKey]) -> [(path: [CodingKey], number: Double)] {
            switch node {
            case .number(let number): return number.rounded() == number ? [] : [(at, number)]
            case .array(let elements): return elements.enumerated().flatMap { fractions($0.element, at + [Key($0.offset)]) }
            case .object(let members): return members.keys.sorted().flatMap { fractions(members[$0]!, at + [Key($0)]) }
            default: return []
            }
        }
        let found = fractions(json, [])
        var sentence = """
            JSONDecoder reports "\(reported)", but the data is valid JSON: Foundation on Linux says that when your \
            decoding asks for a whole number (an Int) where the data holds a number with a fraction
            """
        guard !found.isEmpty else { return sentence + ", or a number that does not fit the type asked for." }
        sentence += " — here \(found.map { "\(path($0.path)) (\(JSONValue.number($0.number).description))" }.joined(separator: ", "))."
        for (at, number) in found {
            guard let name = at.last?.stringValue, let model = owner(Array(at.dropLast())), let property = stored(model)[name] else { continue }
            let declared = typeDescription(of: property)
            sentence += declared.hasPrefix("Date") || declared.hasPrefix("Double")
                ? " Your `\(name)` property is declared \(declared): decode it as \(declared.hasPrefix("Date") ? "a Date (JSONDecoder reads the number exactly)" : "a Double"), not as an Int."
                : " Your `\(name)` property is declared \(declared), which cannot hold \(JSONValue.number(number).description): \(name == "timestamp" ? "declare it a `Date` (§2.5)" : "give it the type the data has")."
        }
        return sentence
    }

    /// Whether decoding `requested` (the type a DecodingError names) is what Swift's own Codable decodes for a property
    /// holding `property`: its declared type (unwrapped if optional), any array for an array, any dictionary for a
    /// dictionary, and a number (Double) for a Date (JSONDecoder's default date strategy).
    static func decodes(_ requested: Any.Type, into property: Any) -> Bool {
        var declared = typeDescription(of: property)
        if declared.hasSuffix("?") { declared.removeLast() }
        let asked = "\(requested)"
        if declared.hasPrefix("[") && declared.contains(":") { return asked.hasPrefix("Dictionary") }
        if declared.hasPrefix("[") { return asked.hasPrefix("Array") }
        if declared == "Date" { return asked == "Double" || asked == "Date" }
        return asked == declared
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

    // MARK: Stored properties, seen through Mirror

    /// The stored properties of `value` (a message or a thread) by name, as Mirror sees them at run time. The tests
    /// never name the learner's properties in code (that would not compile against another spelling); they read
    /// them this way only to say which property holds what, and whether it is optional.
    static func stored(_ value: Any) -> [String: Any] {
        var properties: [String: Any] = [:]
        // A class's own properties, then those it inherits (a base class of the learner's holding `identifier`, say).
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label else { continue }
                // A property behind a property wrapper (`@SecondsSince2001 var timestamp`) is stored as `_timestamp`,
                // holding the wrapper: it is seen under its own name, holding the wrapper's value.
                let wrapped = wrappedValue(label, child.value)
                let name = wrapped == nil ? label : String(label.dropFirst())
                if properties[name] == nil { properties[name] = wrapped ?? child.value }
            }
            mirror = current.superclassMirror
        }
        return properties
    }

    /// What a property wrapper holds, when `label` is a wrapper's storage: `_name`, holding a struct or a class with
    /// one stored property (the wrapped value, or the wrapper's own storage of it). Nil otherwise — @Observable's
    /// `_name` holds the value itself, and its `_$observationRegistrar` is no wrapper.
    static func wrappedValue(_ label: String, _ value: Any) -> Any? {
        guard label.hasPrefix("_"), !label.hasPrefix("_$") else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct || mirror.displayStyle == .class, mirror.children.count == 1 else { return nil }
        return mirror.children.first?.value
    }

    /// The name of the property wrapper `value`'s property `name` is declared with (`SecondsSince2001` for
    /// `@SecondsSince2001 var timestamp`), nil when it has none.
    static func propertyWrapper(of value: Any, _ name: String) -> String? {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == "_" + name }), wrappedValue("_" + name, child.value) != nil {
                let type = "\(type(of: child.value))"
                return String(type.prefix { $0 != "<" })
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The learner's own base class of `value`'s class (nil for none, and for NSObject, which stores nothing).
    static func baseClass(of value: Any) -> String? {
        guard let base = Mirror(reflecting: value).superclassMirror?.subjectType, !(base == NSObject.self) else { return nil }
        return name(of: base)
    }

    // MARK: == asked again

    static let keyOrderNote = """
        Comparing JSONEncoder's output byte for byte does this: JSONEncoder's key order is not fixed (it follows where \
        in memory the encoder's dictionary lands, so it can change from one encoding to the next), so two encodings of \
        equal values can differ. Compare the properties (or encode with `outputFormatting = .sortedKeys`).
        """

    /// Stops the test when `==` answers differently for the same two values asked again: an == that depends on
    /// something other than the values answers by luck, and the tests after it would fail or pass by luck too.
    /// The usual one compares JSONEncoder's bytes: the order of a JSON object's keys follows the hash seed of the
    /// encoder's dictionary, which Swift takes from the address of its storage — so it is the same every time in one
    /// state of the heap, and changes with it (and from one run to the next). Each of the 48 questions is therefore
    /// asked with a different number of small blocks taken from the heap (the first with none), so that the luck
    /// shows in one run, every run.
    static func unsteadyAnswers<T: Equatable>(_ lhs: T, _ rhs: T) -> (yes: Int, asked: Int)? {
        let (yes, asked) = answers(lhs, rhs)
        return yes != 0 && yes != asked ? (yes, asked) : nil
    }

    static func answers<T: Equatable>(_ lhs: T, _ rhs: T) -> (yes: Int, asked: Int) { answers { lhs == rhs } }

    static func answers(_ ask: () -> Bool) -> (yes: Int, asked: Int) {
        let answers = (0..<48).map { question -> Bool in
            // Up to 23 blocks of each size class up to 512 bytes (where a small dictionary's storage lives): ~3 ms.
            let blocks = (0..<(question * 7 % 24)).flatMap { _ in
                (1...32).map { size in UnsafeMutableRawPointer.allocate(byteCount: 16 * size, alignment: 16) }
            }
            defer { blocks.forEach { $0.deallocate() } }
            return ask()
        }
        return (answers.filter { $0 }.count, answers.count)
    }

    /// Stops the test (in `exercise`) when `lhs == rhs` answers by luck (`unsteadyAnswers`); otherwise returns the
    /// answer it gave every time — use it, not one more call, which could still be the one lucky answer.
    @discardableResult
    func requireSteadyEquality<T: Equatable>(_ lhs: T, _ rhs: T, _ what: String, _ exercise: Exercise,
                                             file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try requireSteadyAnswer(Self.answers(lhs, rhs), what, exercise, file: file, line: line)
    }

    /// The same for two threads, with the `==` the compiler picks for two MessageThread values — the learner's, even
    /// when Equatable's is another (NSObject's): a test of its own compares the two.
    @discardableResult
    func requireSteadyEquality(_ lhs: MessageThread, _ rhs: MessageThread, _ what: String, _ exercise: Exercise,
                               file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try requireSteadyAnswer(Self.answers { lhs == rhs }, what, exercise, file: file, line: line)
    }

    private func requireSteadyAnswer(_ answers: (yes: Int, asked: Int), _ what: String, _ exercise: Exercise,
                                     file: StaticString, line: UInt) throws -> Bool {
        let (yes, asked) = answers
        guard yes != 0 && yes != asked else { return yes == asked }
        throw fail("""
            Asked \(asked) times whether \(what) are equal (==), your == answered true \(yes) times and false \
            \(asked - yes) times. == must depend on the values only. \(Self.keyOrderNote) See \(exercise.reference).
            """, file: file, line: line)
    }

    /// For the tests of the thread (§2.3, §2.4), which compare messages with Message's ==: stops the test ("setup: …")
    /// when that == answers by luck, so that they fail the same way every run and send the learner to §2.2.
    func requireSteadyMessageEquality(file: StaticString = #filePath, line: UInt = #line) throws {
        guard let (yes, asked) = Self.unsteadyAnswers(sampleMessage(), sampleMessage()) else { return }
        throw fail("""
            setup: MessageThread.Message's == (§2.2), asked \(asked) times whether two messages built from the same \
            text, sender and timestamp are equal, answered true \(yes) times and false \(asked - yes) times, so no test \
            that compares messages can give the same verdict twice. Make the tests of §2.2 (MessageTests) pass first. \
            See LESSONS.md §2.2.
            """, file: file, line: line)
    }

    /// A value's type as Swift source spells it: `String`, `Date?`, `[Message]`, `[String: Message]`.
    static func typeDescription(of value: Any) -> String {
        func sugar(_ name: String) -> String {
            func inner(_ prefix: String) -> String? {
                name.hasPrefix(prefix) && name.hasSuffix(">") ? String(name.dropFirst(prefix.count).dropLast()) : nil
            }
            if let wrapped = inner("Optional<") { return sugar(wrapped) + "?" }
            if let element = inner("Array<") { return "[" + sugar(element) + "]" }
            if let pair = inner("Dictionary<") { return "[" + pair.replacingOccurrences(of: ", ", with: ": ") + "]" }
            return name
        }
        return sugar("\(type(of: value))")
    }

    static func isOptional(_ value: Any) -> Bool { Mirror(reflecting: value).displayStyle == .optional }

    /// Whether a stored property (as `stored` gives it) is declared an array: `[Message]`, not a dictionary or a Set.
    static func isArrayProperty(_ value: Any?) -> Bool {
        value.map { typeDescription(of: $0).hasPrefix("[") && !typeDescription(of: $0).contains(":") } ?? false
    }

    /// `value` itself, or what it wraps when it is an optional (nil for nil).
    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map(\.value)
    }

    /// A stored value for a message: strings quoted, dates as seconds since 2001, other Encodable values as JSON.
    static func show(_ value: Any) -> String {
        guard let value = unwrap(value) else { return "nil" }
        if let text = value as? String { return "\"\(text)\"" }
        if let date = value as? Date { return "the date \(JSONValue.number(date.timeIntervalSinceReferenceDate).description) (seconds since 2001)" }
        if let encodable = value as? Encodable, let json = try? JSONValue(encoding: AnyEncodable(encodable)) { return json.description }
        return "\(value)"
    }

    /// Every stored property of `value` and what it holds, for comparing two values by their storage.
    static func summary(_ value: Any) -> String {
        stored(value).sorted { $0.key < $1.key }.map { "\($0.key): \(show($0.value))" }.joined(separator: ", ")
    }

    /// Sentences saying which of `value`'s stored properties does not hold what its initialiser was given
    /// (`given`: property name → the parameter's value), read through Mirror; empty when each holds its parameter
    /// (a property of another name is not looked at: the key tests report it). Two properties holding each other's
    /// parameters are reported as swapped.
    /// `decoded` says the values came from decoding the recorded data rather than from the initialiser's parameters.
    static func storageProblems(_ value: Any, given: [(name: String, value: Any)], decoded: Bool = false) -> [String] {
        func source(_ name: String) -> String { decoded ? "the recorded \(name)" : "the `\(name)` parameter" }
        let properties = stored(value)
        func same(_ name: String, _ expected: Any) -> Bool? {
            properties[name].map { show($0) == show(expected) }
        }
        var problems: [String] = []
        var reported: Set<String> = []
        for (index, first) in given.enumerated() {
            for second in given[(index + 1)...] where same(first.name, first.value) == false && same(second.name, second.value) == false
                && same(first.name, second.value) == true && same(second.name, first.value) == true {
                problems.append("""
                    `\(first.name)` and `\(second.name)` are swapped: `\(first.name)` holds \(show(second.value)), \
                    \(source(second.name)), and `\(second.name)` holds \(show(first.value))
                    """)
                reported.formUnion([first.name, second.name])
            }
        }
        for (name, expected) in given where !reported.contains(name) && same(name, expected) == false {
            let actual = properties[name].flatMap(unwrap)
            var sentence = "your `\(name)` property holds \(properties[name].map(show) ?? "nil"), not \(source(name)), \(show(expected))"
            if let date = actual as? Date, let given = expected as? Date, !timeZoneNote(date, given).isEmpty {
                sentence += timeZoneNote(date, given)
            } else if let date = actual as? Date, abs(date.timeIntervalSinceNow) < 60 {
                sentence += " (it holds the time the value was made: now)"
            } else if let text = actual as? String, name == "identifier", UUID(uuidString: text) != nil {
                sentence += " (a new UUID of its own)"
            }
            problems.append(sentence)
        }
        return problems
    }

    /// Sentences for the properties (of `given`) that neither the initialiser nor decoding sets: `built` (made with the
    /// initialiser from `given`) and the same value decoded from `Fixtures/<fixture>` (which records `given`) both hold
    /// something else, of the declared type. That is what a `let` declared with an initial value does
    /// (`public let timestamp: Date = Date()`): the initialiser may not assign it, and Swift's Codable skips it when
    /// decoding. Empty when decoding fails or sets the property.
    func initialValueProblems<T: Decodable>(_ built: T, given: [(name: String, value: Any)], fixture: String) -> [String] {
        guard let data = try? Fixtures.data(fixture), let decoded = try? JSONDecoder().decode(T.self, from: data) else { return [] }
        let made = Self.stored(built), read = Self.stored(decoded)
        return given.compactMap { name, expected in
            guard let b = made[name], let d = read[name], Self.typeDescription(of: b) == Self.typeDescription(of: expected),
                  Self.show(b) != Self.show(expected), Self.show(d) != Self.show(expected) else { return nil }
            return """
                Neither your initialiser nor decoding sets `\(name)`: built from the parameter it holds \(Self.show(b)), \
                decoded from the recorded data \(Self.show(d)). That is what a `let` declared with an initial value \
                (`public let \(name): \(Self.typeDescription(of: b)) = …`) does: it keeps that value — the initialiser may not \
                assign it, and Swift's Codable skips it when decoding. Declare `\(name)` without an initial value and assign \
                the parameter in the initialiser (LESSONS.md §2.1).
                """
        }
    }

    /// Sentences naming the stored properties of `lhs` and `rhs` (two values of one type) that are not among `given`
    /// (not one of the data's keys) and hold different values in the two: an `id = UUID()`, say, which the
    /// synthesised == compares although the JSON never holds it.
    static func extraPropertyProblems(_ lhs: Any, _ rhs: Any, given: [(name: String, value: Any)]) -> [String] {
        let left = stored(lhs), right = stored(rhs), keys = Set(given.map(\.name))
        return left.keys.filter { !keys.contains($0) }.sorted().compactMap { name in
            guard let l = left[name], let r = right[name], show(l) != show(r) else { return nil }
            return "your stored property `\(name)`, which is not one of the data's keys, holds \(show(l)) in one and \(show(r)) in the other"
        }
    }

    // MARK: Comparing JSON

    /// Nil when `actual` has exactly the keys of `recorded`; otherwise sentences naming the keys that differ.
    /// `properties` are the names of the model's stored properties (Mirror): a key that differs from the data's is
    /// blamed on a property's name only when a property has that name, and otherwise on CodingKeys or `encode(to:)`.
    static func keyProblem(_ model: String, encodes actual: JSONValue, recorded: JSONValue, fixture: String,
                           properties: Set<String>) -> String? {
        guard let object = actual.objectValue else {
            return "\(model) encodes to \(actual.description), not a JSON object with the keys \(quotedList(recorded.objectValue?.keys ?? [:].keys)) (Fixtures/\(fixture))."
        }
        let have = Set(object.keys)
        let want = Set(recorded.objectValue?.keys ?? [:].keys)
        guard have != want else { return nil }
        var sentences = ["\(model) encodes the keys \(quotedList(have)), but the recorded data (Fixtures/\(fixture)) has \(quotedList(want))."]
        var extra = have.subtracting(want)
        var renamedByCode = false
        /// What to do so that the model writes `key` where it now writes `written`.
        func fix(_ written: String, _ key: String) -> String {
            if properties.contains(written) { return "rename the property `\(written)` to `\(key)`" }
            renamedByCode = true
            return properties.contains(key)
                ? "your property `\(key)` is right, but your CodingKeys (or `encode(to:)`) write it under \"\(written)\": use the data's key, \"\(key)\""
                : "your CodingKeys (or `encode(to:)`) write \"\(written)\": use the data's key, \"\(key)\""
        }
        // @Observable (Observation) turns each `var` into a computed property over a stored `_name` and adds a stored
        // `_$observationRegistrar`; Swift's Codable encodes the stored properties, so the keys get their names
        // (swiftlang/swift#73280). Mirror sees the same stored properties, which is how the macro is recognised.
        let registrar = "_$observationRegistrar"
        let underscored = want.subtracting(have).filter { have.contains("_" + $0) }
        var handled: Set<String> = []
        if properties.contains(registrar) && (have.contains(registrar) || !underscored.isEmpty) {
            handled = underscored
            extra.subtract(underscored.map { "_" + $0 })
            extra.remove(registrar)
            let cases = want.sorted().map { underscored.contains($0) ? "_\($0) = \"\($0)\"" : $0 }.joined(separator: ", ")
            sentences.append("""
                Those keys come from @Observable: the macro turns each `var` into a computed property that reads a stored \
                copy named with an underscore (\(quotedList(underscored.map { "_" + $0 }))) and adds a stored \
                `_$observationRegistrar`, and Swift's Codable writes the stored properties, under their names \
                (swiftlang/swift#73280). Keep @Observable and say which keys to write, with CodingKeys — \
                `enum CodingKeys: String, CodingKey { case \(cases) }`, the registrar left out — or drop @Observable.
                """)
        }
        for key in want.subtracting(have).sorted() where !handled.contains(key) {
            if let twin = extra.sorted().first(where: { $0.lowercased() == key.lowercased() }) {
                extra.remove(twin)
                sentences.append("Your \"\(twin)\" differs from the data's \"\(key)\" only in capitals, and JSON keys are case-sensitive: the data's \"\(key)\" would never be read. To fix it, \(fix(twin, key)).")
            } else if let guess = extra.sorted().first(where: { $0.lowercased().contains(key.lowercased()) || key.lowercased().contains($0.lowercased()) }) {
                extra.remove(guess)
                sentences.append("Your \"\(guess)\" is not the data's \"\(key)\": \(fix(guess, key)).")
            } else if let typo = extra.sorted().first(where: { editDistance($0.lowercased(), key.lowercased()) <= max(1, key.count / 4) }) {
                extra.remove(typo)
                sentences.append("Your \"\(typo)\" is a letter or two away from the data's \"\(key)\" — a misspelling? The data's \"\(key)\" would never be read: \(fix(typo, key)).")
            } else if properties.contains(key) {
                renamedByCode = true
                sentences.append("The data's \"\(key)\" is missing although you have a property `\(key)`: your CodingKeys (or `encode(to:)`) leave it out or write it under another key.")
            } else if properties.contains(lazyStorage + key) {
                // Mirror sees a `lazy var` as its optional storage, `$__lazy_storage_$_name`; Swift's Codable skips it.
                renamedByCode = true
                sentences.append("""
                    The data's "\(key)" is missing although you have a property `\(key)`: it is a `lazy var`, and Swift's \
                    Codable leaves lazy properties out — it neither encodes nor decodes them. Drop `lazy`: declare it \
                    without an initial value and assign it in the initialiser.
                    """)
            } else {
                sentences.append("The data's \"\(key)\" is missing: add a property named `\(key)`.")
            }
        }
        if !extra.isEmpty {
            let named = extra.filter(properties.contains)
            sentences.append("The data has no \(quotedList(extra)): "
                + (named.count == extra.count ? "rename or remove \(extra.count == 1 ? "that property" : "those properties")."
                   : "stop encoding \(extra.count == 1 ? "it" : "them") (rename or remove the property, or leave it out of your CodingKeys)."))
            // A stored `id` is most often there for Identifiable (SwiftUI's List and ForEach), which a computed one satisfies.
            if extra.contains("id") && properties.contains("id") {
                sentences.append("""
                    If `id` is there for Identifiable (SwiftUI's List, ForEach), make it a computed property instead\
                    \(want.contains("identifier") ? ", `public var id: String { identifier }`" : "") — a computed property \
                    is not stored, so Codable does not encode it.
                    """)
            }
        }
        sentences.append(renamedByCode
            ? "The keys a model writes must be the data's keys exactly."
            : "Codable names each JSON key after its stored property, so the names must be the data's keys exactly.")
        return sentences.joined(separator: " ")
    }

    /// The name Mirror gives the storage of a `lazy var` (an optional, nil until first read), before the property's name.
    static let lazyStorage = "$__lazy_storage_$_"

    /// How many letters must be inserted, removed or changed to turn `a` into `b` (Levenshtein).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
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

    /// `value` with every string that holds a JSON object or array replaced by that JSON.
    static func parsingEmbeddedJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            guard text.hasPrefix("{") || text.hasPrefix("["), let json = try? JSONValue(data: Data(text.utf8)) else { return value }
            return parsingEmbeddedJSON(json)
        case .array(let elements): return .array(elements.map(parsingEmbeddedJSON))
        case .object(let members): return .object(members.mapValues(parsingEmbeddedJSON))
        default: return value
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
            seen.record(encoder.codingPath.map { Self.arrayIndex($0).map(String.init) ?? $0.stringValue }.joined(separator: "."))
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        _ = try? encoder.encode(value)
        return seen.paths
    }
}

/// Encodes any Encodable it wraps (for messages that show a stored value as JSON).
struct AnyEncodable: Encodable {
    let wrapped: Encodable
    init(_ wrapped: Encodable) { self.wrapped = wrapped }
    func encode(to encoder: Encoder) throws { try wrapped.encode(to: encoder) }
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
    static let since2001 = "JSONEncoder writes a Date as seconds since 1 January 2001, which is how the recorded data holds it (5.55405872056162E8)"

    /// Why the encoder saw no Date under "timestamp" (`value` is what the model encoded there), naming only what
    /// was checked: the property's declared type (Mirror: `stored`) and the number it wrote.
    static func notADateProblem(_ value: JSONValue, for date: Date, stored: Any?, wrapper: String? = nil, model: String) -> String {
        let written = value.isNull ? "no \"timestamp\" at all" : "\"timestamp\" as \(kind(value)) \(value.description)"
        var sentences = ["\(model) encodes \(written), and not by encoding a Date: JSONEncoder's date strategy never saw one there."]
        if let number = value.numberValue {
            if abs(number - date.timeIntervalSince1970) < 1 {
                sentences.append("That number is the seconds since 1970 (timeIntervalSince1970): 978,307,200 seconds (31 years) off.")
            } else if abs(number - date.timeIntervalSinceReferenceDate) < 0.001 {
                sentences.append("The number is right, but a number loses what it counts from: the app (sorting, showing a time) and any date strategy need the Date itself.")
            }
        }
        if let stored = stored, typeDescription(of: stored).hasPrefix("Date"), let wrapper = wrapper {
            sentences.append("""
                Your `timestamp` property is a Date behind your property wrapper @\(wrapper), and JSONEncoder encodes the \
                wrapper, with the wrapper's own Codable, which writes something else under "timestamp": drop the wrapper, \
                or let its encode(to:) encode the Date itself (`var container = encoder.singleValueContainer(); try \
                container.encode(wrappedValue)`).
                """)
        } else if let stored = stored, typeDescription(of: stored).hasPrefix("Date") {
            sentences.append("Your `timestamp` property is a Date, so your own encoding (CodingKeys or `encode(to:)`) writes something else under \"timestamp\": encode the Date itself, as Swift's own Codable does.")
        } else if let stored = stored {
            sentences.append("Your `timestamp` property is declared \(typeDescription(of: stored)): declare it a `Date` and store the parameter unchanged. \(since2001).")
        } else {
            sentences.append("Store the message's date in a `Date` property named `timestamp`: \(since2001).")
        }
        return sentences.joined(separator: " ")
    }

    /// Nil when `value` (what the learner's model encoded for a timestamp) is `date` as JSONEncoder writes a Date:
    /// seconds since 1 January 2001. Otherwise sentences naming what was checked: the number written, and what the
    /// `timestamp` property (read through Mirror: `stored`) is declared as and holds.
    static func timestampProblem(_ value: JSONValue, for date: Date, stored: Any?, model: String) -> String? {
        let expected = date.timeIntervalSinceReferenceDate
        let here = expected == sampleSeconds ? since2001
            : "JSONEncoder writes a Date as seconds since 1 January 2001 (\(JSONValue.number(expected).description) for this date)"
        let storedDate = stored.flatMap(unwrap) as? Date
        let isDate = stored.map { typeDescription(of: $0).hasPrefix("Date") } ?? false
        let declaration = stored.map { isDate ? "" : " Your `timestamp` property is declared \(typeDescription(of: $0)): declare it a `Date`." } ?? ""
        switch value {
        case .null:
            return "\(model) encodes no \"timestamp\" at all.\(declaration) \(here)."
        case .number(let number):
            if abs(number - expected) < 0.001 { return nil }
            if let storedDate = storedDate, abs(storedDate.timeIntervalSince(date)) > 0.001 {
                let zone = timeZoneNote(storedDate, date)
                let now = !zone.isEmpty ? zone : abs(storedDate.timeIntervalSinceNow) < 60 ? ": that is now, the time the message was made" : ""
                return """
                    \(model) encodes "timestamp" as \(value.description), not the date passed to the initialiser \
                    (\(JSONValue.number(expected).description) seconds since 2001): your `timestamp` property holds \
                    \(show(storedDate))\(now). \(zone.isEmpty ? "Store the `timestamp` parameter; its default, `Date()`, is already in the signature and applies only when the caller leaves the timestamp out." : "Store the `timestamp` parameter unchanged.")
                    """
            }
            let converted = isDate ? " Your `timestamp` property holds the right Date, so your own encoding converts it: encode the Date itself." : declaration
            if abs(number - date.timeIntervalSince1970) < 1 {
                return "\(model) encodes \"timestamp\" as \(value.description), the seconds since 1970 (timeIntervalSince1970), but \(here).\(converted)"
            }
            if abs(number - date.timeIntervalSince1970 * 1000) < 1000 {
                return "\(model) encodes \"timestamp\" as \(value.description), milliseconds since 1970 (Firebase's server timestamps count that way), but \(here).\(converted)"
            }
            return "\(model) encodes \"timestamp\" as \(value.description), but \(here).\(converted)"
        default:
            let converted = isDate
                ? " Your `timestamp` property holds the Date, so your own encoding turns it into \(kind(value) == "the string" ? "text" : kind(value)): encode the Date itself."
                : declaration
            return "\(model) encodes \"timestamp\" as \(kind(value)) \(value.description), but \(here).\(converted)"
        }
    }
}
