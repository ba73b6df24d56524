import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Lesson 5's tests share this: an emulator loaded with the recorded journal, a store and a controller pointed at
/// both, the recorded exports read without any learner code, and a way to call the learner's asynchronous functions
/// that records what the store held when their completion ran.
///
/// Every use of the emulator is in this file, so a change to its API touches one place.
class Lesson5TestCase: LabTestCase {
    static let encode = Exercise("Entry.encode(to:)", section: "5.2")
    static let put = Exercise("put(entry:completion:)", section: "5.3")
    static let delete = Exercise("deleteEntryFromServer(entry:completion:)", section: "5.4")
    static let representation = Exercise("EntryRepresentation and ==/!= with Entry", section: "5.5")
    static let update = Exercise("update(entry:with:)", section: "5.6")
    static let fetchSingle = Exercise("fetchSingleEntryFromPersistentStore(identifier:)", section: "5.7")
    static let sync = Exercise("fetchEntriesFromServer(completion:)", section: "5.8")

    /// Every answer comes this long after the request arrived, so a completion called next to `resume()` is seen
    /// as early in every run, never by timing luck.
    static let defaultLatency: TimeInterval = 0.05

    /// The entry the recorded journal's later export changes (its mood, "☹️" → "🙂").
    static let changedID = "9A8B7C6D-5E4F-4321-8765-0FEDCBA98765"
    /// The entry only the later export has.
    static let addedID = "5D6E7F80-91A2-4B3C-8D4E-5F60718293A4"

    private var emulator: FirebaseEmulator!
    /// The database the test loaded (a recorded export), to tell its entries from those the learner's code wrote.
    private var loaded: JSONValue = .null
    var store: EntryStore!
    var controller: EntryController!
    /// What the store held when the last call's completion first ran.
    private(set) var atCompletion: (saves: Int, records: [EntryStore.Record])?

    override func setUpWithError() throws {
        try super.setUpWithError()
        loaded = try Self.journal()
        emulator = FirebaseEmulator(database: loaded)
        emulator.latency = Self.defaultLatency
        store = EntryStore()
        controller = EntryController(baseURL: emulator.baseURL, session: emulator.session, store: store)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    // MARK: The recorded journal (Fixtures/lesson5/README.md)

    static func journal() throws -> JSONValue { try Fixtures.json("lesson5/journal.json") }
    static func journalLater() throws -> JSONValue { try Fixtures.json("lesson5/journal-later.json") }

    /// The entries of an export, read without any learner code, sorted by identifier.
    static func records(in database: JSONValue) throws -> [EntryStore.Record] {
        try (database.objectValue ?? [:]).values.map(record).sorted { $0.identifier < $1.identifier }
    }

    static func record(_ json: JSONValue) throws -> EntryStore.Record {
        guard let title = json["title"].stringValue, let bodyText = json["bodyText"].stringValue,
              let seconds = json["timestamp"].numberValue, let identifier = json["identifier"].stringValue,
              let mood = json["mood"].stringValue else {
            throw FixtureProblem(description: "a Lesson 5 fixture entry lacks a field: \(json.description)")
        }
        return EntryStore.Record(title: title, bodyText: bodyText, timestamp: Date(timeIntervalSinceReferenceDate: seconds),
                                 identifier: identifier, mood: mood)
    }

    /// The entries the server holds now, after the learner's request, sorted by identifier. An entry the test
    /// loaded that cannot be read is the fixture's problem; one the learner's request wrote stops the test with what
    /// their body got wrong (a key that drifted from the journal's, a missing key, a value of another type).
    func recordsOnServer(after exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> [EntryStore.Record] {
        var records: [EntryStore.Record] = []
        for (key, json) in database.objectValue ?? [:] {
            if let record = try? Self.record(json) {
                records.append(record)
            } else if json == loaded[key] {
                _ = try Self.record(json)  // the fixture's own entry: FixtureProblem names it
            } else {
                let problem = Self.entryProblem(json).map(Self.sentence) ?? "Your \(exercise.function) wrote an entry the kit cannot read."
                throw fail("""
                    \(problem) So the entry the server stored at /\(key) — exactly what you sent, \(json.description) \
                    — cannot be read back, by this app or any other. See LESSONS.md §5.2 (the entry's JSON) and \
                    \(exercise.reference).
                    """, file: file, line: line)
            }
        }
        return records.sorted { $0.identifier < $1.identifier }
    }

    /// What is wrong with `json` as one entry of the journal, in the learner's words — the key that drifted from the
    /// journal's first ("your PUT body has `timeStamp` where the server's entries use `timestamp`"); nil when it is a
    /// readable entry.
    static func entryProblem(_ json: JSONValue) -> String? {
        guard let object = json.objectValue else {
            return "your PUT body is \(json.description), not a JSON object with the keys \(entryKeys)"
        }
        let missing = entryKeys.filter { object[$0] == nil }
        let extra = object.keys.filter { !entryKeys.contains($0) }.sorted()
        if let key = missing.first {
            let twin = extra.first { $0.lowercased() == key.lowercased() }
                ?? (missing.count == 1 && extra.count == 1 ? extra.first : nil)
            if let twin = twin {
                let capitals = twin.lowercased() == key.lowercased() ? " (JSON keys are case-sensitive)"
                    : twin == snakeCase(key) ? " (a keyEncodingStrategy .convertToSnakeCase writes that: encode with a plain JSONEncoder())" : ""
                return "your PUT body has `\(twin)` where the server's entries use `\(key)`\(capitals)"
            }
            return "your PUT body has no `\(key)` (its keys: \(object.keys.sorted()); the server's entries have \(entryKeys))"
        }
        for key in ["title", "bodyText", "identifier", "mood"] where object[key]?.stringValue == nil {
            return "your PUT body's `\(key)` is \(object[key]!.description), not a string"
        }
        if object["timestamp"]?.numberValue == nil {
            return "your PUT body's `timestamp` is \(object["timestamp"]!.description), not a number: the journal holds seconds since 1 January 2001, what JSONEncoder writes for a Date"
        }
        return nil
    }

    /// "body_text" for "bodyText": what JSONEncoder's `.convertToSnakeCase` makes of a key.
    static func snakeCase(_ key: String) -> String {
        key.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
    }

    /// `text` as a sentence: a capital first, a full stop last.
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    /// The keys of an entry in the journal.
    static let entryKeys = ["title", "bodyText", "timestamp", "identifier", "mood"]

    /// The JSON Firebase should hold for `record`: the five keys, the timestamp in seconds since 2001.
    static func json(of record: EntryStore.Record) -> JSONValue {
        ["title": .string(record.title), "bodyText": .string(record.bodyText),
         "timestamp": .number(record.timestamp.timeIntervalSinceReferenceDate),
         "identifier": .string(record.identifier), "mood": .string(record.mood)]
    }

    /// A new entry in the test's store with `record`'s values.
    @discardableResult
    func insert(_ record: EntryStore.Record, into target: EntryStore? = nil) -> Entry {
        Entry(title: record.title, bodyText: record.bodyText, mood: record.mood, timestamp: record.timestamp,
              identifier: record.identifier, store: target ?? store)
    }

    /// The store's entries now, sorted by identifier.
    func storeRecords() -> [EntryStore.Record] {
        store.entries.map(\.record).sorted { $0.identifier < $1.identifier }
    }

    /// An entry that is not on the server: a new one the app has not sent yet.
    static let localOnly = EntryStore.Record(
        title: "Offline draft ✍️", bodyText: "Written on the train, not sent yet.",
        timestamp: Date(timeIntervalSinceReferenceDate: 5.84500000250E8),
        identifier: "F00DCAFE-0000-4000-8000-00000000D0D0", mood: "😐")

    /// An entry written with a text and no title (the title field left empty): a value like any other.
    static let untitled = EntryStore.Record(
        title: "", bodyText: "No title today, just this line.", timestamp: Date(timeIntervalSinceReferenceDate: 5.84290000375E8),
        identifier: "B3C4D5E6-F708-4192-A3B4-C5D6E7F80912", mood: "😐")

    /// An entry as typed in a text view: a space around its title, a newline at the end of its text.
    static let typed = EntryStore.Record(
        title: " Ferry notes ", bodyText: "Departure 07:40.\n\nPUT is idempotent. \n",
        timestamp: Date(timeIntervalSinceReferenceDate: 5.84290100500E8),
        identifier: "C5D6E7F8-0912-4A3B-8C4D-5E6F70819203", mood: "😐")

    /// An entry the journal's Android app wrote: its identifier is a UUID in lower case (Java's `UUID.toString()`),
    /// a key like any other, used as it is.
    static let lowerCaseIdentifier = EntryStore.Record(
        title: "Written on the phone", bodyText: "The Android app writes its UUIDs in lower case.",
        timestamp: Date(timeIntervalSinceReferenceDate: 5.84460800250E8),
        identifier: "6b1e4f2a-3c5d-4e7f-8a9b-0c1d2e3f4a5b", mood: "🙂")

    /// An entry another version of the app wrote, with a mood this one does not offer (not one of `Entry.moods`):
    /// a sync copies it as it is, like every other value.
    static let otherMood = EntryStore.Record(
        title: "New phone, new moods", bodyText: "The app on the phone offers 🤩 now; the laptop's does not, yet.",
        timestamp: Date(timeIntervalSinceReferenceDate: 5.84546400500E8),
        identifier: "A7B8C9D0-1E2F-4A3B-8C4D-5E6F708192A3", mood: "🤩")

    /// The recorded journal with `otherMood` added, as the server holds it.
    static func journalWithOtherMood() throws -> JSONValue {
        var entries = try journal().objectValue ?? [:]
        entries[otherMood.identifier] = json(of: otherMood)
        return .object(entries)
    }

    /// "🤩 (U+1F929)": a mood and its code points, which tell "☹️" from "☹".
    static func spelled(_ mood: String) -> String {
        "\(mood) (\(mood.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")))"
    }

    // MARK: The emulator

    var baseURL: URL { emulator.baseURL }
    /// The database as the server holds it now.
    var database: JSONValue { emulator.database }
    func value(at path: String) -> JSONValue { emulator.value(at: path) }
    func load(_ database: JSONValue) {
        loaded = database
        emulator.load(database)
    }
    func clearRequests() { emulator.clearRequests() }
    func inject(_ fault: Fault) { emulator.inject(fault) }
    func setLatency(_ seconds: TimeInterval) { emulator.latency = seconds }
    var traffic: TrafficReport { TrafficReport(emulator) }

    func onlyRequest(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        try onlyRequest(from: exercise, on: emulator, file: file, line: line)
    }

    func requireSuccess(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        try requireSuccess(error, of: exercise, on: emulator, file: file, line: line)
    }

    // MARK: Calling the learner's asynchronous functions

    /// Calls `start` (the learner's function), waits for its completion — exactly once, in time, after the answer
    /// (the kit's `awaitCompletion`) — and lets the data task's handler finish. Returns what completion got.
    ///
    /// `holdingTheMainQueue`: until the completion comes (or the answer is `latency` + 0.25 s old), the main queue
    /// runs nothing, as in an app whose main thread is busy drawing. So work the code sent to the main queue
    /// (`DispatchQueue.main.async { merge }`) has not run when a completion that did not wait for it comes — in every
    /// run, not when the scheduler happens to favour the test thread. A completion on the main queue comes after it.
    func call(_ exercise: Exercise, holdingTheMainQueue: Bool = false, file: StaticString = #filePath, line: UInt = #line,
              _ start: (@escaping (Error?) -> Void) -> Void) throws -> Error? {
        atCompletion = nil
        let seen = StoreAtCompletion(store)
        let hold = emulator.latency + 0.25
        let requestsBefore = emulator.requests.count
        // With an answer this slow, a function that returns only after its completion ran has waited for the answer.
        var waitedForTheAnswer = false
        let error: Error? = try awaitCompletion(of: exercise, on: emulator, file: file, line: line) { done in
            start { error in
                seen.noteFirstCall()
                done(error)
            }
            waitedForTheAnswer = emulator.latency >= 0.25 && seen.called && emulator.requests.count > requestsBefore
            if holdingTheMainQueue {
                let until = Date(timeIntervalSinceNow: hold)
                while !seen.called, Date() < until { Thread.sleep(forTimeInterval: 0.002) }
            }
        }
        settle()
        atCompletion = seen.state
        if exercise.section == Self.sync.section, let error = error, emulator.requests.count > requestsBefore {
            Self.earlierFailedSync = "in \(name), \(oneLine(error))"
        }
        if waitedForTheAnswer {
            throw fail("""
                \(exercise.function) returned only after its completion had run: it waited for the server's answer \
                (\(emulator.latency) s here) before returning — a `DispatchSemaphore` or a DispatchGroup's `wait()` \
                after `resume()`. That blocks the caller's thread for the whole request: in the app the main thread, so \
                the screen freezes until the network answers, or for ever when it never does. Return right after \
                `resume()`; the completion reports when the answer comes (§1.2.1). See \(exercise.reference).
                """, file: file, line: line)
        }
        return error
    }

    /// The last sync in this test run that asked the server and passed an error (which test, which error): a sync that
    /// answers without asking the server after one failed may have kept a flag of its own set since.
    static var earlierFailedSync: String?

    /// Calls fetchEntriesFromServer without the checks of `call` — for a test that looks at one thing only, what the
    /// sync sent — and waits up to `seconds` for its completion. Returns whether it came, with what, and the requests
    /// the emulator received meanwhile.
    func syncWithoutChecks(waiting seconds: TimeInterval = 1) -> (called: Bool, error: Error?, sent: [RecordedRequest]) {
        let before = emulator.requests.count
        let outcome = FirstOutcome()
        controller.fetchEntriesFromServer { outcome.note($0) }
        let until = Date(timeIntervalSinceNow: seconds)
        while !outcome.called, Date() < until { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005)) }
        settle()
        return (outcome.called, outcome.error, Array(emulator.requests.dropFirst(before)))
    }

    /// Lets the data task's handler finish (and anything it sent to the main queue).
    func settle() {
        settle(emulator.session)
    }

    func put(_ entry: Entry, file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let controller = self.controller!
        return try call(Self.put, file: file, line: line) { controller.put(entry: entry, completion: $0) }
    }

    func deleteFromServer(_ entry: Entry, file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let controller = self.controller!
        return try call(Self.delete, file: file, line: line) { controller.deleteEntryFromServer(entry: entry, completion: $0) }
    }

    func sync(file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let controller = self.controller!
        return try call(Self.sync, holdingTheMainQueue: true, file: file, line: line) { controller.fetchEntriesFromServer(completion: $0) }
    }

    // MARK: Checking failures

    /// Stops the test unless `error` is `HTTPStatusError` with `status`, naming what the code did instead.
    func checkHTTPStatusError(_ error: Error?, status: Int, from exercise: Exercise, extra: String = "",
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = "\(status) {\"error\" : \"…\"}"
        // The same request sent again after the refusal: a retry, which the contract's one request does not make.
        let sent = traffic.received
        if sent.count > 1, let first = sent.first, !(200...299).contains(first.response.statusCode),
           sent.dropFirst().allSatisfy({ $0.method == first.method && $0.path == first.path }) {
            throw fail("""
                The emulator answered \(first.summary), and \(exercise.function) sent the same request again: \
                \(sent.count) requests for one call (\(sent.map(\.summary).joined(separator: "; "))), and it reported \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)"). One call sends one request: on a \
                refusal, pass HTTPStatusError(statusCode:body:) to completion and stop — retrying is the caller's \
                choice, not the write's. See \(exercise.reference).
                """, file: file, line: line)
        }
        guard let error = error else {
            throw fail("""
                The emulator answered \(answer), and \(exercise.function) called completion(nil), as if it had \
                succeeded. URLSession counts an HTTP error status as a successful transfer (its `error` is nil): check \
                the status code, and pass HTTPStatusError(statusCode:body:) when it is outside 200...299.\(extra) \
                See \(exercise.reference).
                """, file: file, line: line)
        }
        if error is DecodingError {
            throw fail("""
                The emulator answered \(answer), and \(exercise.function) passed a DecodingError (\(oneLine(error))): \
                it decoded Firebase's error body as if it were the journal. Check the status code before decoding, \
                and pass HTTPStatusError(statusCode:body:). See \(exercise.reference).
                """, file: file, line: line)
        }
        guard let statusError = error as? HTTPStatusError else {
            throw fail("""
                The emulator answered \(answer), and \(exercise.function) passed \(type(of: error)): \(oneLine(error)). \
                The contract names the error for a refusal: HTTPStatusError(statusCode:body:). See \(exercise.reference).
                """, file: file, line: line)
        }
        XCTAssertEqual(statusError.statusCode, status, """
            The emulator answered \(answer), and \(exercise.function) passed HTTPStatusError with statusCode \
            \(statusError.statusCode): pass the response's own status. See \(exercise.reference).
            """, file: file, line: line)
        // The body says why (Firebase's {"error" : "Permission denied"}): the contract's error carries it as text.
        if statusError.body.range(of: #"^(Optional\()?\d+ bytes\)?$"#, options: .regularExpression) != nil {
            throw fail("""
                The emulator answered \(answer), and \(exercise.function) passed HTTPStatusError(statusCode: \(status)) \
                with the body \(statusError.body.debugDescription): that is the Data's description (its size), not its \
                text — String(describing:) or "\\(data)" of a Data says how many bytes it holds. Pass the text: \
                String(decoding: data ?? Data(), as: UTF8.self). See \(exercise.reference).
                """, file: file, line: line)
        }
        XCTAssertTrue(statusError.body.contains("\"error\""), """
            The emulator answered \(answer), and \(exercise.function) passed HTTPStatusError(statusCode: \(status)) \
            with the body \(statusError.body.debugDescription): pass the response's body too, as text — \
            HTTPStatusError(statusCode: status, body: String(decoding: data ?? Data(), as: UTF8.self)) — it is what \
            says why the server refused. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// After a 500 was reported: a refusal the tests do not name elsewhere, 503 Service Unavailable (Firebase's answer
    /// while a database is overloaded), must be reported too — a check that lists the statuses it knows one by one
    /// (`case 401, 500:`) lets it through as success. Answered at once: waiting for the answer is tested elsewhere.
    func checkAnotherRefusal(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                             _ call: () throws -> Error?) throws {
        clearRequests()
        setLatency(0)
        inject(.httpError(status: 503, message: "Service Unavailable"))
        try checkHTTPStatusError(try call(), status: 503, from: exercise, extra: """
             It did pass HTTPStatusError for a 500: a check of particular statuses (`case 401, 500:`) lets every other \
            refusal through as success — test the range instead, `!(200...299).contains(statusCode)`.
            """, file: file, line: line)
    }

    /// Stops the test unless `error` is the URLError `.networkConnectionLost` the emulator's transport fault gave.
    func checkTransportError(_ error: Error?, from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let code = (error as? URLError)?.code ?? (error.map { $0 as NSError }.flatMap { $0.domain == NSURLErrorDomain ? URLError.Code(rawValue: $0.code) : nil })
        // The same request sent again after the lost connection: a retry, which the contract's one request does not make.
        let sent = traffic.received
        if sent.count > 1, let first = sent.first,
           sent.dropFirst().allSatisfy({ $0.method == first.method && $0.path == first.path }) {
            throw fail("""
                The connection was lost (URLError.networkConnectionLost), and \(exercise.function) sent the same request \
                again: \(sent.count) requests for one call (\(sent.map(\.summary).joined(separator: "; "))), and it \
                reported \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)"). One call sends one \
                request: pass the data task's `error` on as it is and stop — retrying is the caller's choice, not the \
                write's. See \(exercise.reference).
                """, file: file, line: line)
        }
        guard code == .networkConnectionLost else {
            throw fail("""
                The request failed without any answer (URLError.networkConnectionLost), and \(exercise.function) passed \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)") to its completion. Pass the data \
                task's `error` on as it is. See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// When `request`'s URL ends in `..json` (appendingPathExtension(".json"), the dot given twice): the mistake in
    /// words, to come first in a message about its path; "" otherwise.
    static func doubledDot(_ request: RecordedRequest) -> String {
        guard request.url.path.hasSuffix("..json") else { return "" }
        return """
            The URL ends in `..json` (\(request.url.path)): appendingPathExtension takes the extension without its \
            dot — appendingPathExtension("json") — and adds the dot itself.
            """ + " "
    }

    /// When `request`'s path is the entry's key in other capitals (`identifier.lowercased()`): the mistake in words,
    /// to come first in a message about its path; "" otherwise.
    static func otherCapitals(_ request: RecordedRequest, identifier: String) -> String {
        let key = "/\(identifier)"
        guard request.path != key, request.path.lowercased() == key.lowercased() else { return "" }
        let upper = request.path != key.uppercased() ? "" : """
            , no `.uppercased()`, and no round trip through UUID(uuidString:) and its `uuidString`, which writes \
            capitals (an identifier in lower case, as the journal's Android app writes them, is a key of its own)
            """
        return """
            The URL has the identifier in other capitals (\(request.path.dropFirst()) for \(identifier)): Firebase \
            keys are case-sensitive, so that is another key — the entry is not there. Use `entry.identifier` as it is, \
            with no `.lowercased()`\(upper) (the same UUID in other capitals is another key).
            """ + " "
    }

    /// After a write at the right key: the same call for an entry the journal's Android app wrote, its identifier in
    /// lower case, must address that key too, letter for letter.
    func checkLowerCaseKey(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line,
                           _ send: (Entry) throws -> Error?) throws {
        clearRequests()
        let key = Self.lowerCaseIdentifier.identifier
        _ = try send(insert(Self.lowerCaseIdentifier))
        let request = try onlyRequest(from: exercise, file: file, line: line)
        XCTAssertEqual(request.path, "/\(key)", """
            \(Self.otherCapitals(request, identifier: key))\(exercise.function) sent \(request.method), for an entry whose \
            identifier is in lower case (\(key), as the journal's Android app writes UUIDs), to the path \(request.path); \
            the entry lives at <baseURL>/\(key).json, its identifier as it is. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// When `request` is a GET where a write was due: the two ways a GET goes out, to follow what was sent; "" otherwise.
    static func getInstead(_ request: RecordedRequest, of method: String) -> String {
        guard request.method == "GET" else { return "" }
        return """
             A GET is what goes out when the method is never set, when the data task is handed the URL instead of \
            the URLRequest you set it on (`session.dataTask(with: url)`), or when the method is set after the task was \
            made from the request (URLRequest is a struct: the task keeps the copy it was given): set \
            `request.httpMethod = "\(method)"` first, then hand dataTask the request, not its URL.
            """
    }

    /// "PUT /x.json -> 200; …", what the emulator received.
    var requestSummary: String { traffic.summary }

    static func describe(_ records: [EntryStore.Record]) -> String {
        records.isEmpty ? "(none)" : records.map { "\"\($0.title)\" \($0.mood) (\($0.identifier.prefix(8))…)" }.joined(separator: ", ")
    }
}

/// What the store held when a completion was first called, noted from whatever queue it came.
final class StoreAtCompletion {
    private let store: EntryStore
    private let lock = NSLock()
    private var noted: (saves: Int, records: [EntryStore.Record])?

    init(_ store: EntryStore) { self.store = store }

    func noteFirstCall() {
        lock.lock(); defer { lock.unlock() }
        if noted == nil { noted = (store.saveCount, store.entries.map(\.record)) }
    }

    var called: Bool {
        lock.lock(); defer { lock.unlock() }
        return noted != nil
    }

    var state: (saves: Int, records: [EntryStore.Record])? {
        lock.lock(); defer { lock.unlock() }
        return noted
    }
}

/// The first call of a completion, from whatever queue it comes.
final class FirstOutcome {
    private let lock = NSLock()
    private var outcome: Error??

    func note(_ error: Error?) {
        lock.lock(); defer { lock.unlock() }
        if outcome == nil { outcome = .some(error) }
    }

    var called: Bool {
        lock.lock(); defer { lock.unlock() }
        return outcome != nil
    }

    var error: Error? {
        lock.lock(); defer { lock.unlock() }
        return outcome ?? nil
    }
}

/// A Lesson 5 fixture that cannot serve as expected data.
struct FixtureProblem: Error, CustomStringConvertible {
    let description: String
}
