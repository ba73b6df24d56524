import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.4: `deleteEntryFromServer(entry:completion:)` DELETEs the entry's own URL, and nothing else.
final class DeleteEntryTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.delete

    /// A recorded entry (on the server), as an entry in the store.
    func recordedEntry() throws -> Entry {
        insert(try Self.records(in: database).first { $0.identifier == Self.changedID }!)
    }

    func test_delete_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try deleteFromServer(try recordedEntry())
        _ = try onlyRequest(from: exercise)
    }

    func test_delete_usesDELETE() throws {
        _ = try deleteFromServer(try recordedEntry())
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "DELETE", """
            deleteEntryFromServer sent \(request.summary).\(Self.getInstead(request, of: "DELETE")) Deleting is the \
            method DELETE (`request.httpMethod = "DELETE"`): the server removes what is at the URL. See LESSONS.md §5.4.
            """)
    }

    func test_delete_urlIsTheEntrysIdentifierDotJSON() throws {
        let entry = try recordedEntry()
        _ = try deleteFromServer(entry)
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.hasJSONSuffix, """
            deleteEntryFromServer's URL does not end in `.json`: \(request.url.absoluteString). Firebase's REST API \
            answers only URLs ending in .json. See LESSONS.md §5.4.
            """)
        XCTAssertEqual(request.path, "/\(entry.identifier)", """
            \(Self.doubledDot(request))\(Self.otherCapitals(request, identifier: entry.identifier))deleteEntryFromServer sent DELETE to the path \(request.path)\(request.path == "/" ? " — the whole journal" : ""); \
            the entry lives at its identifier: <baseURL>/\(entry.identifier).json, the URL put(entry:) writes. \
            URL sent: \(request.url.absoluteString). See LESSONS.md §5.4.
            """)
        guard request.path == "/\(entry.identifier)" else { return }
        try checkLowerCaseKey(from: exercise) { try deleteFromServer($0) }
    }

    func test_delete_sendsNoBody() throws {
        _ = try deleteFromServer(try recordedEntry())
        let request = try onlyRequest(from: exercise)
        XCTAssertTrue(request.body?.isEmpty ?? true, """
            deleteEntryFromServer sent a body (\(request.summary)). A DELETE names what to remove by its URL alone. \
            See LESSONS.md §5.4.
            """)
    }

    func test_delete_callsCompletionWithNilOnceTheServerAnswered() throws {
        setLatency(0.3)
        let error = try deleteFromServer(try recordedEntry())
        try requireSuccess(error, of: exercise)
    }

    func test_delete_removesThatEntryAndOnlyIt() throws {
        let before = try Self.records(in: database)
        let entry = try recordedEntry()
        try requireSuccess(try deleteFromServer(entry), of: exercise)
        let after = try Self.records(in: database)
        XCTAssertTrue(after == before.filter { $0.identifier != entry.identifier }, """
            After deleteEntryFromServer the journal should hold its other \(before.count - 1) entries and not \
            "\(entry.title)"; it holds \(Self.describe(after)). Requests: \(requestSummary). See LESSONS.md §5.4.
            """)
    }

    func test_delete_permissionDenied_passesHTTPStatusError401() throws {
        inject(.permissionDenied)
        try checkHTTPStatusError(try deleteFromServer(try recordedEntry()), status: 401, from: exercise)
    }

    func test_delete_serverError_passesHTTPStatusError500() throws {
        inject(.internalError)
        try checkHTTPStatusError(try deleteFromServer(try recordedEntry()), status: 500, from: exercise)
        try checkAnotherRefusal(from: exercise) { try deleteFromServer(try recordedEntry()) }
    }

    func test_delete_transportError_passesTheURLErrorOn() throws {
        inject(.transportError(.networkConnectionLost))
        try checkTransportError(try deleteFromServer(try recordedEntry()), from: exercise)
    }
}
