import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson4

/// Lesson 4's tests share this: an emulator loaded with the course's sample database, a controller pointed at it,
/// the recorded databases, and the checks that name a learner's mistake from what the emulator and the caller saw.
///
/// Lesson-local helpers (not in LabTestSupport): `fetch` records what the completion saw and what the list held
/// while the request was in flight, and waits for the handler to finish; `requireFetchSucceeded` prefixes "setup: "
/// when the fetch is a test's setup rather than its subject.
class Lesson4TestCase: LabTestCase {
    static let fetch = Exercise("fetchMessageThreads(completion:)", section: "4.6")
    /// Given, solved (Lesson 1): used to write data that the learner's fetch must read back.
    static let createThread = Exercise("createMessageThread(title:completion:) (given)", section: "1.3")
    static let createMessage = Exercise("createMessage(messageThread:text:sender:completion:) (given)", section: "1.4")

    /// The original course's sample: one thread, "REST APIs", with one message.
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"

    /// Every answer comes this long after the emulator received the request, so a completion called before the
    /// answer (after `resume()`, outside the handler) is seen as such in every test, every run — never timing luck.
    static let defaultLatency: TimeInterval = 0.05

    var emulator: FirebaseEmulator!
    var controller: MessageThreadController!
    /// `messageThreads` as the last fetch's completion handler saw it when first called.
    private(set) var listSeenByCompletion: [MessageThread]?
    /// `messageThreads` while the last fetch's request was on its way (received by the emulator, not yet answered).
    private(set) var listWhileInFlight: [MessageThread]?

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = FirebaseEmulator(database: try Self.sampleDatabase())
        emulator.latency = Self.defaultLatency
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

    /// The class database a while later: three of its threads deleted (the sample thread among them), one added,
    /// and one of the others with a message posted since. A fetch of it after a fetch of the class database must drop
    /// the three and bring the new message: it replaces, it does not merge or keep the old thread objects.
    static func classDatabaseLater() throws -> (database: JSONValue, deleted: [String]) {
        guard var threads = try classDatabase().objectValue else {
            throw FixtureProblem(description: "Fixtures/lesson4/class-database.json is not an object")
        }
        let deleted = [sampleThreadID] + threads.keys.filter { $0 != sampleThreadID }.sorted().prefix(2)
        for key in deleted { threads[key] = nil }
        guard let answered = threads.keys.sorted().first(where: { threads[$0]?["messages"].objectValue != nil }),
              var thread = threads[answered]?.objectValue, var messages = thread["messages"]?.objectValue else {
            throw FixtureProblem(description: "Fixtures/lesson4/class-database.json has no thread with messages")
        }
        messages["-LKZ3f0aQbHgc1Ur5oPd"] = ["sender": "Lin", "text": "Posted since the first fetch", "timestamp": 5.56700000234567E8]
        thread["messages"] = .object(messages)
        threads[answered] = .object(thread)
        let added = "0B9F7C1E-5D2A-4E8B-9C3F-7A1D2E3F4B5C"
        threads[added] = [
            "identifier": .string(added),
            "title": "Added after the first fetch",
            "messages": ["-LKZ1d9vQxHfa0Tq3mNb": ["sender": "Kwame", "text": "New thread!", "timestamp": 5.56700000123456E8]],
        ]
        return (.object(threads), deleted)
    }

    /// The course's sample database a while later: the same thread, with a second message posted since. Nothing but
    /// the messages changed — not the number of threads, not their identifiers or titles — so a fetch of it after a
    /// fetch of the sample shows whether the list is replaced on every success, or only when it "looks changed".
    static func sampleWithANewMessage() throws -> JSONValue {
        guard var threads = try sampleDatabase().objectValue, var thread = threads[sampleThreadID]?.objectValue,
              var messages = thread["messages"]?.objectValue else {
            throw FixtureProblem(description: "Fixtures/databases/message-board-sample.json has no sample thread with messages")
        }
        messages["-LKb7Qw2xRf9Tz1Hc3Ma"] = ["sender": "Grace", "text": "And it still works a day later", "timestamp": 5.5549227e8]
        thread["messages"] = .object(messages)
        threads[sampleThreadID] = .object(thread)
        return .object(threads)
    }

    /// The course's sample database and a second thread titled "REST APIs" like the first (another identifier,
    /// another message): two threads that only their identifiers tell apart.
    static func sampleWithASecondThreadOfTheSameTitle() throws -> JSONValue {
        guard var threads = try sampleDatabase().objectValue else {
            throw FixtureProblem(description: "Fixtures/databases/message-board-sample.json is not an object")
        }
        let second = "5D1E2F3A-4B5C-4D6E-8F70-8192A3B4C5D6"
        threads[second] = [
            "identifier": .string(second),
            "title": "REST APIs",
            "messages": ["-LKa2Zt7xq1bQd0Rm4Vw": ["sender": "Priya", "text": "Same title, another thread", "timestamp": 5.56800000654321E8]],
        ]
        return .object(threads)
    }

    /// The identifier of the thread in `sampleWithAThreadThatDoesNotDecode` that has no title.
    static let undecodableThreadID = "7E3A1B2C-9D4F-4A5B-8C6D-0E1F2A3B4C5D"

    /// The course's sample database and a thread written by hand in the console, without its `title`: the given
    /// MessageThread does not decode it, so the whole answer does not decode.
    static func sampleWithAThreadThatDoesNotDecode() throws -> JSONValue {
        try withAThreadThatDoesNotDecode(try sampleDatabase(), named: "Fixtures/databases/message-board-sample.json")
    }

    /// `database` and the thread without a `title` of `sampleWithAThreadThatDoesNotDecode`.
    static func withAThreadThatDoesNotDecode(_ database: JSONValue, named name: String) throws -> JSONValue {
        guard var threads = database.objectValue else {
            throw FixtureProblem(description: "\(name) is not an object")
        }
        threads[undecodableThreadID] = [
            "identifier": .string(undecodableThreadID),
            "messages": ["-LKc4Hn8yTq2Wz0Pb5Xe": ["sender": "Ola", "text": "Written in the console", "timestamp": 5.56900000345678E8]],
        ]
        return .object(threads)
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

    /// Calls the learner's fetch on `controller` (or another one) and returns what its completion got; the helper
    /// checks it was called exactly once, in time, and not before the server answered. It then lets the data task's
    /// handler (and anything it sent to the main queue) finish, so the list is read as the caller will see it.
    ///
    /// `holdingTheMainQueue`: keep the main queue from running anything until the completion has been called (for at
    /// most 1.5 s), so what the completion sees does not depend on whether a block the code sent to the main queue
    /// happened to run first. Code that calls its completion on the main queue simply runs once the hold ends.
    func fetch(with fetcher: MessageThreadController? = nil, holdingTheMainQueue: Bool = false,
               file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        let fetcher = fetcher ?? controller!
        listSeenByCompletion = nil
        listWhileInFlight = nil
        let requestsBefore = emulator.requests.count
        let completed = Flag()
        let calledBack = DispatchSemaphore(value: 0)
        var seen: [MessageThread]?
        var firstError: Error?
        let error: Error? = try awaitCompletion(of: Self.fetch, on: emulator, file: file, line: line) { done in
            fetcher.fetchMessageThreads { error in
                if completed.setOnce() {
                    seen = fetcher.messageThreads
                    firstError = error
                    calledBack.signal()
                }
                done(error)
            }
            if holdingTheMainQueue {
                _ = calledBack.wait(timeout: .now() + 1.5)
                return
            }
            // The emulator answers `latency` after it received the request: look at the list in between.
            let deadline = Date(timeIntervalSinceNow: 0.3)
            while !completed.isSet && emulator.requests.count == requestsBefore && Date() < deadline {
                RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002))
            }
            if !completed.isSet && emulator.requests.count > requestsBefore {
                listWhileInFlight = fetcher.messageThreads
            }
            // A cancelled request ends at once, long before the emulator's answer (URLError.cancelled, or a Swift
            // CancellationError from async code): name the cancelling, before that early completion is reported.
            let cancelWindow = Date(timeIntervalSinceNow: min(emulator.latency, 0.2) * 0.8)
            while !completed.isSet && Date() < cancelWindow {
                RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002))
            }
            if completed.isSet, Self.wasCancelled(firstError) {
                XCTFail("""
                    fetchMessageThreads's completion got \(firstError.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil") \
                    before the server answered: the request was cancelled — by `task.cancel()`, by \
                    `session.invalidateAndCancel()`, or because the Task awaiting it was cancelled. Nothing may cancel \
                    the fetch's own request: let the data task run until the server answers, and never invalidate the \
                    injected `session` (it is not yours: the app and the tests use it again). See LESSONS.md §4.6.
                    """, file: file, line: line)
                return
            }
            // A request sent elsewhere (URLSession.shared, another host) fails at once, so its completion comes
            // before any answer from the emulator: say where it went, before that early completion is reported.
            if completed.isSet && emulator.requests.count == requestsBefore {
                if let wrongPlace = TrafficReport(emulator).wrongPlace(Self.fetch, baseURL: emulator.baseURL) {
                    XCTFail(wrongPlace, file: file, line: line)
                } else if Self.holdsError(firstError as Any, where: UnsendableURL.matches) != nil {
                    // A URL no session can send (a file URL, no scheme or host, percent-encoded whole, a guard of the
                    // learner's own): awaitCompletion names it from the URL the error holds, so nothing is said here.
                } else if let urlError = Self.urlError(in: firstError) {
                    XCTFail("""
                        fetchMessageThreads's completion got \(firstError is URLError ? "" : "an error caused by ")\
                        URLError(\(urlError.code.rawValue)) although no request reached the emulator through the \
                        controller's `session`: the request went elsewhere (a session of your own, `Data(contentsOf:)`, \
                        or a URL not built from `baseURL`). Use `session.dataTask(with:)` with a URL built from \
                        `baseURL`. See LESSONS.md §4.6.
                        """, file: file, line: line)
                }
            }
        }
        settle()
        listSeenByCompletion = seen
        return error
    }

    /// True when `error` says a request was cancelled: URLError.cancelled (or the NSError it bridges to), or a Swift
    /// CancellationError.
    static func wasCancelled(_ error: Error?) -> Bool {
        guard let error = error else { return false }
        if error is CancellationError { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == URLError.Code.cancelled.rawValue
    }

    /// The URLError `error` is, or holds — as an underlying error (`Data(contentsOf:)` wraps a failed download in a
    /// CocoaError), or inside a Result or an error enum of the learner's own (`holdsError`) — or nil.
    static func urlError(in error: Error?) -> URLError? {
        guard let error = error,
              let found = holdsError(error, where: { ($0 as NSError).domain == NSURLErrorDomain }) else { return nil }
        if let urlError = found as? URLError { return urlError }
        let code: URLError.Code? = URLError.Code(rawValue: (found as NSError).code)  // failable on Linux only
        return URLError(code ?? .unknown)
    }

    /// Waits (briefly) until the emulator session's queue has run everything queued so far, then runs the main queue.
    func settle() { settle(emulator.session) }

    /// Stops the test unless the fetch that returned `error` sent `GET <baseURL>/.json` and succeeded, naming the
    /// mistake when not. `setup`: what the test needed the fetch for, when the fetch is not the test's subject —
    /// the message then starts "setup: ".
    func requireFetchSucceeded(_ error: Error?, setup: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        func stop(_ why: String) -> TestStopped {
            guard let setup = setup else { return fail(why, file: file, line: line) }
            return fail("setup: \(setup) needs a fetch that succeeds, and it failed: \(why)", file: file, line: line)
        }
        let traffic = TrafficReport(emulator)
        if let wrongPlace = traffic.wrongPlace(Self.fetch, baseURL: emulator.baseURL) {
            throw stop(wrongPlace)
        }
        guard traffic.received.count == 1, let request = traffic.received.first else {
            throw stop("fetchMessageThreads should send exactly one request; the emulator received \(traffic.received.count): \(traffic.summary). See LESSONS.md §4.6.")
        }
        if let wrong = Self.wrongRequest(request) {
            throw stop(wrong)
        }
        if let download = traffic.downloadTaskOnLinux(Self.fetch, see: "LESSONS.md §4.1") { throw stop(download) }
        if let decoding = error as? DecodingError, request.response.statusCode == 200 {
            throw stop(Self.explain(decoding, answer: request))
        }
        if let error = error, request.response.statusCode == 200, Self.answeredNull(request) {
            throw stop(Self.nullIsNotAnError(error))
        }
        if let error = error {
            throw stop("""
                the emulator answered \(request.summary), yet fetchMessageThreads passed an error to its completion: \
                \(oneLine(error)). A 200 whose body decodes is a success: completion(nil). See LESSONS.md §4.6.
                """)
        }
    }

    /// Fetches `database` (loaded into the emulator) and stops the test unless the fetch succeeded.
    func fetchSuccessfully(_ database: JSONValue, with fetcher: MessageThreadController? = nil, setup: String? = nil,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        emulator.load(database)
        emulator.clearRequests()
        let error = try fetch(with: fetcher, file: file, line: line)
        try requireFetchSucceeded(error, setup: setup, file: file, line: line)
    }

    /// A test's setup: fetches the sample database and stops the test ("setup: …") unless the fetch succeeded and
    /// left its thread in `messageThreads`. Returns the list, for the test to compare with later.
    func fetchTheSampleFirst(for purpose: String, file: StaticString = #filePath, line: UInt = #line) throws -> [MessageThread] {
        try fetchSuccessfully(try Self.sampleDatabase(), setup: purpose, file: file, line: line)
        let list = controller.messageThreads
        guard !list.isEmpty else {
            throw fail("""
                setup: \(purpose) needs a list to start from, but after a successful fetch of the sample database \
                (one thread) `messageThreads` is empty: assign the fetched threads to `self.messageThreads`. \
                See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        emulator.clearRequests()
        return list
    }

    func createThread(title: String, file: StaticString = #filePath, line: UInt = #line) throws -> MessageThread {
        let error: Error? = try awaitCompletion(of: Self.createThread, on: emulator, file: file, line: line) { done in
            controller.createMessageThread(title: title, completion: done)
        }
        try requireSuccess(error, of: Self.createThread, on: emulator, file: file, line: line)
        guard let thread = controller.messageThreads.last, thread.title == title else {
            throw fail("setup: the given createMessageThread did not add its thread to `messageThreads`: is MessageThreadController.swift unchanged? See LESSONS.md §1.3.", file: file, line: line)
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

    /// Says what is wrong with the fetch's request, as Firebase would read it, or nil when it reads the whole
    /// database: a GET of the root path with `.json` (any spelling: `/.json`, `//.json`), without a body, and
    /// without a query that changes the answer.
    static func wrongRequest(_ request: RecordedRequest) -> String? {
        if request.method != "GET" {
            return """
                fetchMessageThreads sent \(request.summary). Reading is a GET: it asks for the data at the URL and \
                changes nothing (a PUT or POST would write to the database). See LESSONS.md §4.1.
                """
        }
        if !request.hasJSONSuffix {
            // The URL is `baseURL` itself: `.json` added to a copy (a discarded result), or too late (to a URLRequest
            // changed after the task was made)?
            let late = request.path == "/" ? """
                 (`appendingPathExtension` returns a new URL and leaves the one it is called on as it was: use its \
                result, `let url = baseURL.appendingPathExtension("json")`, or call the mutating \
                `appendPathExtension` on a `var`. If your code adds it to the request after making the data task: \
                URLRequest is a struct, so the task keeps the copy it was given.)
                """ : ""
            return """
                fetchMessageThreads sent \(request.summary): the URL \(request.url.absoluteString) lacks `.json`, so \
                Firebase answers "append .json to your request URI" instead of data. The whole database is at \
                <baseURL>/.json.\(late) See LESSONS.md §4.1.
                """
        }
        if request.path == "/." {
            return """
                fetchMessageThreads sent \(request.summary): the URL \(request.url.absoluteString) ends in `..json`, \
                which Firebase reads as a path named ".", not the root. `appendingPathExtension` takes the extension \
                without its dot: `baseURL.appendingPathExtension("json")` gives <baseURL>/.json. See LESSONS.md §4.1.
                """
        }
        if request.path != "/" {
            return """
                fetchMessageThreads asked for \(request.path).json (\(request.summary)), but the threads are the \
                database's top-level children: fetch the root, <baseURL>/.json. (A path that holds nothing answers \
                `null`.) See LESSONS.md §4.1.
                """
        }
        if let query = changingQuery(request) {
            return """
                fetchMessageThreads sent \(request.summary): the query `\(query)` changes what Firebase answers. \
                Fetch the whole database with a plain <baseURL>/.json. See LESSONS.md §4.1.
                """
        }
        if let body = request.body, !body.isEmpty {
            return "fetchMessageThreads sent a body with its GET (\(request.summary)). A GET asks, it carries nothing: no `httpBody`. See LESSONS.md §4.1."
        }
        if let accept = request.header("Accept"), accept.lowercased().contains("text/event-stream") {
            return """
                fetchMessageThreads sent \(request.summary) with `Accept: \(accept)`: that header asks Firebase for a \
                live stream of events, not for the data. Firebase then keeps the answer open and sends an event at \
                every change, so a data task never finishes and its handler never runs. A fetch is one plain GET: \
                leave `Accept` out (or ask for `application/json`). See LESSONS.md §4.1.
                """
        }
        return nil
    }

    /// The query parameters of `request` that change the answer (all but `print=pretty`, an `orderBy` without a
    /// filter that Firebase answered with 200: a REST answer is an object, unordered, so it is the same, and a valid
    /// `timeout`), or nil.
    static func changingQuery(_ request: RecordedRequest) -> String? {
        let filters = ["startAt", "endAt", "equalTo", "limitToFirst", "limitToLast"]
        let answered = request.response.statusCode == 200
        let orderOnly = answered && !request.query.keys.contains(where: filters.contains)
        // `timeout=10s` limits how long the read may take on the server; a valid one (answered 200) changes nothing.
        let changing = request.query.filter {
            !($0.key == "print" && $0.value == "pretty") && !($0.key == "orderBy" && orderOnly) && !($0.key == "timeout" && answered)
        }
        guard !changing.isEmpty else { return nil }
        return changing.keys.sorted().map { "\($0)=\(changing[$0]!)" }.joined(separator: "&")
    }

    /// True when the emulator answered `request` with the body `null`: the empty database.
    static func answeredNull(_ request: RecordedRequest) -> Bool {
        (request.response.bodyText ?? "").trimmingCharacters(in: .whitespacesAndNewlines) == "null"
    }

    /// Says that `error`, passed on for the answer `null`, should have been an empty list and success.
    static func nullIsNotAnError(_ error: Error) -> String {
        // JSONSerialization refuses a top-level `null` (error 3840) unless told `.fragmentsAllowed`: code that checks
        // for NSNull afterwards never gets there.
        let parser = isJSONParserError(error) ? """
             JSONSerialization refuses a top-level `null` unless you pass `options: .fragmentsAllowed`; with it, \
            `null` is NSNull, which means no threads.
            """ : ""
        return """
        The database is empty, so GET /.json answered 200 with the body `null`, and fetchMessageThreads passed \
        an error (\(oneLine(error))).\(parser) An empty database is not an error, it is an empty list: `null` must \
        give `messageThreads == []` and completion(nil). See LESSONS.md §4.3.
        """
    }

    /// True when `error` is the error JSONSerialization throws for text that is not JSON (NSCocoaErrorDomain 3840).
    static func isJSONParserError(_ error: Error?) -> Bool {
        guard let error = error, !(error is DecodingError) else { return false }
        let nsError = error as NSError
        return nsError.domain == NSCocoaErrorDomain && nsError.code == CocoaError.Code.propertyListReadCorrupt.rawValue
    }

    /// Explains a DecodingError the fetch passed on although the emulator answered 200 with `answer`'s body.
    static func explain(_ error: DecodingError, answer request: RecordedRequest) -> String {
        let body = request.response.bodyText ?? ""
        let shortBody = body.count <= 120 ? oneLine(body) : oneLine(body.prefix(120)) + "…"
        if answeredNull(request) {
            return nullIsNotAnError(error)
        }
        if case .typeMismatch(let type, let context) = error, context.codingPath.isEmpty, "\(type)".hasPrefix("Array") {
            return """
                fetchMessageThreads decoded the database as an array, but GET /.json answers an object keyed by \
                thread identifiers ({"695398C4-…": {…}, …}), and decoding failed (\(oneLine(error))). Decode a \
                dictionary from identifier to MessageThread and take its values: `[String: MessageThread]`. (A \
                dictionary whose keys are not String or Int, such as `[UUID: MessageThread]`, is read by JSONDecoder \
                as an array of keys and values, and fails the same way.) See LESSONS.md §4.2.
                """
        }
        if case .keyNotFound(let key, let context) = error, context.codingPath.isEmpty,
           ["title", "identifier"].contains(key.stringValue) {
            return """
                fetchMessageThreads decoded the database as one MessageThread, and decoding failed because the \
                answer has no `\(key.stringValue)` of its own (\(oneLine(error))). GET /.json answers every thread: \
                an object keyed by thread identifiers ({"695398C4-…": {…}, …}). Decode `[String: MessageThread]` \
                and take its values. See LESSONS.md §4.2.
                """
        }
        if case .keyNotFound(let key, let context) = error, context.codingPath.isEmpty {
            return """
                fetchMessageThreads decoded the database as an object with a key `\(key.stringValue)` holding the \
                threads, and decoding failed because the answer has no such key (\(oneLine(error))). Firebase wraps \
                nothing: GET /.json answers the threads themselves, the database's top-level children, keyed by \
                thread identifiers ({"695398C4-…": {…}, …}). Decode `[String: MessageThread]` and take its values. \
                See LESSONS.md §4.2.
                """
        }
        var failedAt = Self.codingPath(of: error)
        if case .keyNotFound(let key, _) = error { failedAt.append(key) }
        if failedAt.count >= 2, failedAt[1].stringValue == "messages" {
            let path = failedAt.map(\.stringValue).joined(separator: ".")
            return """
                Decoding a thread's `messages` failed (at \(path)). A plain JSONDecoder() and the given MessageThread \
                read them: no dateDecodingStrategy (timestamps are seconds since 2001, §2.5), and Lesson 3's model \
                (§3.1), which reads messages keyed by push IDs or absent. (\(oneLine(error))) See LESSONS.md §4.2.
                """
        }
        let path = Self.codingPath(of: error).map(\.stringValue).joined(separator: ".")
        return """
            fetchMessageThreads got 200 and the database (\(shortBody)), but its decoding failed\
            \(path.isEmpty ? "" : " at \(path)") (\(oneLine(error))). The body is an object: thread identifier → \
            thread. Decode it with a plain JSONDecoder() and the given MessageThread model. See LESSONS.md §4.2.
            """
    }

    /// Stops the test unless `actual` holds exactly `expected`'s threads, each once and equal on every field
    /// (title, identifier, every message's text, sender and timestamp). Order is not checked here.
    /// `before`: the list before the fetch, to recognise appending and merging.
    func checkSameThreads(_ actual: [MessageThread], expected: [MessageThread], before: [MessageThread] = [],
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let expectedByID = Dictionary(expected.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let actualIDs = actual.map(\.identifier)
        if actual.isEmpty && !expected.isEmpty {
            throw fail("""
                fetchMessageThreads succeeded, but `messageThreads` is empty; the database holds \(expected.count) \
                thread(s). Assign the fetched threads to `self.messageThreads` on success. See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        if !before.isEmpty, actualIDs.sorted() == (before.map(\.identifier) + expected.map(\.identifier)).sorted() {
            throw fail("""
                After a second fetch `messageThreads` holds \(actual.count) threads: the \(before.count) from before \
                plus the \(expected.count) fetched. A fetch gets the whole database, so it replaces the list; it does \
                not append to it. See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        if !before.isEmpty, actual.count == before.count, expected.count < before.count,
           Set(actualIDs.prefix(expected.count)) == Set(expectedByID.keys),
           Array(actualIDs.dropFirst(expected.count)) == before.dropFirst(expected.count).map(\.identifier) {
            let left = before.dropFirst(expected.count)
            throw fail("""
                After the second fetch `messageThreads` holds \(actual.count) threads: the \(expected.count) fetched, then \
                \(Self.list(left.map(\.title))), the last \(left.count) of the first fetch's list, left at the end. The \
                fetched threads were written over the old list row by row, and the rows past the new count were never \
                removed: a thread deleted on the server stays, or shows twice. A successful fetch replaces the whole \
                list: `self.messageThreads = sorted` (or remove the rows past the new count). See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        let counts = Dictionary(actualIDs.map { ($0, 1) }, uniquingKeysWith: +)
        if let twice = counts.first(where: { $0.value > 1 }) {
            throw fail("""
                After fetchMessageThreads `messageThreads` holds the thread \(twice.key) \(twice.value) times; the \
                database has it once. Keep each value of the decoded dictionary once. See LESSONS.md §4.2.
                """, file: file, line: line)
        }
        let beforeIDs = Set(before.map(\.identifier))
        let stale = actual.filter { expectedByID[$0.identifier] == nil && beforeIDs.contains($0.identifier) }
        if !stale.isEmpty {
            throw fail("""
                After the second fetch `messageThreads` still holds \(Self.list(stale.map(\.title))), kept from the \
                first fetch, although the database no longer has \(stale.count == 1 ? "that thread" : "those threads"). \
                A successful fetch knows the whole database: it replaces the list, it does not merge the new threads \
                into the old ones. See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        if Set(actualIDs) != Set(expectedByID.keys) {
            let missing = expected.filter { !actualIDs.contains($0.identifier) }.map(\.title)
            let extra = actual.filter { expectedByID[$0.identifier] == nil }.map(\.title)
            throw fail("""
                After fetchMessageThreads `messageThreads` holds \(actual.count) thread(s); the database holds \
                \(expected.count). Missing: \(Self.list(missing)); not in the database: \(Self.list(extra)). \
                Keep every value of the decoded dictionary, once, and nothing else. See LESSONS.md §4.2.
                """, file: file, line: line)
        }
        if !before.isEmpty, actual.count == before.count, zip(actual, before).allSatisfy({ $0 === $1 }),
           actual.contains(where: { thread in expectedByID[thread.identifier].map { !Self.same($0, thread) } ?? true }) {
            throw fail("""
                After the second fetch `messageThreads` is still the very list of the first fetch — the same \
                \(before.count) thread object(s) — although the database changed since (a message was posted): \
                the fetch succeeded, but its threads were not assigned. Code that assigns only when the list "looks \
                changed" (another number of threads, other identifiers) misses every other change. A successful \
                fetch replaces the list, always: `self.messageThreads = …`, then completion(nil). See LESSONS.md §4.5.
                """, file: file, line: line)
        }
        let beforeByID = Dictionary(before.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        for thread in actual.sorted(by: { $0.identifier < $1.identifier }) {
            guard let wanted = expectedByID[thread.identifier], !Self.same(thread, wanted) else { continue }
            if let old = beforeByID[thread.identifier], old === thread, thread.messages.count > wanted.messages.count {
                throw fail("""
                    After the second fetch the thread \(wanted.identifier) ("\(wanted.title)") is the object of the \
                    first fetch with \(thread.messages.count) message(s); the database has \(wanted.messages.count): \
                    the fetched messages were added to the ones it already held, so messages of the first fetch are \
                    there twice. A fetch brings every message of every thread: take the fetched thread as it is (or, to \
                    keep the old object, replace its messages: `old.messages = fetched.messages`). See LESSONS.md §4.5.
                    """, file: file, line: line)
            }
            if let old = beforeByID[thread.identifier], old == thread, thread.messages.count != wanted.messages.count {
                throw fail("""
                    After the second fetch the thread \(wanted.identifier) ("\(wanted.title)") is still the one from the \
                    first fetch, with \(thread.messages.count) message(s); the database now has \(wanted.messages.count) \
                    (a message was posted since). A successful fetch replaces every thread with the one it fetched, \
                    messages included: keeping the old thread objects (or only their messages) hides what changed on \
                    the server. See LESSONS.md §4.5.
                    """, file: file, line: line)
            }
            throw fail(Self.difference(thread, wanted), file: file, line: line)
        }
    }

    /// How far a fetched timestamp may be from the stored one and still be the same: one millisecond. A Date decoded
    /// by JSONDecoder is exact; one read by hand from JSONSerialization on Linux comes through NSDecimalNumber, whose
    /// `doubleValue` can be one unit in the last place off (5.562…E8 s ± 0.0000001 s): the same instant, as stored.
    static let timestampTolerance: TimeInterval = 0.001

    /// True when `got` is `wanted` as stored: the same title, identifier and messages (text, sender, and timestamp
    /// within `timestampTolerance`), in the same order.
    static func same(_ got: MessageThread, _ wanted: MessageThread) -> Bool {
        got.title == wanted.title && got.identifier == wanted.identifier && got.messages.count == wanted.messages.count
            && zip(got.messages, wanted.messages).allSatisfy { sameMessage($0, $1) }
    }

    static func sameMessage(_ got: MessageThread.Message, _ wanted: MessageThread.Message) -> Bool {
        got.text == wanted.text && got.sender == wanted.sender
            && abs(got.timestamp.timeIntervalSince(wanted.timestamp)) <= timestampTolerance
    }

    /// Which field of a fetched thread differs from the database's, in words.
    static func difference(_ got: MessageThread, _ wanted: MessageThread) -> String {
        let head = "The fetched thread \(wanted.identifier) (\"\(wanted.title)\") is not the one in the database:"
        let tail = "Keep the threads exactly as the given MessageThread decoder made them, with a plain JSONDecoder(). See LESSONS.md §4.2."
        if got.title != wanted.title {
            return "\(head) its title is \"\(got.title)\". \(tail)"
        }
        if got.messages.count != wanted.messages.count {
            return "\(head) it has \(got.messages.count) message(s); the database has \(wanted.messages.count). \(tail)"
        }
        func byContent(_ messages: [MessageThread.Message]) -> [MessageThread.Message] {
            messages.sorted { ($0.timestamp, $0.text, $0.sender) < ($1.timestamp, $1.text, $1.sender) }
        }
        if byContent(got.messages) == byContent(wanted.messages) {
            return """
                \(head) it has the same messages, in another order (its first is \
                \(got.messages.first.map { "\"\($0.text)\"" } ?? "none"), the database's oldest is \
                \(wanted.messages.first.map { "\"\($0.text)\"" } ?? "none")). The given model keeps `messages` oldest \
                first; leave them in that order (a view that shows the newest first can reverse them itself). \
                See LESSONS.md §4.2.
                """
        }
        let gotTimes = got.messages.map(\.timestamp), wantedTimes = wanted.messages.map(\.timestamp)
        if gotTimes != wantedTimes, got.messages.map(\.text) == wanted.messages.map(\.text),
           got.messages.map(\.sender) == wanted.messages.map(\.sender) {
            let (gotTime, wantedTime) = zip(gotTimes, wantedTimes).first { $0.0 != $0.1 } ?? (gotTimes.first ?? Date(), wantedTimes.first ?? Date())
            return """
                \(head) its messages have other timestamps (\(gotTime) where the database says \(wantedTime)). \
                \(timestampAdvice(got: gotTime, stored: wantedTime)) See LESSONS.md §4.2.
                """
        }
        return "\(head) its messages differ (got \(got.messages.map(\.text)), expected \(wanted.messages.map(\.text))). \(tail)"
    }

    /// Says why a fetched timestamp `got` differs from the stored one: the fraction of a second dropped (an Int), a
    /// Float's 7 digits, or the wrong reference date or strategy.
    static func timestampAdvice(got: Date, stored: Date) -> String {
        let gotSeconds = got.timeIntervalSinceReferenceDate, storedSeconds = stored.timeIntervalSinceReferenceDate
        let off = abs(gotSeconds - storedSeconds)
        if off < 1, gotSeconds == gotSeconds.rounded(), gotSeconds == storedSeconds.rounded(.towardZero) || gotSeconds == storedSeconds.rounded() {
            return """
                It is the stored time without its fraction of a second: the number was read as an Int (`intValue`, \
                `as? Int`) or rounded to whole seconds. The database stores seconds since 2001 with their fraction: \
                read it as a Double (`doubleValue`) and make it `Date(timeIntervalSinceReferenceDate:)` — or let a \
                plain JSONDecoder() read the Date.
                """
        }
        if off < 64, Double(Float(gotSeconds)) == gotSeconds {
            return """
                It is the stored time as a Float holds it: a Float keeps about 7 significant digits and the \
                timestamp has 15, so it comes back \(Int(off.rounded())) s off. Read the number as a Double \
                (`doubleValue`, `as? Double`), never `floatValue` — or let a plain JSONDecoder() read the Date.
                """
        }
        return """
            A plain JSONDecoder() reads a Date as the database stores it, seconds since 1 January 2001: do not set a \
            dateDecodingStrategy (and reading the number yourself, make it `Date(timeIntervalSinceReferenceDate:)`, \
            not `timeIntervalSince1970`).
            """
    }

    /// Orders a learner might sort by instead of String's `<`, each with the words that name it.
    static func knownOrders(of threads: [MessageThread]) -> [(name: String, titles: [String])] {
        let titles = threads.map(\.title)
        func by(_ before: (String, String) -> Bool) -> [String] { titles.sorted(by: before) }
        return [
            ("sorted by identifier (the dictionary's keys), not by title: sort by `title`",
             threads.sorted { $0.identifier < $1.identifier }.map(\.title)),
            ("sorted by identifier (the dictionary's keys) and backwards, not by title: sort by `title`, ascending",
             threads.sorted { $0.identifier > $1.identifier }.map(\.title)),
            ("sorted by title backwards (descending, Z to A): this exercise wants A to Z, with `<`", by(>)),
            ("sorted case-insensitively (lower-cased or upper-cased titles); this exercise sorts by the titles as they are, with String's own `<`, so \"Zebra\" comes before \"apple\"",
             by { $0.lowercased() < $1.lowercased() }),
            ("sorted case-insensitively; this exercise sorts by the titles as they are, with String's own `<`, so \"Zebra\" comes before \"apple\"",
             by { $0.uppercased() < $1.uppercased() }),
            ("sorted case-insensitively (`caseInsensitiveCompare`); this exercise sorts with String's own `<`, so \"Zebra\" comes before \"apple\"",
             by { $0.caseInsensitiveCompare($1) == .orderedAscending }),
            ("sorted with a localized comparison (`localizedStandardCompare`); this exercise wants String's own `<`, which orders by Unicode scalar values, the same on every machine",
             by { $0.localizedStandardCompare($1) == .orderedAscending }),
            ("sorted with a localized comparison (`localizedCompare`); this exercise wants String's own `<`, which orders by Unicode scalar values, the same on every machine",
             by { $0.localizedCompare($1) == .orderedAscending }),
            ("sorted with a localized comparison (`localizedCaseInsensitiveCompare`); this exercise wants String's own `<`, the same on every machine",
             by { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }),
            ("sorted case- and diacritic-insensitively (`.caseInsensitive, .diacriticInsensitive`); this exercise sorts with String's own `<`, so \"Zebra\" comes before \"apple\" and \"Émile\" after both",
             by { $0.compare($1, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedAscending }),
            ("sorted case- and diacritic-insensitively (`folding(options: [.caseInsensitive, .diacriticInsensitive], …)`); this exercise sorts with String's own `<`, so \"Zebra\" comes before \"apple\" and \"Émile\" after both",
             by { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) < $1.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }),
            ("sorted with Foundation's `compare(_:)`, which orders some characters differently from String's `<`; use `<`",
             by { $0.compare($1) == .orderedAscending }),
        ]
    }

    /// Stops the test unless `actual` is in title order (String's `<`), naming the order it is in instead — only an
    /// order it has checked. Call it with many threads (the class database): with two, a wrong order is luck.
    func checkSortedByTitle(_ actual: [MessageThread], expected: [MessageThread],
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let titles = actual.map(\.title)
        let wanted = expected.map(\.title)
        guard titles != wanted else { return }
        let why: String
        if let known = Self.knownOrders(of: expected).first(where: { $0.titles == titles && $0.titles != wanted }) {
            why = "They are \(known.name)."
        } else if !Self.isSortedByAnyComparison(titles), Self.isSortedByFirstCharacterOnly(titles) {
            why = """
                They are sorted by each title's first character only (`title.prefix(1)`, `title.first`): titles that \
                start with the same character stay in the dictionary's order, a different one each run. Compare whole \
                titles: `$0.title < $1.title`.
                """
        } else if !Self.isSortedByAnyComparison(titles) {
            why = """
                They are not sorted by title at all: a dictionary's `values` come in no particular order (a different \
                one each run), so sort them by title, A to Z, with String's `<`.
                """
        } else {
            why = "They are in an order of their titles, but not String's `<`; sort with `$0.title < $1.title`."
        }
        throw fail("""
            After fetchMessageThreads the titles in `messageThreads` are not in title order: they start \
            \(Self.list(titles.prefix(6))); sorted with String's `<` they start \(Self.list(wanted.prefix(6))). \
            \(why) See LESSONS.md §4.2.
            """, file: file, line: line)
    }

    /// True when `titles` is in ascending order of their first characters (String's `<`), as a sort on
    /// `title.prefix(1)` leaves them: ties in the dictionary's order.
    static func isSortedByFirstCharacterOnly(_ titles: [String]) -> Bool {
        let firsts = titles.map { String($0.prefix(1)) }
        return zip(firsts, firsts.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// True when `titles` is in ascending or descending order by some comparison of strings a learner might use.
    static func isSortedByAnyComparison(_ titles: [String]) -> Bool {
        let comparisons: [(String, String) -> ComparisonResult] = [
            { $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending },
            { $0.lowercased() < $1.lowercased() ? .orderedAscending : $0.lowercased() == $1.lowercased() ? .orderedSame : .orderedDescending },
            { $0.caseInsensitiveCompare($1) },
            { $0.localizedStandardCompare($1) },
            { $0.localizedCompare($1) },
            { $0.compare($1) },
            { $0.compare($1, options: [.caseInsensitive, .diacriticInsensitive]) },
        ]
        let pairs = zip(titles, titles.dropFirst())
        return comparisons.contains { compare in
            pairs.allSatisfy { compare($0, $1) != .orderedDescending } || pairs.allSatisfy { compare($0, $1) != .orderedAscending }
        }
    }

    /// Stops the test unless `error` is `HTTPStatusError` with `status`, naming what the fetch did instead.
    func checkHTTPStatusError(_ error: Error?, status: Int, answer: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = "See LESSONS.md §4.4."
        let sent = emulator.requests
        if sent.count > 1 {
            throw fail("""
                fetchMessageThreads sent \(sent.count) requests for one fetch (\(sent.map(\.summary).joined(separator: "; "))): \
                after the server answered \(answer) it asked again, and the completion got \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)"). One fetch is one GET: pass the \
                refusal to the completion as HTTPStatusError(statusCode:body:), and let the caller decide whether to \
                try again. \(reference)
                """, file: file, line: line)
        }
        guard let error = error else {
            throw fail("""
                The emulator answered \(answer), and fetchMessageThreads called completion(nil), as if it had \
                succeeded. URLSession counts an HTTP error status as a successful transfer (its `error` is nil): check \
                that the status code is in 200...299, and pass HTTPStatusError(statusCode:body:) when it is not. (If \
                your code does check it, the error is lost on its way to the completion: `completion(error)` in the \
                else of a guard that also checks the status passes the data task's `error`, which is nil whenever the \
                server answered; a `try?`, or a Result or catch whose error is dropped, makes every failure look like \
                success.) \(reference)
                """, file: file, line: line)
        }
        if let decoding = error as? DecodingError {
            throw fail("""
                The emulator answered \(answer), and fetchMessageThreads passed a DecodingError (\(oneLine(decoding))): \
                it decoded Firebase's error message as if it were the database, so the real cause is lost. Check the \
                status code BEFORE decoding, and pass HTTPStatusError(statusCode:body:) when it is outside 200...299. \
                (If your code does compare the status first, read the comparison again: \
                `statusCode < 200 && statusCode > 299` is never true, no status is both — that is `||`, or \
                `!(200...299).contains(statusCode)`.) \(reference)
                """, file: file, line: line)
        }
        guard let statusError = error as? HTTPStatusError else {
            throw fail("""
                The emulator answered \(answer), and fetchMessageThreads passed \(type(of: error)): \(oneLine(error)). \
                The contract names the error for a refusal: HTTPStatusError(statusCode:body:), with the status the \
                server answered, so the caller can tell "permission denied" from "server down". \(reference)
                """, file: file, line: line)
        }
        XCTAssertEqual(statusError.statusCode, status, """
            The emulator answered \(answer), and fetchMessageThreads passed HTTPStatusError with statusCode \
            \(statusError.statusCode). Pass the status the response has: `(response as? HTTPURLResponse)?.statusCode`. \
            \(reference)
            """, file: file, line: line)
    }

    /// Fails (without stopping) unless `messageThreads` is still `before` after a fetch that failed with `failure`,
    /// naming when the list changed: while the request was on its way (cleared at the start), or when it failed.
    func checkListKept(_ before: [MessageThread], after failure: String, file: StaticString = #filePath, line: UInt = #line) {
        let now = controller.messageThreads
        guard now != before else { return }
        let what = now.isEmpty ? "is now empty" : "now holds \(now.count) thread(s)"
        if let inFlight = listWhileInFlight, inFlight != before {
            XCTFail("""
                `messageThreads` held \(before.count) thread(s) from the last successful fetch; it already \
                \(inFlight.isEmpty ? "was empty" : "had changed") while the next fetch's request was on its way, \
                before the server answered (\(failure)), and it \(what). Do not clear or change the list when a fetch \
                starts: a fetch that then fails knows nothing new, so the list must stay as it was. Assign it only \
                on the success path. See LESSONS.md §4.5.
                """, file: file, line: line)
            return
        }
        XCTFail("""
            `messageThreads` held \(before.count) thread(s) from the last successful fetch; after a fetch that failed \
            (\(failure)) it \(what). A failed fetch tells you nothing new about the database, so leave the list as it \
            was: assign to `messageThreads` only on the success path, after every check. See LESSONS.md §4.5.
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

/// A flag set once, from any thread.
final class Flag {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock(); defer { lock.unlock() }
        return value
    }

    /// Sets the flag; true when this call set it (the first).
    func setOnce() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if value { return false }
        value = true
        return true
    }
}

/// A Lesson 4 fixture that cannot serve as expected data.
struct FixtureProblem: Error, CustomStringConvertible {
    let description: String
}
