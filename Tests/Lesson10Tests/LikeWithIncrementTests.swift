import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// Exercise 10.7: `likeWithIncrement(_:)` — one PUT of the server value `{".sv": {"increment": 1}}`; the server adds
/// the like to whatever is there when the write arrives. The counter starts at 3.
final class LikeWithIncrementTests: LikesTestCase {
    let exercise = LikesTestCase.increment

    func test_likeWithIncrement_putsTheIncrementServerValue() throws {
        _ = try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }
        guard let write = writes.first else {
            if let asGET = writeSentAsGET(exercise) { return XCTFail(asGET) }
            return XCTFail("\(exercise.function) sent no write (\(TrafficReport(emulator).summary)). See \(exercise.reference).")
        }
        // The same write as a multi-location update: a PATCH of a location above the counter whose body names the
        // counter's path from there, {"m1": {".sv": …}} at likes.json (a PATCH replaces only the children it names).
        if write.method == "PATCH", write.hasJSONSuffix, write.path == "/" || Self.counterPath.hasPrefix(write.path + "/") {
            let relative = String(Self.counterPath.dropFirst(write.path == "/" ? 1 : write.path.count + 1))
            if let children = write.bodyJSON?.objectValue, children.count == 1, children[relative] == [".sv": ["increment": 1]] { return }
        }
        XCTAssertEqual(write.method, "PUT", "\(exercise.function) sent \(write.summary); the server value is PUT at the counter. See \(exercise.reference).")
        XCTAssertEqual(write.path, Self.counterPath, "\(exercise.function) wrote \(write.summary); the counter is <baseURL>/likes/m1.json. See \(exercise.reference).")
        XCTAssertTrue(write.hasJSONSuffix, """
            \(exercise.function) wrote \(write.summary) without .json: Firebase's REST API is the location's URL + .json, \
            <baseURL>/likes/m1.json (likesURL(of:) gives it), and it refuses the request otherwise. See \(exercise.reference).
            """)
        if let text = write.bodyJSON?.stringValue {
            return XCTFail("""
                \(exercise.function) sent the server value as a JSON string: its text was encoded once more. See LESSONS.md §10.7.
                Send the object itself, {".sv": {"increment": 1}}: its text as Data, or a dictionary or a struct given \
                to JSONEncoder. The body was the string "\(text.prefix(40))".
                \(write.summary)
                """)
        }
        // A Swift dictionary interpolated into a string: its description, ["…": …], which is not JSON.
        if write.bodyJSON == nil, let text = write.bodyText, text.hasPrefix("["), text.contains("\": ") {
            return XCTFail("""
                \(exercise.function) sent the body \(text): Swift's description of a dictionary ("\\(dictionary)"), not \
                JSON — its brackets and the order it happens to print are Swift's, and Firebase refuses it (400). Send the \
                JSON text, Data(#"{".sv": {"increment": 1}}"#.utf8), or encode the dictionary: JSONEncoder().encode(…) or \
                JSONSerialization.data(withJSONObject:). See LESSONS.md §10.7.
                \(write.summary)
                """)
        }
        XCTAssertEqual(write.bodyJSON, [".sv": ["increment": 1]], """
            \(exercise.function) sent the body \(write.bodyText ?? "(none)"); the server value is \
            {".sv": {"increment": 1}}: the server, not the client, adds the like. See LESSONS.md §10.7.
            """)
    }

    func test_likeWithIncrement_sendsOneRequest() throws {
        _ = try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }
        XCTAssertEqual(emulator.requests.count, 1, """
            \(exercise.function) sent \(emulator.requests.count) requests (\(TrafficReport(emulator).summary)); the \
            server value needs no read first: one PUT does the whole like. See LESSONS.md §10.7.
            """)
    }

    func test_likeWithIncrement_returnsTheCountTheServerStored() throws {
        let count = try requireCount(try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }, exercise)
        XCTAssertEqual(storedLikes, Self.startingLikes + 1, "\(exercise.function): the counter holds \(storedLikes.map(String.init) ?? "nothing") after one like of \(Self.startingLikes). See \(exercise.reference).")
        XCTAssertEqual(count, Self.startingLikes + 1, """
            \(exercise.function) returned \(count); the PUT's answer is the number the server stored \
            (\(Self.startingLikes + 1)): return that. See LESSONS.md §10.7.
            """)
    }

    func test_likeWithIncrement_anotherClientsLikeJustBefore_isKept() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 1)
        _ = try requireCount(try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }, exercise)
        XCTAssertEqual(storedLikes, Self.startingLikes + 2, """
            \(exercise.function): another client liked just before your write; the counter holds \
            \(storedLikes.map(String.init) ?? "nothing"), expected \(Self.startingLikes + 2). A count computed by the \
            client overwrites that like; the increment adds to it. See LESSONS.md §10.7.
            """)
    }

    func test_likeWithIncrement_tenAtOnce_allCounted() throws {
        let results = try concurrently(10, exercise) { try await $0.likeWithIncrement(Self.messageKey) }
        XCTAssertEqual(results.compactMap(\.failure).map(Self.describe), [], "\(exercise.function): 10 likes at once, and some threw. See \(exercise.reference).")
        XCTAssertEqual(storedLikes, Self.startingLikes + 10, """
            \(exercise.function): 10 likes at once on a count of \(Self.startingLikes) left \
            \(storedLikes.map(String.init) ?? "nothing"), expected \(Self.startingLikes + 10). See LESSONS.md §10.7.
            """)
    }

    func test_likeWithIncrement_answerNotANumber_throwsDecoding() throws {
        emulator.inject(.malformedBody("<html><body>Service temporarily unavailable</body></html>"))
        let result = try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }
        guard case .failure(let error) = result, case ThreadAPIError.decoding = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the PUT was answered 200 with a body that is not a number (an \
                HTML page); expected ThreadAPIError.decoding with the decoder's error: a count made up when the answer \
                does not decode (try? … ?? 0) hides a broken answer behind a number. See LESSONS.md §10.7.
                """)
        }
    }

    func test_likeWithIncrement_noAnswer_throwsTransport() throws {
        try checkNoAnswerThrowsTransport(exercise) { try await $0.likeWithIncrement(Self.messageKey) }
    }

    func test_likeWithIncrement_refused_throwsStatus401() throws {
        emulator.inject(.httpError(status: 401, message: "Permission denied"))
        let result = try call(exercise) { try await $0.likeWithIncrement(Self.messageKey) }
        guard case .failure(let error) = result, case ThreadAPIError.status(401) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the write was refused with 401; expected \
                ThreadAPIError.status(401). See \(exercise.reference).
                """)
        }
    }
}
