import Foundation
import XCTest
import LabTestSupport
import Lesson10

/// Exercise 10.2: `Message.inOrder(_:)` — the JSON object of a page (no order) as a list: oldest first by
/// timestamp, equal timestamps by key.
final class MessageOrderTests: Lesson10TestCase {
    let exercise = Lesson10TestCase.order

    static func body(_ text: String, _ timestamp: Int) -> Message.Body {
        Message.Body(sender: "Ana", text: text, timestamp: timestamp)
    }

    /// Keys not in time order: each client stamps its message with its own clock.
    static let skewed: [String: Message.Body] = [
        "-P5Q0aaaaaaaaaaaaaaa": body("3", 1_793_610_000_300),
        "-P5Q0bbbbbbbbbbbbbbb": body("1", 1_793_610_000_100),
        "-P5Q0ccccccccccccccc": body("8", 1_793_610_009_000),
        "-P5Q0ddddddddddddddd": body("2", 1_793_610_000_200),
        "-P5Q0eeeeeeeeeeeeeee": body("6", 1_793_610_006_000),
        "-P5Q0fffffffffffffff": body("4", 1_793_610_000_400),
        "-P5Q0ggggggggggggggg": body("7", 1_793_610_007_000),
        "-P5Q0hhhhhhhhhhhhhhh": body("5", 1_793_610_005_000),
    ]

    func inOrder(_ page: [String: Message.Body], file: StaticString = #filePath, line: UInt = #line) throws -> [Message] {
        let result = Message.inOrder(page)
        try stopIfAStubRan(file: file, line: line)
        return result
    }

    func test_inOrder_keepsEveryMessageWithItsKey() throws {
        let list = try inOrder(Self.skewed)
        XCTAssertEqual(Set(list.map(\.key)), Set(Self.skewed.keys), """
            \(exercise.function) gave the keys \(list.map(\.key)); expected each of the page's \(Self.skewed.count) \
            keys once, with its message (Message(key:body:)). See \(exercise.reference).
            """)
        for message in list where Self.skewed[message.key].map({ Message(key: message.key, body: $0) }) != message {
            return XCTFail("\(exercise.function) gave \(message) under the key \(message.key), which holds another message. See \(exercise.reference).")
        }
    }

    /// Keys backwards in time: the older a message, the later its key (its writer's clock ran ahead). A comparison
    /// with `||` (`a.timestamp < b.timestamp || a.key < b.key`) says "before" of every two of these messages both
    /// ways, so a sort with it gives them in no order — wrong in all but 1 run of 40 320 (the dictionary's order).
    static let backwards: [String: Message.Body] = Dictionary(uniqueKeysWithValues: zip("hgfedcba", 1...8).map { letter, n in
        ("-P5Q1" + String(repeating: letter, count: 15), body("\(n)", 1_793_610_000_000 + 100 * n))
    })

    func test_inOrder_oldestFirst_byTimestamp_notByKey() throws {
        let inTime = (1...8).map(String.init)
        // The skewed page in key order may come from a sort by key, or by chance from a comparison joined by `||` or
        // `&&` (the dictionary's order decides): the backwards page tells them apart, where a sort by key gives 8 to 1.
        var inKeyOrder = false
        for page in [Self.skewed, Self.backwards] {
            let texts = try inOrder(page).map(\.text)
            if page == Self.skewed && texts == ["3", "1", "8", "2", "6", "4", "7", "5"] { inKeyOrder = true; continue }
            if inKeyOrder && (texts == inTime.reversed() || texts == inTime) {
                return XCTFail("""
                    \(exercise.function) ordered the messages by key; expected oldest first by timestamp (keys come from \
                    each client's clock). See \(exercise.reference).
                    """)
            }
            if texts == inTime { continue }
            // The same page, in the dictionary's order, sorted with each comparator that is no order: the same wrong
            // list as the learner's, for the same dictionary (unless the sort left the dictionary's order as it was).
            let asGiven = page.map { Message(key: $0.key, body: $0.value) }
            let dictionaryOrder = asGiven.map(\.text)
            let withAnd = asGiven.sorted { $0.timestamp <= $1.timestamp && $0.key < $1.key }.map(\.text)
            if texts == withAnd && texts != dictionaryOrder {
                return XCTFail("""
                    \(exercise.function) gave the messages in the order \(texts.joined(separator: " ")); expected oldest \
                    first by timestamp, 1 to 8. See \(exercise.reference).
                    Your comparison asks for the earlier timestamp AND the smaller key (`&&`): of two messages whose keys \
                    are not in time order, neither comes first, so they stay where the dictionary put them. Compare the \
                    keys only when the timestamps are equal — `(a.timestamp, a.key) < (b.timestamp, b.key)`.
                    """)
            }
            let withOr = asGiven.sorted { $0.timestamp < $1.timestamp || $0.key < $1.key }.map(\.text)
            let or = texts == withOr && texts != dictionaryOrder ? """

                Your comparison lets the key decide although the timestamps differ (`a.timestamp < b.timestamp || \
                a.key < b.key`): compare the keys only when the timestamps are equal — \
                `(a.timestamp, a.key) < (b.timestamp, b.key)`.
                """ : ""
            let which = page == Self.skewed ? "" : " (keys backwards in time: the older a message, the later its key)"
            return XCTFail("""
                \(exercise.function) gave the messages\(which) in the order \(texts.joined(separator: " ")); expected oldest \
                first by timestamp, 1 to 8. See \(exercise.reference).\(or)
                """)
        }
    }

    /// The last characters of 8 push IDs written in one millisecond, in Firebase's key order: character by character,
    /// as their codes compare (`-` < digits < `A`…`Z` < `_` < `a`…`z`, the push-ID alphabet's own order) — not a
    /// case-insensitive or "natural" order.
    static let tiedKeyEnds = ["-", "7", "A", "Z", "_", "a", "k", "z"]

    /// The tied messages' senders and texts, in orders of their own (neither the keys' nor each other's): a tie
    /// broken by the sender or the text before the key is seen, since Firebase's query looked at the key alone.
    static let tiedSenders = ["Dana", "Gus", "Ana", "Fay", "Chen", "Hana", "Ben", "Eli"]
    static let tiedTexts = ["tied 6", "tied 3", "tied 8", "tied 1", "tied 5", "tied 2", "tied 7", "tied 4"]

    func test_inOrder_equalTimestamps_goByKey() throws {
        let keys = Self.tiedKeyEnds.map { "-P5QdiIlZv_zWnsfgYx\($0)" }
        var page = Dictionary(uniqueKeysWithValues: keys.enumerated().map { n, key in
            (key, Message.Body(sender: Self.tiedSenders[n], text: Self.tiedTexts[n], timestamp: 1_793_612_768_497))
        })
        // The later messages' keys are after the tied ones (keys in time order here): only the tie is judged. Four of
        // them, each of its own timestamp, so that a list whose timestamps come in the dictionary's order is wrong
        // here every run (but 1 in 120), not every other run.
        let later = (0..<4).map { "-P5QdiIlZv_zWnsfgYy\($0)" }
        for (n, key) in later.enumerated() { page[key] = Self.body("later", 1_793_612_768_498 + n) }
        let list = try inOrder(page)
        if Set(list.map(\.key)) != Set(page.keys) {
            return XCTFail("""
                \(exercise.function) gave \(list.count) messages for a page of \(page.count), 8 of them with one timestamp: \
                messages were lost or doubled where timestamps tie. See \(exercise.reference).
                Keep one Message per key of the page (a dictionary keyed by timestamp keeps one message per timestamp).
                """)
        }
        XCTAssertEqual(list.map(\.key), keys + later, """
            \(exercise.function): 8 messages with one timestamp came out as \(list.prefix(8).map { String($0.key.suffix(1)) }.joined(separator: " ")); \
            Firebase orders a tie by key, code by code: - 7 A Z _ a k z (Swift's < on the keys). See \(exercise.reference).\
            \(Self.finderOrderNote(list.prefix(8).map(\.key)))\(Self.otherFieldNote(Array(list.prefix(8))))
            """)
    }

    /// For a tie that came out in the order of its senders or of its texts: a sentence naming it ("" otherwise).
    static func otherFieldNote(_ tie: [Message]) -> String {
        let keys = tie.map(\.key)
        guard tie.count > 1, keys != keys.sorted() else { return "" }
        let field = keys == tie.sorted(by: { $0.sender < $1.sender }).map(\.key) ? "senders"
            : keys == tie.sorted(by: { $0.text < $1.text }).map(\.key) ? "texts" : nil
        guard let field else { return "" }
        return """

            That is the order of their \(field): a tie goes by the key alone, as Firebase's query ordered it (so that the \
            pages fit together), with nothing compared between the timestamp and the key — \
            (a.timestamp, a.key) < (b.timestamp, b.key). See LESSONS.md §10.2.
            """
    }

    /// Digits in a key are characters like the others: "…Y10" < "…Y2a" < "…Y9z", code by code ("1" < "2" < "9"). A
    /// numeric or "natural" comparison (`compare(_:options: .numeric)`) reads 2, 9 and 10 as numbers instead. Eight
    /// keys, so that a tie left in the dictionary's order is wrong here every run (but 1 in 40 320), not 5 runs in 6.
    func test_inOrder_equalTimestamps_digitsInKeysComparedByCode() throws {
        let ends = ["10", "2a", "9z", "A0", "Z9", "_1", "a2", "z3"]
        let keys = ends.map { "-P5QdiIlZv_zWnsfgY\($0)" }
        let page = Dictionary(uniqueKeysWithValues: keys.map { ($0, Self.body("tied", 1_793_612_768_497)) })
        let list = try inOrder(page)
        XCTAssertEqual(list.map(\.key), keys, """
            \(exercise.function): 8 messages with one timestamp, keys ending in \(ends.joined(separator: " ")), came out \
            as \(list.map { String($0.key.suffix(2)) }.joined(separator: " ")); Firebase compares keys code by code, digits \
            too ("1" < "2" < "9"): 10 2a 9z … — Swift's < on the keys, not a numeric or "natural" comparison \
            (compare(_:options: .numeric), localizedStandardCompare). See \(exercise.reference).
            """)
    }

    func test_inOrder_emptyPage_isEmpty() throws {
        XCTAssertEqual(try inOrder([:]), [], "\(exercise.function) of an empty page should be []. See \(exercise.reference).")
    }
}
