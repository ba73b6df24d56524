import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson2

/// Exercise 2.4: `==` for `MessageThread`, written by hand because Swift synthesises Equatable only for structs and enums.
final class MessageThreadEqualityTests: Lesson2TestCase {
    let exercise = Lesson2TestCase.equality

    func thread(title: String = "REST APIs", identifier: String = Lesson2TestCase.sampleThreadID,
                messages: [MessageThread.Message]? = nil) -> MessageThread {
        MessageThread(title: title, identifier: identifier, messages: messages ?? [sampleMessage()])
    }

    /// Stops the test when the initialiser, not ==, is what makes `lhs` and `rhs` look alike or different: threads built
    /// from the same values must encode alike, threads built from different values must not.
    func requireInitialiserKeeps(_ lhs: MessageThread, _ rhs: MessageThread, sameValues: Bool, _ what: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let left = try encoded(lhs, exercise, file: file, line: line)
        let right = try encoded(rhs, exercise, file: file, line: line)
        if sameValues && left != right {
            throw fail("""
                \(what.isEmpty ? "Two threads built from the same title, identifier and messages" : what) encode differently (\(left.description) and \
                \(right.description)), so no == can find them equal: MessageThread's initialiser does not store its \
                parameters unchanged. Make the tests of §2.3 pass first. See LESSONS.md §2.3.
                """, file: file, line: line)
        }
        if !sameValues && left == right {
            throw fail("""
                Two threads built from different values (\(what)) encode the same, \(left.description): the initialiser \
                drops the difference, so == cannot see it. Store every parameter; make the tests of §2.3 pass first. \
                See LESSONS.md §2.3.
                """, file: file, line: line)
        }
    }

    func test_equality_twoInstancesWithTheSameValues_areEqual() throws {
        let first = thread()
        let second = thread()
        try requireInitialiserKeeps(first, second, sameValues: true, "")
        XCTAssertTrue(first == first, "A thread is not equal (==) to itself. == should compare title, identifier and messages. See LESSONS.md §2.4.")
        XCTAssertTrue(first == second, """
            Two separate MessageThread instances with the same title, identifier and messages compare unequal (==). \
            == must compare their values; `lhs === rhs` asks whether they are the same object, and a thread decoded \
            from the server never is the one you hold. See LESSONS.md §2.4.
            """)
        XCTAssertTrue(second == first, "== is not symmetric: a == b but not b == a. Compare the same properties of lhs and rhs. See LESSONS.md §2.4.")
    }

    func test_equality_threadsWithDifferentTitles_areNotEqual() throws {
        let first = thread(title: "REST APIs"), second = thread(title: "Codable")
        try requireInitialiserKeeps(first, second, sameValues: false, "different titles")
        XCTAssertFalse(first == second, """
            Two threads that differ only in their title ("REST APIs" and "Codable") compare equal (==). == must compare \
            the title too, not just the identifier: values that differ are not equal. See LESSONS.md §2.4.
            """)
    }

    func test_equality_threadsWithDifferentIdentifiers_areNotEqual() throws {
        let first = thread(identifier: Self.sampleThreadID), second = thread(identifier: "0D4CE3A0-7C2B-4B61-9A8E-3F1B2C4D5E6F")
        try requireInitialiserKeeps(first, second, sameValues: false, "different identifiers")
        XCTAssertFalse(first == second, """
            Two threads that differ only in their identifier compare equal (==). Same title is not same thread: the \
            identifier is its key in the database. Compare the identifier too. See LESSONS.md §2.4.
            """)
    }

    func test_equality_threadsWithDifferentMessages_areNotEqual() throws {
        let other = MessageThread.Message(text: "Another message", sender: "Grace", timestamp: Self.sampleDate)
        let cases: [(String, MessageThread, MessageThread)] = [
            ("one has a message and the other none", thread(), thread(messages: [])),
            ("their one message differs", thread(), thread(messages: [other])),
            ("one has an extra message", thread(), thread(messages: [sampleMessage(), other])),
        ]
        for (difference, lhs, rhs) in cases {
            try requireInitialiserKeeps(lhs, rhs, sameValues: false, difference)
            XCTAssertFalse(lhs == rhs, """
                Two threads with the same title and identifier compare equal (==) although \(difference). == must compare \
                the messages too (`lhs.messages == rhs.messages`: arrays of an Equatable type compare element by element). \
                See LESSONS.md §2.4.
                """)
        }
    }

    func test_equality_theDecodedRecordedThread_equalsTheSameThreadBuiltInCode() throws {
        let built = thread()
        let decoded = try decodeFixture(MessageThread.self, Self.threadFixture, exercise)
        try requireInitialiserKeeps(decoded, built, sameValues: true,
            "The thread decoded from Fixtures/\(Self.threadFixture) and the same thread built with MessageThread(title:identifier:messages:)")
        XCTAssertTrue(decoded == built, """
            The thread decoded from the recorded data (Fixtures/\(Self.threadFixture)) is not equal (==) to \
            MessageThread(title: "REST APIs", identifier: "\(Self.sampleThreadID)", messages: [<the recorded message>]), \
            although both encode to \(oneLine((try? JSONValue(encoding: built))?.description ?? "?")). == must compare \
            values (title, identifier, messages), never identity: a decoded thread is always a new object. See LESSONS.md §2.4.
            """)
    }
}
