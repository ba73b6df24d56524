import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Exercise 5.3: `put(entry:completion:)` PUTs an entry at its own key, `<baseURL>/<identifier>.json`.
final class PutEntryTests: Lesson5TestCase {
    let exercise = Lesson5TestCase.put

    /// A new entry, not yet on the server.
    func newEntry() -> Entry {
        insert(Self.localOnly)
    }

    func test_put_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try put(newEntry())
        _ = try onlyRequest(from: exercise)
    }

    func test_put_usesPUT() throws {
        _ = try put(newEntry())
        let request = try onlyRequest(from: exercise)
        XCTAssertEqual(request.method, "PUT", """
            put(entry:) sent \(request.summary).\(Self.getInstead(request, of: "PUT")) Use PUT: the app chose the key (the entry's identifier), and PUT \
            writes exactly there — the same call creates the entry and, later, replaces it. POST would make Firebase \
            invent a new key under the URL each time. See LESSONS.md §5.3.
            """)
    }

    func test_put_urlIsTheEntrysIdentifierDotJSON() throws {
        let entry = newEntry()
        let identifier = entry.identifier
        _ = try put(entry)
        let request = try onlyRequest(from: exercise)
        if entry.identifier != identifier {
            throw fail("""
                put(entry:) changed the entry's identifier, from \(identifier) to \(entry.identifier), and wrote to \
                \(request.path). The identifier is the entry's key, chosen once when the app made it: PUT at \
                <baseURL>/<identifier>.json with the identifier the entry has. A new one at each PUT writes an edited \
                entry under a new key, and leaves its old copy on the server. See LESSONS.md §5.3.
                """)
        }
        XCTAssertTrue(request.hasJSONSuffix, """
            put(entry:)'s URL does not end in `.json`: \(request.url.absoluteString). Firebase's REST API answers \
            only URLs ending in .json. See LESSONS.md §5.3.
            """)
        XCTAssertEqual(request.path, "/\(identifier)", """
            \(Self.doubledDot(request))\(Self.otherCapitals(request, identifier: identifier))put(entry:) wrote to the path \(request.path), but an entry lives at its own key, its identifier: \
            <baseURL>/\(identifier).json. URL sent: \(request.url.absoluteString). See LESSONS.md §5.3.
            """)
        guard request.path == "/\(identifier)" else { return }
        try checkLowerCaseKey(from: exercise) { try put($0) }
    }

    func test_put_bodyIsTheEntryAsJSON() throws {
        let entry = newEntry()
        _ = try put(entry)
        let request = try onlyRequest(from: exercise)
        let body = try requireBody(of: request, from: exercise)
        let sent = try? JSONValue(data: body)
        guard sent != Self.json(of: entry.record) else { return }
        // A key that drifted comes first: it is the mistake, whether put's own body or the learner's encode(to:) has it.
        let ownEncoding = (try? JSONEncoder().encode(entry)).flatMap { try? JSONValue(data: $0) }
        let fromEncode = sent != nil && sent == ownEncoding
        let problem = sent.flatMap(Self.entryProblem).map { Self.sentence($0) + " " }
            ?? sent.flatMap { Self.timestampProblem($0, of: entry.record) }.map { $0 + " " } ?? ""
        XCTFail("""
            \(problem)put(entry:)'s body is \(String(decoding: body, as: UTF8.self)); the server should get the entry \
            as the journal holds it: \(Self.json(of: entry.record).description). \(fromEncode ? """
            That body is what your Entry.encode(to:) writes: fix it first (LESSONS.md §5.2), and keep \
            `JSONEncoder().encode(entry)` in `httpBody`.
            """ : """
            Put `JSONEncoder().encode(entry)` in `httpBody`: the entry's own encode(to:) writes the five keys the \
            journal uses (LESSONS.md §5.2).
            """) See LESSONS.md §5.3.
            """)
    }

    /// When `sent` is the entry but for its timestamp: what that number is, in words (seconds or milliseconds since
    /// 1970: a date strategy the journal does not use); nil when anything else differs too.
    static func timestampProblem(_ sent: JSONValue, of record: EntryStore.Record) -> String? {
        guard let object = sent.objectValue, Set(object.keys) == Set(entryKeys),
              let number = object["timestamp"]?.numberValue else { return nil }
        let want = json(of: record)
        guard ["title", "bodyText", "identifier", "mood"].allSatisfy({ object[$0] == want[$0] }) else { return nil }
        let since1970 = record.timestamp.timeIntervalSince1970
        let what = abs(number - since1970) < 0.001 ? "seconds since 1970 (a dateEncodingStrategy .secondsSince1970, or timeIntervalSince1970)"
            : abs(number - since1970 * 1000) < 1 ? "milliseconds since 1970 (a dateEncodingStrategy .millisecondsSince1970)"
            : abs(number - Date().timeIntervalSinceReferenceDate) < 3_600 ? "the moment of the PUT (Date(), now), not the entry's own timestamp"
            : "not the entry's timestamp as a plain JSONEncoder writes it"
        return """
            Your PUT body's `timestamp` is \(number), \(what); the journal holds seconds since 1 January 2001, \
            \(record.timestamp.timeIntervalSinceReferenceDate), what a plain JSONEncoder() writes for a Date, and every \
            other value is right.
            """
    }

    func test_put_callsCompletionWithNilOnceTheServerAnswered() throws {
        setLatency(0.3)
        let error = try put(newEntry())
        try requireSuccess(error, of: exercise)
    }

    func test_put_storesTheEntryAtItsKeyAndLeavesTheOthers() throws {
        let before = try Self.records(in: database)
        let entry = newEntry()
        let record = entry.record
        try requireSuccess(try put(entry), of: exercise)
        let after = try recordsOnServer(after: exercise)
        XCTAssertTrue(after == (before + [record]).sorted { $0.identifier < $1.identifier }, """
            After put(entry:) the journal should hold its \(before.count) entries and the new one at its \
            identifier; it holds \(Self.describe(after)). Requests: \(requestSummary). \
            See LESSONS.md §5.3.
            """)
    }

    func test_put_ofAnEditedEntry_replacesItOnTheServer() throws {
        let recorded = try Self.records(in: database).first { $0.identifier == Self.changedID }!
        let entry = insert(recorded)
        entry.mood = "🙂"
        entry.bodyText = "The sun came out after all."
        let edited = entry.record
        try requireSuccess(try put(entry), of: exercise)
        let stored = value(at: "/\(recorded.identifier)")
        XCTAssertTrue(stored == Self.json(of: edited), """
            \(stored.objectValue == nil ? "" : Self.entryProblem(stored).map { Self.sentence($0) + " " } ?? "")After put(entry:) of an edited entry, the server should hold its new values at \(recorded.identifier); it \
            holds \(stored.description). PUT replaces what is at the URL. See LESSONS.md §5.3.
            """)
    }

    func test_put_twoPutsAtOnce_eachCallsItsCompletion() throws {
        // The app creates an entry, and the user edits another before the first PUT is answered: two calls at once,
        // two completions, each once, and both entries on the server.
        let draft = newEntry()
        let phone = insert(Self.lowerCaseIdentifier)
        let (first, second) = (CompletionCounter<Error?>(), CompletionCounter<Error?>())
        controller.put(entry: draft) { first.record($0) }
        controller.put(entry: phone) { second.record($0) }
        let until = Date(timeIntervalSinceNow: CompletionTimeouts.normal)
        while first.calls.isEmpty || second.calls.isEmpty, Date() < until {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        settle()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))  // a completion called twice comes now
        try stopIfAStubRan()
        let sent = traffic.received.filter { $0.method == "PUT" }.count
        if first.calls.count != 1 || second.calls.count != 1 {
            func told(_ counter: CompletionCounter<Error?>) -> String {
                let count = counter.calls.count
                return count == 0 ? "never came" : count == 1 ? "came once" : "came \(count) times"
            }
            throw fail("""
                put(entry:) was called twice in a row, for two entries, the second time before the first PUT was \
                answered (two PUTs at once: the app made one entry and the user edited another): the first call's \
                completion \(told(first)), the second's \(told(second)); the server received \(sent) PUT(s). Every call \
                sends its own request and gets its completion exactly once. A completion kept in a property until the \
                answer comes is replaced by the next call's — keep each call's completion in its own closure; a PUT \
                that returns at once while another is on its way (`guard !isSending else { return }`) is never sent. \
                See LESSONS.md §5.3.
                """)
        }
        for entry in [draft, phone] {
            let stored = value(at: "/\(entry.identifier)")
            XCTAssertTrue(stored == Self.json(of: entry.record), """
                After two PUTs at once the server holds \(stored.description) at \(entry.identifier), not the entry \
                "\(entry.title)" that was PUT there. Requests: \(requestSummary). See LESSONS.md §5.3.
                """)
        }
    }

    func test_put_permissionDenied_passesHTTPStatusError401() throws {
        inject(.permissionDenied)
        try checkHTTPStatusError(try put(newEntry()), status: 401, from: exercise)
    }

    func test_put_serverError_passesHTTPStatusError500() throws {
        inject(.internalError)
        try checkHTTPStatusError(try put(newEntry()), status: 500, from: exercise)
        try checkAnotherRefusal(from: exercise) { try put(newEntry()) }
    }

    func test_put_transportError_passesTheURLErrorOn() throws {
        inject(.transportError(.networkConnectionLost))
        try checkTransportError(try put(newEntry()), from: exercise)
    }
}
