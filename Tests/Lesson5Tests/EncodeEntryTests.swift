import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.2: `Entry.encode(to:)` writes an entry as the JSON object the journal database holds.
/// The tests run from the most basic behaviour to the most specific: fix the first failure first.
final class EncodeEntryTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.encode
    static let keys: Set = ["title", "bodyText", "timestamp", "identifier", "mood"]

    /// A recorded entry with unicode in its text, as an `Entry` in the test's store.
    func sample() throws -> (entry: Entry, record: EntryStore.Record) {
        let record = try Self.records(in: try Self.journal()).first { $0.title == "雨の日" }!
        return (insert(record), record)
    }

    /// The entry encoded by a plain JSONEncoder through the learner's `encode(to:)`, as a JSON object.
    func encoded(_ entry: Entry, file: StaticString = #filePath, line: UInt = #line) throws -> [String: JSONValue] {
        let data: Data
        do {
            data = try JSONEncoder().encode(entry)
        } catch {
            throw fail("encode(to:) threw \(oneLine(error)); it should write the entry's five keys and never throw for an entry. See LESSONS.md §5.2.", file: file, line: line)
        }
        guard let json = try? JSONValue(data: data), let object = json.objectValue else {
            throw fail("""
                encode(to:) wrote \(String(decoding: data, as: UTF8.self)), not a JSON object. An entry is an object \
                with five keys: encode through `encoder.container(keyedBy: CodingKeys.self)`. See LESSONS.md §5.2.
                """, file: file, line: line)
        }
        return object
    }

    func test_encode_writesExactlyTheFiveKeysOfTheJournal() throws {
        let object = try encoded(try sample().entry)
        let keys = Set(object.keys)
        guard keys != Self.keys else { return }
        let missing = Self.keys.subtracting(keys).sorted(), extra = keys.subtracting(Self.keys).sorted()
        var why = ""
        if let twin = extra.first(where: { key in missing.contains { $0.lowercased() == key.lowercased() } }) {
            why = " \"\(twin)\" differs from the journal's key only in capitals, and JSON keys are case-sensitive: the server would store it under a new key, and nobody could decode it back. A CodingKeys case's raw value is the key, letter for letter."
        }
        XCTFail("""
            encode(to:) wrote the keys \(keys.sorted()); an entry in the journal has exactly \(Self.keys.sorted()).\
            \(missing.isEmpty ? "" : " Missing: \(missing).")\(extra.isEmpty ? "" : " Not expected: \(extra).")\(why) \
            Encode each property once, for its own key. See LESSONS.md §5.2.
            """)
    }

    func test_encode_eachTextKeyHoldsItsOwnProperty() throws {
        let (entry, record) = try sample()
        let object = try encoded(entry)
        let expected = Self.json(of: record)
        for key in ["title", "bodyText", "identifier", "mood"] where object[key] != nil && object[key] != expected[key] {
            let holder = ["title", "bodyText", "identifier", "mood"].first { expected[$0] == object[key] }
            XCTFail("""
                encode(to:) wrote "\(key)": \(object[key]!.description); the entry's \(key) is \(expected[key].description)\
                \(holder.map { " — that is the entry's `\($0)`: two keys are swapped or copied" } ?? "")\
                \(key == "mood" && object[key]?.numberValue != nil ? " — a number, the mood's place in Entry.moods (a picker's segment), where the journal holds the mood itself, the emoji string: every other copy of the app reads the mood as it is" : ""). \
                Encode each property for its own key. See LESSONS.md §5.2.
                """)
        }
        // An identifier in lower case (the journal's Android app writes its UUIDs so) is written as it is, too.
        let phone = try encoded(insert(Self.lowerCaseIdentifier))
        guard let identifier = phone["identifier"], object["identifier"] == expected["identifier"] else { return }
        XCTAssertEqual(identifier, JSONValue.string(Self.lowerCaseIdentifier.identifier), """
            encode(to:) wrote "identifier": \(identifier.description) for an entry whose identifier is \
            \(Self.lowerCaseIdentifier.identifier), in lower case (as the journal's Android app writes UUIDs). Write \
            the identifier as it is, the String: it is the entry's key, and keys are case-sensitive — a \
            UUID(uuidString:), which JSONEncoder writes as its uuidString, in capitals, or an .uppercased(), makes it \
            another key's. See LESSONS.md §5.2.
            """)
    }

    func test_encode_anEmptyBodyText_isStillWritten() throws {
        // An entry with a title only: its text is the empty string, a value like any other. (What the key holds is
        // test_encode_eachTextKeyHoldsItsOwnProperty's: this one checks that the key is there.)
        let record = EntryStore.Record(title: "Just a title", bodyText: "", timestamp: Date(timeIntervalSinceReferenceDate: 5.84113950125E8),
                                       identifier: "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9", mood: "🙂")
        let object = try encoded(insert(record))
        XCTAssertTrue(object["bodyText"] != nil && object["bodyText"] != JSONValue.null, """
            encode(to:) \(object["bodyText"] == nil ? "left the key \"bodyText\" out" : "wrote \"bodyText\": null") for \
            an entry whose bodyText is empty (""): it wrote the keys \(object.keys.sorted()). An empty text is a value \
            like any other: write "bodyText": "" — every entry in the journal has the five keys, and one without \
            bodyText does not decode back (`encodeIfPresent` of nil, or an `if !bodyText.isEmpty`, leaves it out). \
            See LESSONS.md §5.2.
            """)
    }

    func test_encode_anEmptyTitle_isWrittenAsItIs() throws {
        // An entry with a text only: its title is the empty string, a value like any other.
        let object = try encoded(insert(Self.untitled))
        guard let title = object["title"] else { return }  // a key left out: test_encode_writesExactlyTheFiveKeysOfTheJournal
        XCTAssertEqual(title, JSONValue.string(""), """
            encode(to:) wrote "title": \(title.description) for an entry whose title is empty (""), written with a text \
            only. Write the entry's own values as they are: a placeholder ("Untitled", what the list may show for it) \
            is a title the user never wrote, which the server then holds and every other copy of the app shows. The \
            empty title is the empty string, "title": "". See LESSONS.md §5.2.
            """)
    }

    func test_encode_textWithItsWhitespace_isWrittenAsItIs() throws {
        // A text view leaves the text as typed: a newline at the end, a space before it.
        let record = Self.typed
        let object = try encoded(insert(record))
        let (title, bodyText) = (object["title"]?.stringValue, object["bodyText"]?.stringValue)
        guard let writtenTitle = title, let writtenText = bodyText else { return }  // the other tests say why
        XCTAssertTrue(writtenTitle == record.title && writtenText == record.bodyText, """
            The entry's title is \(String(reflecting: record.title)) and its bodyText ends with a newline, \
            \(String(reflecting: String(record.bodyText.suffix(8)))) at its end; encode(to:) wrote "title": \
            \(String(reflecting: writtenTitle)) and a bodyText that ends \(String(reflecting: String(writtenText.suffix(8)))). \
            Write each value as it is: trimming whitespace and newlines changes what the user wrote, the server then \
            holds another text, and the next sync finds the entry changed. See LESSONS.md §5.2.
            """)
    }

    /// Whether `number`, written for `seconds`, is that timestamp gone through a Float. For the sample a Float and a
    /// whole second can write the same number, so an entry whose Float differs from its whole second tells them apart.
    func writesAFloat(_ number: Double, for seconds: Double) throws -> Bool {
        func asFloat(_ value: Double) -> [Double] {
            [Double(Float(value)), Double(String(describing: Float(value))) ?? .nan]
        }
        guard asFloat(seconds).contains(number) else { return false }
        let probe = 584_113_987.654  // as a Float 584113984 (or 5.84114e+08); whole seconds 584113987
        let entry = Entry(title: "probe", bodyText: "", timestamp: Date(timeIntervalSinceReferenceDate: probe),
                          identifier: "probe", store: EntryStore())
        let written = try encoded(entry)["timestamp"]?.numberValue
        return written.map { asFloat(probe).contains($0) } ?? false
    }

    func test_encode_timestampIsSecondsSince2001AsJSONEncoderWritesADate() throws {
        let (entry, record) = try sample()
        let object = try encoded(entry)
        guard let written = object["timestamp"] else {
            throw fail("setup: encode(to:) wrote no \"timestamp\" key; test_encode_writesExactlyTheFiveKeysOfTheJournal says what is wrong.")
        }
        let seconds = record.timestamp.timeIntervalSinceReferenceDate
        guard let number = written.numberValue else {
            throw fail("""
                encode(to:) wrote "timestamp": \(written.description), not a number. The journal holds seconds since \
                1 January 2001 (\(seconds)), which is what JSONEncoder writes for a Date by default: encode the Date \
                itself, not a formatted string. See LESSONS.md §5.2.
                """)
        }
        if abs(number - record.timestamp.timeIntervalSince1970) < 0.001 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), seconds since 1970; the journal holds seconds since 1 January \
                2001 (\(seconds)), what JSONEncoder writes for a Date by default. Encode the Date itself \
                (or `timeIntervalSinceReferenceDate`). See LESSONS.md §5.2.
                """)
        }
        if abs(number - record.timestamp.timeIntervalSinceNow) < 3_600 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), the seconds from now to the entry's timestamp \
                (timeIntervalSinceNow, negative for the past), a number that changes every second; the journal holds \
                seconds since 1 January 2001 (\(seconds)), what JSONEncoder writes for a Date by default. Encode the Date \
                itself. See LESSONS.md §5.2.
                """)
        }
        if abs(number - Date().timeIntervalSinceReferenceDate) < 3_600 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), the moment it ran (Date(), now); the entry's timestamp is \
                \(seconds) seconds since 1 January 2001, when the entry was written. Encode the entry's own \
                `timestamp`: a PUT of an old entry would otherwise stamp it with the time it was sent. See LESSONS.md §5.2.
                """)
        }
        if abs(number - record.timestamp.timeIntervalSince1970 * 1000) < 1 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), milliseconds since 1970 (JavaScript's unit, and that of \
                Firebase's server timestamps); the journal holds seconds since 1 January 2001 (\(seconds)), what \
                JSONEncoder writes for a Date by default. Encode the Date itself. See LESSONS.md §5.2.
                """)
        }
        if abs(number - seconds * 1000) < 1 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), milliseconds since 1 January 2001 (a thousand times the \
                seconds); the journal holds seconds since 1 January 2001 (\(seconds)), what JSONEncoder writes for a Date \
                by default — every other copy of the app would read a date some 18,000 years away. Encode the Date \
                itself. See LESSONS.md §5.2.
                """)
        }
        if abs(number - seconds) >= 0.000_001, try writesAFloat(number, for: seconds) {
            throw fail("""
                encode(to:) wrote "timestamp": \(number) for the entry's \(seconds) seconds since 1 January 2001: the \
                number went through a Float, which keeps about 7 digits (Float(timeIntervalSinceReferenceDate)), so the \
                journal's timestamp is another moment. Encode the Date itself (or the Double \
                `timeIntervalSinceReferenceDate`). See LESSONS.md §5.2.
                """)
        }
        if abs(number - seconds) >= 0.000_001, number == number.rounded(), abs(number - seconds) < 1 {
            throw fail("""
                encode(to:) wrote "timestamp": \(number), whole seconds since 1 January 2001; the entry's timestamp is \
                \(seconds), with its fraction of a second. An `Int(…)` (or rounding) of `timeIntervalSinceReferenceDate` \
                drops it, and the journal's timestamp is then another value: encode the Date itself (or the Double \
                `timeIntervalSinceReferenceDate`). See LESSONS.md §5.2.
                """)
        }
        XCTAssertEqual(number, seconds, accuracy: 0.000_001, """
            encode(to:) wrote "timestamp": \(number); the entry's timestamp is \(seconds) seconds since 1 January 2001. \
            Encode the Date itself. See LESSONS.md §5.2.
            """)
    }
}
