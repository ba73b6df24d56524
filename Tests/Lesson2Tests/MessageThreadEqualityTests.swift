import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import LabSupport
import Lesson2

/// Exercise 2.4: `==` for `MessageThread`, written by hand because Swift synthesises Equatable only for structs and enums.
/// Threads are built with your initialiser (§2.3) and hold messages (§2.2): each test first checks ("setup: …") that
/// those keep the values it compares, so that a failure here is about == itself.
final class MessageThreadEqualityTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.equality

    /// Runs this exercise's own function first, so that against the stubs the test reports this exercise's stub
    /// ("not started yet: MessageThread.==…"), not the initialisers' it also runs: those run again in the test and are
    /// recorded then.
    override func setUp() {
        super.setUp()
        let probe = MessageThread(title: "probe", identifier: "probe", messages: [sampleMessage()])
        StubLog.reset()
        _ = probe == probe
    }

    /// Whether this test has checked that Message's == answers the same when asked again (once per test).
    var messageEqualityChecked = false

    /// `==` as generic code calls it: through the Equatable conformance.
    static func equalThroughEquatable<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }

    func thread(title: String = Lesson2TestCase.sampleTitle, identifier: String = Lesson2TestCase.sampleThreadID,
                messages: [MessageThread.Message]? = nil) -> MessageThread {
        MessageThread(title: title, identifier: identifier, messages: messages ?? [sampleMessage()])
    }

    /// Stops the test when the initialiser, not ==, is what makes `lhs` and `rhs` look alike or different: threads built
    /// from the same values must encode alike, threads built from different values must not.
    func requireInitialiserKeeps(_ lhs: MessageThread, _ rhs: MessageThread, sameValues: Bool, _ what: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        if !messageEqualityChecked {
            messageEqualityChecked = true
            try requireSteadyMessageEquality(file: file, line: line)
        }
        // Compared as JSON, a layer written as JSON text too (a §2.3 mistake, named there): its key order is not fixed.
        let left = Self.parsingEmbeddedJSON(try encoded(lhs, exercise, setup: "MessageThread (§2.3)", file: file, line: line))
        let right = Self.parsingEmbeddedJSON(try encoded(rhs, exercise, setup: "MessageThread (§2.3)", file: file, line: line))
        if sameValues && left != right {
            throw fail("""
                setup: \(what) encode differently (\(left.description) and \(right.description)), so no == can find them \
                equal: MessageThread's initialiser or Codable (§2.3) does not keep the values. Make the tests of §2.3 \
                (MessageThreadTests) pass first. See LESSONS.md §2.3.
                """, file: file, line: line)
        }
        if !sameValues && left == right {
            throw fail("""
                setup: two threads built from different values (\(what)) encode the same, \(left.description): \
                MessageThread's initialiser (§2.3) or Message (§2.2) drops the difference, so == cannot see it. Make the \
                tests of §2.2 and §2.3 pass first. See LESSONS.md §2.3.
                """, file: file, line: line)
        }
    }

    /// App code that writes `thread != other` on two MessageThreads calls the thread's own `!=` when it declares one (the
    /// compiler picks it over Equatable's, which is `!(lhs == rhs)`): it must say the opposite of ==. A subclass of
    /// NSObject gets NSObject's != (isEqual(_:)), which the test of Equatable's == names.
    func checkNotEqualAgrees(_ lhs: MessageThread, _ rhs: MessageThread, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard !((lhs as AnyObject) is NSObject) else { return }
        let equal = lhs == rhs, notEqual = lhs != rhs
        guard notEqual == equal else { return }
        XCTFail("""
            For \(what), your == answers \(equal) and your != answers \(notEqual) too: your own `!=` is not the opposite of \
            your ==. Equatable already gives MessageThread a != (`!(lhs == rhs)`): delete yours, or write it as \
            `!(lhs == rhs)` — the opposite of `a && b && c` is `!a || !b || !c`, not `!a && !b && !c` (De Morgan). \
            See LESSONS.md §2.4.
            """, file: file, line: line)
    }

    func test_equality_twoInstancesWithTheSameValues_areEqual() throws {
        let first = thread()
        let second = thread()
        try requireInitialiserKeeps(first, second, sameValues: true, "two threads built from the same title, identifier and messages")
        // The same question asked again must get the same answer (an == on JSONEncoder's bytes answers by luck).
        let selfEqual = try requireSteadyEquality(first, first, "a thread and itself", exercise)
        let twinsEqual = try requireSteadyEquality(first, second, "two threads built from the same values", exercise)
        // A thread whose title is its identifier equals itself when == compares one with the other (a copy-paste slip).
        let named = thread(title: Self.sampleThreadID, identifier: Self.sampleThreadID)
        let crossed = !selfEqual && Self.answers({ named == named }).yes == 48
        XCTAssertTrue(selfEqual, crossed ? """
            A thread is not equal (==) to itself, unless its title and its identifier are the same string (then it is): \
            your == compares the title with the identifier — a copy-paste slip, `lhs.title == lhs.identifier` or \
            `lhs.title == rhs.identifier`? Compare each property of lhs with the same property of rhs: \
            `lhs.title == rhs.title && lhs.identifier == rhs.identifier && lhs.messages == rhs.messages`. See LESSONS.md §2.4.
            """ : """
            A thread is not equal (==) to itself. == should compare title, identifier and messages, which are the same \
            every time you read them. If it compares the threads' JSON (JSONEncoder's bytes), note that JSONEncoder's key \
            order is not fixed (it follows where in memory the encoder's dictionary lands, so it can change from one \
            encoding to the next): one thread can encode to different \
            bytes twice — compare the properties, or encode with `outputFormatting = .sortedKeys`. See LESSONS.md §2.4.
            """)
        if selfEqual && !twinsEqual {
            XCTFail("""
                Two separate MessageThread instances built from the same title, identifier and messages compare unequal \
                (==), while each equals itself: your == tells apart two objects that hold the same values, as `===` (the \
                same object?) does. == must compare their values: a thread decoded from the server is never the object \
                you hold. See LESSONS.md §2.4.
                """)
        }
        XCTAssertTrue(!twinsEqual || second == first, "== is not symmetric: a == b but not b == a. Compare the same properties of lhs and rhs. See LESSONS.md §2.4.")
        // A new thread has no messages (Lesson 1 creates them so): two of them with the same title and identifier are equal.
        let new = thread(messages: []), newTwin = thread(messages: [])
        XCTAssertTrue(new == newTwin, """
            Two threads with no messages and the same title and identifier compare unequal (==), while threads with \
            messages compare as they should: a new thread has no messages, and == must work for it too. See LESSONS.md §2.4.
            """)
        // Hashable promises that equal values hash alike: a Set, or a dictionary keyed by threads, relies on it.
        // The tests cannot name Hashable (the exercise does not ask for it), so they look at run time.
        if twinsEqual, let left = (first as Any) as? AnyHashable, let right = (second as Any) as? AnyHashable,
           left.hashValue != right.hashValue {
            let nsObject = (first as AnyObject) is NSObject
            // A stored property == does not compare, holding something new in every thread (`let id = UUID()`, the
            // SwiftUI tutorials' Identifiable), is what such a hash(into:) usually hashes.
            let extra = Self.extraPropertyProblems(first, second, given: [("title", Self.sampleTitle), ("identifier", Self.sampleThreadID), ("messages", [sampleMessage()])])
            XCTFail("""
                Two threads with the same values are equal (==) but hash differently: your MessageThread is Hashable, \
                and Hashable's one rule is that equal values have equal hashes — a Set<MessageThread> would keep both, \
                and a dictionary keyed by threads would never find a thread by an equal one. \(nsObject
                    ? "MessageThread inherits from NSObject, whose `hash` is the object's identity: override `hash` along with isEqual(_:), from what isEqual compares (the identifier alone will do)."
                    : !extra.isEmpty
                    ? "The two threads differ only in what == does not compare — \(extra.joined(separator: "; ")) — and your hash(into:) hashes it: a stored `id = UUID()` is new in every thread, even in two equal ones (and in every thread decoded). Hash what == compares, or part of it (the identifier alone will do; for Identifiable, `public var id: String { identifier }`)."
                    : "Your hash(into:) hashes something == does not compare (`ObjectIdentifier(self)` is identity): hash what == compares, or part of it (the identifier alone will do).") \
                See LESSONS.md §2.4.
                """)
        }
        // Generic code — `[a] == [b]`, XCTAssertEqual, firstIndex(of:), Lesson 4's arrays of threads — calls == through
        // Equatable, which is not always the `==` the compiler picks for two MessageThread values: a subclass of NSObject
        // gets NSObject's Equatable, which asks isEqual(_:) (identity, unless overridden).
        if twinsEqual && !Self.equalThroughEquatable(first, second) {
            let nsObject = (first as AnyObject) is NSObject
            XCTFail("""
                Your == says two threads with the same values are equal when it is called on two MessageThreads, but \
                through Equatable — as `[a] == [b]`, XCTAssertEqual and firstIndex(of:) call it — they are not equal. \
                \(nsObject ? "MessageThread inherits from NSObject, whose Equatable conformance calls isEqual(_:), which compares identity unless you override it: override `isEqual(_:)` (and `hash`) to compare the title, identifier and messages, and let == ask it — or don't inherit from NSObject." : "The `==` that Equatable uses is not yours: declare your == as MessageThread's Equatable conformance (`public static func ==` inside the class or an extension of it).") \
                See LESSONS.md §2.4.
                """)
        }
        if twinsEqual { checkNotEqualAgrees(first, second, "two threads built from the same values") }
    }

    func test_equality_threadsWithDifferentTitles_areNotEqual() throws {
        let first = thread(title: "REST APIs"), second = thread(title: "Codable")
        try requireInitialiserKeeps(first, second, sameValues: false, "different titles")
        XCTAssertFalse(first == second || second == first, """
            Two threads that differ only in their title ("REST APIs" and "Codable") compare equal (==). == must compare \
            the title too: values that differ are not equal. See LESSONS.md §2.4.
            """)
        checkNotEqualAgrees(first, second, "two threads that differ only in their title")
        let spaced = thread(title: "REST APIs ")
        try requireInitialiserKeeps(first, spaced, sameValues: false, "titles that differ only in a trailing space")
        XCTAssertFalse(first == spaced || spaced == first, """
            Two threads whose titles differ only in a trailing space ("REST APIs" and "REST APIs ") compare equal (==). \
            They are different values — a PUT stores them differently — so compare the titles exactly, with ==, without \
            trimming spaces. See LESSONS.md §2.4.
            """)
        let lower = thread(title: "rest apis")
        try requireInitialiserKeeps(first, lower, sameValues: false, "titles that differ only in case")
        XCTAssertFalse(first == lower || lower == first, """
            Two threads whose titles differ only in case ("REST APIs" and "rest apis") compare equal (==). They are \
            different values — the app shows them differently, and a PUT stores them differently — so compare the \
            titles exactly, with ==, not lowercased() or a case-insensitive comparison. See LESSONS.md §2.4.
            """)
    }

    func test_equality_threadsWithDifferentIdentifiers_areNotEqual() throws {
        let first = thread(identifier: Self.sampleThreadID), second = thread(identifier: "0D4CE3A0-7C2B-4B61-9A8E-3F1B2C4D5E6F")
        try requireInitialiserKeeps(first, second, sameValues: false, "different identifiers")
        XCTAssertFalse(first == second || second == first, """
            Two threads that differ only in their identifier compare equal (==). The same title is not the same thread: \
            the identifier is its key in the database. Compare the identifier too. See LESSONS.md §2.4.
            """)
        checkNotEqualAgrees(first, second, "two threads that differ only in their identifier")
        let lower = thread(identifier: Self.sampleThreadID.lowercased())
        try requireInitialiserKeeps(first, lower, sameValues: false, "identifiers that differ only in case")
        XCTAssertFalse(first == lower || lower == first, """
            Two threads whose identifiers differ only in case ("\(Self.sampleThreadID)" and \
            "\(Self.sampleThreadID.lowercased())") compare equal (==). An identifier is a key in the database, and \
            Firebase's keys are case-sensitive: those are two different threads. Compare the identifiers exactly, with \
            ==, not as UUIDs or lowercased(). See LESSONS.md §2.4.
            """)
    }

    func test_equality_threadsWithDifferentMessages_areNotEqual() throws {
        let recorded = sampleMessage()
        let other = MessageThread.Message(text: "Another message", sender: "Grace", timestamp: Self.sampleDate)
        let otherSender = MessageThread.Message(text: Self.sampleText, sender: "Grace", timestamp: Self.sampleDate)
        let otherText = MessageThread.Message(text: "Another text", sender: Self.sampleSender, timestamp: Self.sampleDate)
        let otherTime = MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(1))
        let otherInstant = MessageThread.Message(text: Self.sampleText, sender: Self.sampleSender, timestamp: Self.sampleDate.addingTimeInterval(0.25))
        let later = MessageThread.Message(text: "A minute later", sender: "Grace", timestamp: Self.sampleDate.addingTimeInterval(60))
        let cases: [(String, [MessageThread.Message], [MessageThread.Message])] = [
            ("one has a message and the other none", [recorded], []),
            ("their one message differs in text and sender", [recorded], [other]),
            ("their one message differs only in its sender", [recorded], [otherSender]),
            ("their one message differs only in its text (the same sender, at the same moment)", [recorded], [otherText]),
            ("their one message differs only in its timestamp", [recorded], [otherTime]),
            ("their one message differs only in its timestamp, by a quarter of a second", [recorded], [otherInstant]),
            ("one has an extra message", [recorded], [recorded, other]),
            ("the first of their two messages differs", [recorded, other], [otherSender, other]),
            ("they hold the same two messages in another order", [recorded, other], [other, recorded]),
            ("they hold the same two messages, made a minute apart, in another order", [recorded, later], [later, recorded]),
            ("the middle one of their three messages differs in its text", [recorded, other, later], [recorded, otherText, later]),
        ]
        for (difference, left, right) in cases {
            if left == right {
                throw fail("""
                    setup: MessageThread.Message's == (§2.2) says two different lists of messages are equal (\(difference)), \
                    so no thread == built on it can tell them apart. Make the tests of §2.2 (MessageTests) pass first. \
                    See LESSONS.md §2.2.
                    """)
            }
            let lhs = thread(messages: left), rhs = thread(messages: right)
            try requireInitialiserKeeps(lhs, rhs, sameValues: false, difference)
            XCTAssertFalse(lhs == rhs || rhs == lhs, """
                Two threads with the same title and identifier compare equal (==) although \(difference). == must compare \
                the messages too, all of them and whole, in the order they are in — don't sort them first \
                (`lhs.messages == rhs.messages`: arrays of an Equatable type compare element by element).\
                \(left.count != right.count ? " A comparison that stops at the shorter list (zip) never sees a missing or extra message." : "") \
                See LESSONS.md §2.4.
                """)
            checkNotEqualAgrees(lhs, rhs, "two threads with the same title and identifier whose messages differ (\(difference))")
        }
    }

    func test_equality_theDecodedRecordedThread_equalsTheSameThreadBuiltInCode() throws {
        let built = thread()
        let decoded = try decodeFixture(MessageThread.self, Self.threadFixture, Lesson2TestCase.thread, sample: built,
                                        setup: "MessageThread (§2.3) does not decode")
        try requireInitialiserKeeps(decoded, built, sameValues: true,
            "the thread decoded from Fixtures/\(Self.threadFixture) and the same thread built with MessageThread(title:identifier:messages:)")
        let decodedEqual = try requireSteadyEquality(decoded, built, "the decoded recorded thread and the same thread built in code", exercise)
        XCTAssertTrue(decodedEqual && built == decoded, """
            The thread decoded from the recorded data (Fixtures/\(Self.threadFixture)) is not equal (==) to \
            MessageThread(title: "\(Self.sampleTitle)", identifier: "\(Self.sampleThreadID)", messages: [<the recorded message>]), \
            although both encode to \(oneLine((try? JSONValue(encoding: built))?.description ?? "?")). == must compare \
            values (title, identifier, messages), never identity: a decoded thread is always a new object. See LESSONS.md §2.4.
            """)
    }
}
