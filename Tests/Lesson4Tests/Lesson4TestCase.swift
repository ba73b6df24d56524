import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson4

/// Lesson 4's tests share this: an emulator loaded with the course's sample database, a controller pointed at it,
/// the recorded databases, and the checks that name a learner's mistake from what the emulator saw.
class Lesson4TestCase: LabTestCase {
    static let fetch = Exercise("fetchMessageThreads(completion:)", section: "4.6")
    /// Given, solved (Lesson 1): used to write data that the learner's fetch must read back.
    static let createThread = Exercise("createMessageThread(title:completion:) (given)", section: "1.3")
    static let createMessage = Exercise("createMessage(messageThread:text:sender:completion:) (given)", section: "1.4")

    /// The original course's sample: one thread, "REST APIs", with one message.
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"

    var emulator: FirebaseEmulator!
    var controller: MessageThreadController!
    /// `messageThreads` as the last fetch's completion handler saw it, at the moment it was called.
    private var listSeenByCompletion: [MessageThread]?

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = FirebaseEmulator(database: try Self.sampleDatabase())
        controller = MessageThreadController(baseURL: emulator.baseURL, session: emulator.session)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    // MARK: Recorded databases

    /// The original course's sample database (Fixtures/databases/message-board-sample.json).
    static func sampleDatabase() throws -> JSONValue {
        try Fixtures.database("message-board-sample")
    }

    /// A class-sized database: 58 threads, 282 messages keyed by push IDs, 8 threads without messages,
    /// titles with accents, emoji and other scripts (Fixtures/lesson4/README.md).
    static func classDatabase() throws -> JSONValue {
        try Fixtures.json("lesson4/class-database.json")
    }

    /// What fetchMessageThreads should leave in `messageThreads` for `database`: every thread, decoded with the
    /// given model, sorted by title with String's `<`.
    static func expectedThreads(in database: JSONValue) throws -> [MessageThread] {
        let byID = try JSONDecoder().decode([String: MessageThread]?.self, from: database.jsonData) ?? [:]
        let threads = byID.values.sorted { $0.title < $1.title }
        guard Set(threads.map(\.title)).count == threads.count else {
            throw FixtureProblem(description: "a Lesson 4 database has two threads with the same title, so the expected order is ambiguous")
        }
        return threads
    }

    // MARK: Calling the functions

    /// Calls the learner's fetch on `controller` (or another one) and returns what its completion got.
    func fetch(with fetcher: MessageThreadController? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let fetcher = fetcher ?? controller!
        listSeenByCompletion = nil
        return try awaitCompletion(of: Self.fetch, on: emulator, file: file, line: line) { done in
            fetcher.fetchMessageThreads { error in
                self.listSeenByCompletion = fetcher.messageThreads
                done(error)
            }
        }
    }

    /// Fetches and stops the test unless the fetch sent the right request and succeeded, naming the mistake when not.
    func fetchSuccessfully(with fetcher: MessageThreadController? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        emulator.clearRequests()
        let error = try fetch(with: fetcher, file: file, line: line)
        let request = try onlyRequest(from: Self.fetch, on: emulator, file: file, line: line)
        if let wrong = Self.wrongRequest(request) {
            throw fail(wrong, file: file, line: line)
        }
        if let decoding = error as? DecodingError, request.response.statusCode == 200 {
            throw fail(Self.explain(decoding, answer: request), file: file, line: line)
        }
        try requireSuccess(error, of: Self.fetch, on: emulator, file: file, line: line)
        let fetched = (fetcher ?? controller!).messageThreads
        if let seen = listSeenByCompletion, seen != fetched {
            throw fail("""
                When fetchMessageThreads called completion(nil), `messageThreads` held \(seen.count) thread(s); only \
                afterwards did it change to the \(fetched.count) fetched. The caller reads the list in its completion \
                (to show it), so set `self.messageThreads` first, then call completion(nil). See LESSONS.md §4.5.
                """, file: file, line: line)
        }
    }

    /// Loads `database`, fetches it, and stops the test unless `messageThreads` then holds exactly its threads,
    /// sorted by title. Returns the threads expected (and found).
    @discardableResult
    func fetchAndCheck(_ database: JSONValue, with fetcher: MessageThreadController? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> [MessageThread] {
        let fetcher = fetcher ?? controller!
        emulator.load(database)
        let before = fetcher.messageThreads
        try fetchSuccessfully(with: fetcher, file: file, line: line)
        let expected = try Self.expectedThreads(in: database)
        try checkSameThreads(fetcher.messageThreads, expected: expected, before: before, file: file, line: line)
        try checkSortedByTitle(fetcher.messageThreads, expected: expected, file: file, line: line)
        return expected
    }

    func createThread(title: String, file: StaticString = #filePath, line: UInt = #line) throws -> MessageThread {
        let error: Error? = try awaitCompletion(of: Self.createThread, on: emulator, file: file, line: line) { done in
            controller.createMessageThread(title: title, completion: done)
        }
        try requireSuccess(error, of: Self.createThread, on: emulator, file: file, line: line)
        guard let thread = controller.messageThreads.last, thread.title == title else {
            throw fail("The given createMessageThread did not add its thread to `messageThreads`: is MessageThreadController.swift unchanged? See LESSONS.md §1.3.", file: file, line: line)
        }
        return thread
    }

    func createMessage(in thread: MessageThread, text: String, sender: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let error: Error? = try awaitCompletion(of: Self.createMessage, on: emulator, file: file, line: line) { done in
            controller.createMessage(messageThread: thread, text: text, sender: sender, completion: done)
        }
        try requireSuccess(error, of: Self.createMessage, on: emulator, file: file, line: line)
    }

    // MARK: Naming the mistake

    /// Says what is wrong with the fetch's request, or nil when it is `GET <baseURL>/.json` without a body.
    static func wrongRequest(_ request: RecordedRequest) -> String? {
        if request.method != "GET" {
            return """
                fetchMessageThreads sent \(request.summary). Reading is a GET: it asks for the data at the URL and \
                changes nothing (a PUT or POST would write to the database). A data task made from a URL is a GET \
                already: `session.dataTask(with: url)`. See LESSONS.md §4.1.
                """
        }
        if !request.hasJSONSuffix {
            return """
                fetchMessageThreads sent \(request.summary): the URL \(request.url.absoluteString) lacks `.json`, so \
                Firebase answers "append .json to your request URI" instead of data. The whole database is at \
                <baseURL>/.json: `baseURL.appendingPathExtension("json")`. See LESSONS.md §4.1.
                """
        }
        if request.path != "/" {
            return """
                fetchMessageThreads asked for \(request.path).json (\(request.summary)), but the threads are the \
                database's top-level children: fetch the root, <baseURL>/.json \
                (`baseURL.appendingPathExtension("json")`). A path that holds nothing answers `null`. See LESSONS.md §4.1.
                """
        }
        if let body = request.body, !body.isEmpty {
            return "fetchMessageThreads sent a body with its GET (\(request.summary)). A GET has no body: make the data task from the URL alone. See LESSONS.md §4.1."
        }
        return nil
    }

    /// Explains a DecodingError the fetch passed on although the emulator answered 200 with `answer`'s body.
    static func explain(_ error: DecodingError, answer request: RecordedRequest) -> String {
        let body = request.response.bodyText ?? ""
        let shortBody = body.count <= 120 ? oneLine(body) : oneLine(body.prefix(120)) + "…"
        if body.trimmingCharacters(in: .whitespacesAndNewlines) == "null" {
            return """
                The database is empty, so GET /.json answered 200 with the body `null`, and fetchMessageThreads passed \
                an error (\(oneLine(error))). An empty database is not an error, it is an empty list: decode \
                `[String: MessageThread]?.self` (null decodes as nil; use `?? [:]`), or check for `null` before decoding, \
                then set `messageThreads` to [] and call completion(nil). See LESSONS.md §4.3.
                """
        }
        if case .typeMismatch(let type, let context) = error, context.codingPath.isEmpty, "\(type)".hasPrefix("Array") {
            return """
                fetchMessageThreads decoded the database as an array, but GET /.json answers an object keyed by \
                thread identifiers ({"695398C4-…": {…}, …}), and decoding failed (\(oneLine(error))). Decode \
                `[String: MessageThread]` and take its `.values`. See LESSONS.md §4.2.
                """
        }
        let path = Self.codingPath(of: error).map(\.stringValue).joined(separator: ".")
        return """
            fetchMessageThreads got 200 and the database (\(shortBody)), but its decoding failed\
            \(path.isEmpty ? "" : " at \(path)") (\(oneLine(error))). The body is an object: thread identifier → \
            thread. Decode `[String: MessageThread]?.self` with a plain JSONDecoder() and the given MessageThread model. \
            See LESSONS.md §4.2.
            """
    }

    /// Stops the test unless `actual` holds exactly `expected`'s threads, each once and equal (messages included).
    func checkSameThreads(_ actual: [MessageThread], expected: [MessageThread], before: [MessageThread],
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = Self.fetch.reference
        if actual.isEmpty && !expected.isEmpty {
            throw fail("""
                fetchMessageThreads called completion(nil), but `messageThreads` is empty; the database holds \
                \(expected.count) thread(s). Assign the sorted threads to `self.messageThreads` before calling \
                completion(nil): the caller reads the list as soon as completion runs. See \(reference).
                """, file: file, line: line)
        }
        if !before.isEmpty && actual.count == before.count + expected.count {
            throw fail("""
                After a second fetch `messageThreads` holds \(actual.count) threads: the \(before.count) from before \
                plus the \(expected.count) fetched. A fetch gets the whole database, so it replaces the list \
                (`self.messageThreads = sorted`), it does not append to it. See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        let expectedByID = Dictionary(uniqueKeysWithValues: expected.map { ($0.identifier, $0) })
        let actualIDs = actual.map(\.identifier)
        if actual.count != expected.count || Set(actualIDs) != Set(expectedByID.keys) {
            let missing = expected.filter { !actualIDs.contains($0.identifier) }.map(\.title)
            let extra = actual.filter { expectedByID[$0.identifier] == nil }.map(\.title)
            throw fail("""
                After fetchMessageThreads `messageThreads` holds \(actual.count) thread(s); the database holds \
                \(expected.count). Missing: \(Self.list(missing)); not in the database: \(Self.list(extra)). \
                Keep every value of the decoded dictionary, once, and nothing else. See \(reference).
                """, file: file, line: line)
        }
        for thread in actual {
            guard let wanted = expectedByID[thread.identifier], thread != wanted else { continue }
            throw fail("""
                The fetched thread \(thread.identifier) is not the one in the database: got "\(thread.title)" with \
                \(thread.messages.count) message(s), expected "\(wanted.title)" with \(wanted.messages.count). Keep the \
                threads exactly as the given MessageThread decoder made them. See \(reference).
                """, file: file, line: line)
        }
    }

    /// Stops the test unless `actual` is in title order, saying which order it is in instead.
    func checkSortedByTitle(_ actual: [MessageThread], expected: [MessageThread],
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let titles = actual.map(\.title)
        let wanted = expected.map(\.title)
        guard titles != wanted else { return }
        let byIdentifier = expected.sorted { $0.identifier < $1.identifier }.map(\.title)
        let localized = wanted.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let why: String
        // With two threads any wrong order is also "backwards" and may be "by identifier": name those only from three on.
        if titles.count >= 3 && titles == byIdentifier {
            why = "They are sorted by identifier (the dictionary's keys), not by title: sort the values with `$0.title < $1.title`."
        } else if titles.count >= 3 && titles == wanted.reversed() {
            why = "They are sorted by title backwards (Z to A): use `<`, not `>`."
        } else if titles == localized && localized != wanted {
            why = "They are sorted with a localized comparison; this exercise wants String's own `<` (`$0.title < $1.title`), which orders by Unicode scalar values, the same on every machine."
        } else {
            why = "They are not in title order (A to Z): a dictionary's `values` come in no particular order, and a different one each run. Sort them: `.sorted { $0.title < $1.title }`."
        }
        throw fail("""
            After fetchMessageThreads the titles in `messageThreads` start \(Self.list(titles.prefix(5))); sorted by \
            title they start \(Self.list(wanted.prefix(5))). \(why) See LESSONS.md §4.2.
            """, file: file, line: line)
    }

    /// Fails (without stopping) unless `messageThreads` is still `before` after a fetch that failed.
    func checkListKept(_ before: [MessageThread], after failure: String, file: StaticString = #filePath, line: UInt = #line) {
        let now = controller.messageThreads
        guard now != before else { return }
        let what = now.isEmpty ? "is now empty" : "now holds \(now.count) thread(s)"
        XCTFail("""
            `messageThreads` held \(before.count) threads from the last successful fetch; after a fetch that failed \
            (\(failure)) it \(what). A failed fetch tells you nothing new about the database, so keep the list: assign \
            to `messageThreads` only on the success path, after every check — never clear it at the start. \
            See LESSONS.md §4.5.
            """, file: file, line: line)
    }

    static func codingPath(of error: DecodingError) -> [CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath
        @unknown default:
            return []
        }
    }

    static func list<S: Sequence>(_ titles: S) -> String where S.Element == String {
        let all = Array(titles)
        return all.isEmpty ? "(none)" : "[" + all.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
}

/// A Lesson 4 fixture that cannot serve as expected data.
struct FixtureProblem: Error, CustomStringConvertible {
    let description: String
}
