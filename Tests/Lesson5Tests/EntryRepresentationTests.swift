import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.5: `EntryRepresentation` decodes an entry of the journal, and `==`/`!=` compare it with an `Entry`,
/// value by value, in both orders.
final class EntryRepresentationTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.representation

    func recorded() throws -> EntryStore.Record {
        try Self.records(in: try Self.journal()).first { $0.identifier == Self.changedID }!
    }

    func test_representation_decodesEveryEntryOfTheJournal() throws {
        for json in (try Self.journal().objectValue ?? [:]).values.sorted(by: { $0.description < $1.description }) {
            _ = try representation(of: json)
        }
    }

    func test_representation_decodesTheWholeJournalAsADictionaryKeyedByIdentifier() throws {
        let data = try Self.journal().jsonData
        do {
            let decoded = try JSONDecoder().decode([String: EntryRepresentation].self, from: data)
            XCTAssertEqual(decoded.count, 6, "The journal has 6 entries; [String: EntryRepresentation] decoded \(decoded.count). See LESSONS.md §5.5.")
        } catch {
            throw fail("JSONDecoder could not decode the journal export as [String: EntryRepresentation]: \(oneLine(error)). See LESSONS.md §5.5.")
        }
    }

    func test_representation_decodesAMoodTheAppDoesNotOffer() throws {
        let json = Self.json(of: Self.otherMood)
        let mood = Self.spelled(Self.otherMood.mood)
        let decoded: EntryRepresentation
        do {
            decoded = try JSONDecoder().decode(EntryRepresentation.self, from: json.jsonData)
        } catch {
            throw fail("""
                JSONDecoder could not decode an entry whose mood is \(mood), one this app does not offer (Entry.moods: \
                \(Entry.moods.joined(separator: " "))) — another version of the app wrote it: \(oneLine(error)). A \
                representation keeps the server's values as they are, and the mood is whatever string the server holds: \
                declare it a String, not an enum of the app's moods. (Refused here, one such entry makes the whole \
                journal fail to decode, and no sync succeeds again.) See LESSONS.md §5.5.
                """)
        }
        XCTAssertTrue(Self.holds(Self.otherMood.mood, in: decoded), """
            EntryRepresentation decoded the entry \(json.description), but none of its values is the mood \(mood): \
            \(String(reflecting: decoded)). Keep the mood as the server holds it, also one the app does not offer \
            (a default in its place is a change the sync would copy into the store)\(Self.holdsAnAppMood(decoded) ? """
            . A property holds one of the app's moods instead: a `let` with an initial value (`let mood = "😐"`) is \
            never decoded — the compiler's Decodable skips it; declare `let mood: String` with no value
            """ : ""). See LESSONS.md §5.5.
            """)
    }

    /// What is wrong with the values `representation` holds, decoded from `record`'s JSON, when something visibly
    /// is: a property named as a key that holds another key's value (swapped in init(from:) or CodingKeys), or a
    /// timestamp read as seconds since 1970. nil when nothing can be told (its properties are the learner's to name).
    static func decodedProblem(_ representation: EntryRepresentation, of record: EntryStore.Record) -> String? {
        let texts: [(key: String, value: String)] = [("title", record.title), ("bodyText", record.bodyText),
                                                     ("identifier", record.identifier), ("mood", record.mood)]
        let children = Mirror(reflecting: representation).children.compactMap { child in
            child.label.map { (label: $0, value: unwrapped(child.value)) }
        }
        for child in children {
            guard let text = child.value as? String, let own = texts.first(where: { $0.key == child.label }),
                  text != own.value, let other = texts.first(where: { $0.value == text }) else { continue }
            return """
                its `\(child.label)` holds the entry's \(other.key) ("\(text.prefix(40))"), not its \(own.key) \
                ("\(own.value.prefix(40))"). Decode each property from its own key (your init(from:) or CodingKeys).
                """
        }
        let years = Date.timeIntervalBetween1970AndReferenceDate
        let seconds = record.timestamp.timeIntervalSinceReferenceDate
        if let float = children.first(where: { $0.value is Float }), let value = float.value as? Float {
            return """
                its `\(float.label)` is a Float, \(Double(value)) for the entry's \(seconds): a Float keeps about 7 \
                digits, so the timestamp (seconds since 2001, with a fraction) comes back another moment, and no entry \
                equals its own representation. Declare the timestamp `Date` (or Double, a TimeInterval).
                """
        }
        for child in children {
            let held = (child.value as? Date)?.timeIntervalSinceReferenceDate ?? (child.value as? Double).map { $0 - years }
            guard let held = held, abs(held + years - seconds) < 0.001 else { continue }
            return """
                its `\(child.label)` is \(Date(timeIntervalSinceReferenceDate: held)), 31 years before the entry's \
                \(record.timestamp): the journal's \(seconds) is seconds since 1 January 2001, and it was read as \
                seconds since 1970 (Date(timeIntervalSince1970:)). Declare the timestamp `Date` and let JSONDecoder \
                read it, or use Date(timeIntervalSinceReferenceDate:).
                """
        }
        return nil
    }

    /// `value` without its Optional wrapping (nil stays an empty Optional).
    static func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional, let inner = mirror.children.first else { return value }
        return unwrapped(inner.value)
    }

    /// Whether one of `value`'s String properties is one of the app's own moods (`Entry.moods`): a default that
    /// took the decoded mood's place (an enum's fallback case is not this).
    static func holdsAnAppMood(_ value: Any) -> Bool {
        Mirror(reflecting: value).children.contains { child in
            (unwrapped(child.value) as? String).map(Entry.moods.contains) ?? false
        }
    }

    /// Whether `value`, or a value inside it (an optional, an enum's payload), is the string `text`.
    static func holds(_ text: String, in value: Any) -> Bool {
        if let string = value as? String { return string == text }
        if let raw = (value as? any RawRepresentable)?.rawValue as? String, raw == text { return true }
        return Mirror(reflecting: value).children.contains { holds(text, in: $0.value) }
    }

    func test_equal_anEntryWithTheSameValuesEqualsItsRepresentationInBothOrders() throws {
        let record = try recorded()
        let representation = try representation(of: record, setup: "comparing")
        let entry = insert(record)
        if !(entry == representation), let problem = Self.decodedProblem(representation, of: record) {
            throw fail("""
                An entry and the representation decoded from the same JSON (\(Self.json(of: record).description)) \
                should be `==`, and are not, because the representation does not hold the entry's values: \(problem) \
                See LESSONS.md §5.5.
                """)
        }
        XCTAssertTrue(entry == representation, """
            An entry and the representation decoded from the same JSON (\(Self.json(of: record).description)) have \
            the same values, but `entry == representation` is false. Compare title, bodyText, timestamp, identifier \
            and mood, each with its own. See LESSONS.md §5.5.
            """)
        XCTAssertTrue(representation == entry, """
            `entry == representation` and `representation == entry` must say the same: the second is false for an \
            entry with the representation's values. Write `==` for both orders (one may call the other). See LESSONS.md §5.5.
            """)
    }

    /// An entry the journal's Android app wrote: its identifier in lower case is a key like any other, and the
    /// representation keeps it as the server holds it.
    func test_equal_anEntryWithALowerCaseIdentifier_equalsItsRepresentation() throws {
        let record = Self.lowerCaseIdentifier
        let representation = try representation(of: record, setup: "comparing")
        let entry = insert(record)
        XCTAssertTrue(entry == representation && representation == entry, """
            An entry the journal's Android app wrote, its identifier in lower case (\(record.identifier)), and the \
            representation decoded from its JSON have the same values, but `==` says they differ. The identifier is a \
            key: keep it as the server holds it, a String, letter for letter. A `UUID` property (or a round trip \
            through `UUID(uuidString:)`) gives it back in capitals, as its `uuidString` — another key, under which the \
            sync would create the entry, and which put and delete would address. See LESSONS.md §5.5.
            """)
    }

    func test_notEqual_isTheOppositeOfEqualInBothOrders() throws {
        let record = try recorded()
        let representation = try representation(of: record, setup: "comparing")
        let same = insert(record)
        let other = insert(EntryStore.Record(title: record.title, bodyText: record.bodyText, timestamp: record.timestamp,
                                             identifier: record.identifier, mood: "🙂"))
        for (entry, equal, what) in [(same, true, "an entry with the same values"), (other, false, "an entry with another mood")] {
            checkOpposite(equal: entry == representation, notEqual: entry != representation, shouldBeEqual: equal,
                          order: "entry", what: what)
            checkOpposite(equal: representation == entry, notEqual: representation != entry, shouldBeEqual: equal,
                          order: "representation", what: what)
        }
    }

    /// Fails when `!=` and `==` disagree, naming the one that is wrong (the values say which). When they agree, the
    /// tests of `==` judge whether both are right.
    func checkOpposite(equal: Bool, notEqual: Bool, shouldBeEqual: Bool, order: String, what: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        guard notEqual == equal else { return }
        let (lhs, rhs) = order == "entry" ? ("entry", "representation") : ("representation", "entry")
        if equal != shouldBeEqual {
            XCTFail("""
                For \(what), `\(lhs) == \(rhs)` is \(equal), which is wrong, while `\(lhs) != \(rhs)` is right \
                (\(notEqual)). Compare every value in `==`, in both orders (the second order may call the first). \
                See LESSONS.md §5.5.
                """, file: file, line: line)
        } else {
            XCTFail("""
                For \(what), `\(lhs) != \(rhs)` is \(notEqual) and `\(lhs) == \(rhs)` is \(equal): `!=` must be \
                the opposite of `==`. See LESSONS.md §5.5.
                """, file: file, line: line)
        }
    }

    /// Checks that an entry differing from the representation only in `field` is not equal to it, in both orders.
    func checkNotEqual(differingIn field: String, _ change: (Entry) -> Void,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let record = try recorded()
        let representation = try representation(of: record, setup: "comparing", file: file, line: line)
        let entry = insert(record)
        change(entry)
        let sync = "the sync would think the server's entry unchanged and never update it"
        if entry == representation {
            // An entry that shares only the title with the representation: equal only when one equal value suffices.
            let probe = insert(EntryStore.Record(title: record.title, bodyText: record.bodyText + " (another text)",
                                                 timestamp: record.timestamp.addingTimeInterval(86_400),
                                                 identifier: "22222222-3333-4444-8555-666666666666", mood: "🤔"))
            defer { store.delete(probe) }
            if probe == representation {
                throw fail("""
                    `==` is true for an entry that has only the representation's title and differs in every other value: \
                    one equal value is enough for your `==`. The values are joined with `||`; join them with `&&` — \
                    equal means title and bodyText and timestamp and identifier and mood are all equal. See LESSONS.md §5.5.
                    """, file: file, line: line)
            }
        }
        XCTAssertFalse(entry == representation, """
            An entry whose \(field) differs from the representation's (\(Self.describe([entry.record])) against the \
            server's \(Self.describe([record]))) is `==` to it: \(sync). Compare the \(field) too. See LESSONS.md §5.5.
            """, file: file, line: line)
        XCTAssertFalse(representation == entry, """
            `representation == entry` is true for an entry whose \(field) differs (`entry == representation` is \
            \(entry == representation)): \(sync). Compare the \(field) in both orders. See LESSONS.md §5.5.
            """, file: file, line: line)
    }

    func test_equal_anotherMood_isNotEqual() throws {
        try checkNotEqual(differingIn: "mood") { $0.mood = "😐" }
    }

    func test_equal_anotherTitle_isNotEqual() throws {
        try checkNotEqual(differingIn: "title") { $0.title = "雨の日 (edited)" }
        // A title whose capitals changed ("rain all day" → "Rain all day") is another title all the same.
        let recorded = try recorded()
        let server = EntryStore.Record(title: "rain all day", bodyText: recorded.bodyText, timestamp: recorded.timestamp,
                                       identifier: recorded.identifier, mood: recorded.mood)
        let representation = try representation(of: server, setup: "comparing")
        let capitalised = insert(server)
        capitalised.title = "Rain all day"
        let edited = insert(server)
        edited.title = "雨の日 (edited)"
        guard !(edited == representation), !(representation == edited) else { return }  // reported above
        if capitalised == representation || representation == capitalised {
            XCTFail("""
                An entry whose title differs from the representation's only in its capitals ("\(capitalised.title)" \
                against "\(server.title)") is `==` to it, though another title is not: your `==` ignores case \
                (caseInsensitiveCompare, lowercased(), localizedCaseInsensitiveContains). The app shows the title as it \
                is written, and the sync would never copy the server's new capitals: compare the strings themselves \
                (`lhs.title == rhs.title`). See LESSONS.md §5.5.
                """)
        }
    }

    func test_equal_anotherBodyText_isNotEqual() throws {
        try checkNotEqual(differingIn: "bodyText") { $0.bodyText += " Then it cleared up." }
        // A text that differs only in a newline at its end (a text view leaves one) is another text all the same.
        let record = try recorded()
        let representation = try representation(of: record, setup: "comparing")
        let withNewline = insert(record)
        withNewline.bodyText += "\n"
        let edited = insert(record)
        edited.bodyText += " Then it cleared up."
        guard !(edited == representation), !(representation == edited) else { return }  // reported above
        if withNewline == representation || representation == withNewline {
            XCTFail("""
                An entry whose bodyText differs from the representation's only in a newline at its end is `==` to it, \
                though another text is not: your `==` ignores whitespace (trimmingCharacters(in:)). A newline the user \
                typed or deleted is a change like any other, and the sync would never copy it: compare the strings \
                themselves (`lhs.bodyText == rhs.bodyText`). See LESSONS.md §5.5.
                """)
        }
    }

    func test_equal_anotherTimestamp_isNotEqual() throws {
        try checkNotEqual(differingIn: "timestamp") { $0.timestamp.addTimeInterval(60) }
        // A tenth of a second later, in the same whole second (584113900.789 → .889): another timestamp all the same.
        let record = try recorded()
        let representation = try representation(of: record, setup: "comparing")
        let entry = insert(record)
        entry.timestamp.addTimeInterval(0.1)
        let aMinuteLater = insert(record)
        aMinuteLater.timestamp.addTimeInterval(60)
        guard !(aMinuteLater == representation), !(representation == aMinuteLater) else { return }  // reported above
        if entry == representation || representation == entry {
            XCTFail("""
                An entry whose timestamp is a tenth of a second after the representation's (\
                \(entry.timestamp.timeIntervalSinceReferenceDate) against \(record.timestamp.timeIntervalSinceReferenceDate)) \
                is `==` to it, though a minute's difference is not: your `==` compares timestamps to the whole second \
                (Int(…), a formatted date, rounding). The journal keeps fractions of a second: compare the Dates \
                themselves (`lhs.timestamp == rhs.timestamp`). See LESSONS.md §5.5.
                """)
        }
    }

    func test_equal_anotherIdentifier_isNotEqual() throws {
        try checkNotEqual(differingIn: "identifier") { $0.identifier = "11111111-2222-4333-8444-555555555555" }
    }
}
