import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson4

/// Exercise 4.6: `fetchMessageThreads(completion:)` GETs the whole database, decodes `[String: MessageThread]`,
/// and keeps its values, sorted by title, in `messageThreads`.
///
/// The tests are declared in the order a learner should fix them: the request, the completion, the threads, their
/// order, replacing the list, the empty database, when the list is set, then each failure. Every test checks one
/// behaviour; what it needs first is checked as setup ("setup: …"), and order is checked only where accidental order
/// is impossible (58 threads), everywhere else the threads are compared as sets.
final class FetchMessageThreadsTests: Lesson4TestCase {
    let exercise = Lesson4TestCase.fetch

    // MARK: The request

    func test_fetchMessageThreads_sendsOneRequestThroughTheInjectedSession() throws {
        _ = try fetch()
        _ = try onlyRequest(from: exercise, on: emulator)
    }

    /// A session made from the injected one's configuration reaches the same emulator (see `injectedSessionSent`).
    func test_fetchMessageThreads_sendsItsRequestWithTheInjectedSessionItself() throws {
        try requireSentByTheInjectedSession(exercise, on: emulator) { done in
            controller.fetchMessageThreads(completion: done)
        }
    }

    func test_fetchMessageThreads_usesGET() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        XCTAssertEqual(request.method, "GET", """
            fetchMessageThreads sent \(request.summary). Reading is a GET: it asks for the data at the URL and changes \
            nothing. See LESSONS.md §4.1.
            """)
    }

    func test_fetchMessageThreads_urlIsTheDatabaseRootWithJSONSuffix() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        if !request.hasJSONSuffix || request.path != "/" || Self.changingQuery(request) != nil, let wrong = Self.wrongRequest(request) {
            XCTFail(wrong)
        }
    }

    func test_fetchMessageThreads_sendsNoBody() throws {
        _ = try fetch()
        let request = try onlyRequest(from: exercise, on: emulator)
        XCTAssertTrue(request.body?.isEmpty ?? true, """
            fetchMessageThreads sent a body with its request (\(request.summary)). A GET asks, it carries nothing: \
            no `httpBody`. See LESSONS.md §4.1.
            """)
    }

    // MARK: The completion

    func test_fetchMessageThreads_callsCompletionOnceAfterTheServerAnswered() throws {
        emulator.latency = 0.3
        // awaitCompletion stops the test when completion comes before the answer, twice, or not at all.
        _ = try fetch()
    }

    /// URLSession's cache policies that answer from the cache without asking the server whether it still holds.
    /// The emulator's session caches nothing, so the request itself is looked at: the task's `originalRequest`.
    func test_fetchMessageThreads_asksTheServerNotTheCache() throws {
        emulator.latency = 0.3
        var policies: [URLRequest.CachePolicy] = []
        let _: Error? = try awaitCompletion(of: exercise, on: emulator) { done in
            controller.fetchMessageThreads(completion: done)
            // The task is listed while the emulator holds the answer back (`latency`).
            let deadline = Date(timeIntervalSinceNow: 0.25)
            while emulator.requests.isEmpty && Date() < deadline {
                RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
            }
            policies = (emulator.session.tasks(within: 0.2) ?? []).compactMap { $0.originalRequest?.cachePolicy }
        }
        let fromTheCache: [(URLRequest.CachePolicy, String)] = [
            (.returnCacheDataElseLoad, """
                `.returnCacheDataElseLoad` answers from URLSession's cache whenever it holds an answer for the URL, \
                however old, and asks the server only when it holds none
                """),
            (.returnCacheDataDontLoad, """
                `.returnCacheDataDontLoad` never asks the server: it answers from URLSession's cache, however old, and \
                fails when the cache holds nothing
                """),
        ]
        if let (policy, what) = fromTheCache.first(where: { policies.contains($0.0) }) {
            XCTFail("""
                fetchMessageThreads's request has cachePolicy \(policy == .returnCacheDataElseLoad ? ".returnCacheDataElseLoad" : ".returnCacheDataDontLoad"): \
                \(what). The tests' session caches nothing, so here the request still reached the emulator; in an app \
                (URLSession.shared keeps a cache) a refresh would show the first answer again, never a thread or \
                message added since. A fetch asks the server for the database as it is now: leave the request's \
                cachePolicy alone (or use .reloadIgnoringLocalCacheData). See LESSONS.md §4.1.
                """)
        }
    }

    // MARK: The threads

    func test_fetchMessageThreads_sampleDatabase_givesItsThreadWithEveryField() throws {
        try fetchSuccessfully(try Self.sampleDatabase())
        let threads = controller.messageThreads
        guard threads.count == 1, let thread = threads.first else {
            let unassigned = threads.isEmpty ? """
                 fetchMessageThreads called completion(nil), but the fetched threads never reached the property: \
                assign them to `self.messageThreads`. (A local variable of the same name, `var messageThreads = …`, \
                shadows the property — the compiler only warns that it is never mutated — and `self.` makes sure.)
                """ : ""
            throw fail("""
                The sample database holds one thread, "REST APIs"; after fetchMessageThreads `messageThreads` holds \
                \(threads.count): \(Self.list(threads.map(\.title))).\(unassigned) See LESSONS.md §4.2 and §4.5.
                """)
        }
        XCTAssertEqual(thread.identifier, Self.sampleThreadID, "The sample thread's identifier is \(Self.sampleThreadID) (its key in the database and its `identifier`); the fetched thread has \(thread.identifier). See LESSONS.md §4.2.")
        XCTAssertEqual(thread.title, "REST APIs", "The sample thread's title is \"REST APIs\"; the fetched thread has \"\(thread.title)\". See LESSONS.md §4.2.")
        XCTAssertEqual(thread.messages.map(\.sender), ["Spencer"], "The sample thread has one message, from Spencer, under the push ID -LJNQ2zNeL4bwG1qpwYB. See LESSONS.md §4.2.")
        XCTAssertEqual(thread.messages.first?.text, "This is a test to make sure the API works!", "The sample message's text is \"This is a test to make sure the API works!\"; the fetched message has \(thread.messages.first.map { "\"\($0.text)\"" } ?? "none"). See LESSONS.md §4.2.")
        let storedTime = Date(timeIntervalSinceReferenceDate: 5.55405872056162E8)
        XCTAssertTrue(thread.messages.first.map { abs($0.timestamp.timeIntervalSince(storedTime)) <= Self.timestampTolerance } ?? false, """
            The sample message's timestamp is 5.55405872056162E8 seconds since 1 January 2001 (2018-08-08); the fetched \
            message has \(thread.messages.first.map { "\($0.timestamp)" } ?? "none"). \
            \(Self.timestampAdvice(got: thread.messages.first?.timestamp ?? storedTime, stored: storedTime)) See LESSONS.md §4.2.
            """)
    }

    func test_fetchMessageThreads_classDatabase_givesEveryThreadOnceWithItsMessages() throws {
        let database = try Self.classDatabase()
        try fetchSuccessfully(database)
        try checkSameThreads(controller.messageThreads, expected: try Self.expectedThreads(in: database))
    }

    func test_fetchMessageThreads_classDatabase_sortsTheThreadsByTitle() throws {
        let database = try Self.classDatabase()
        try fetchSuccessfully(database)
        let expected = try Self.expectedThreads(in: database)
        let fetched = controller.messageThreads
        guard Set(fetched.map(\.identifier)) == Set(expected.map(\.identifier)), fetched.count == expected.count else {
            throw fail("""
                setup: checking the order needs the class database's \(expected.count) threads, each once, and \
                `messageThreads` holds \(fetched.count) other or repeated ones; \
                test_fetchMessageThreads_classDatabase_givesEveryThreadOnceWithItsMessages says what is wrong.
                """)
        }
        try checkSortedByTitle(fetched, expected: expected)
    }

    func test_fetchMessageThreads_twoThreadsWithTheSameTitle_keepsBoth() throws {
        let database = try Self.sampleWithASecondThreadOfTheSameTitle()
        try fetchSuccessfully(database)
        let expected = try JSONDecoder().decode([String: MessageThread].self, from: database.jsonData).values.map { $0 }
        let fetched = controller.messageThreads
        let fetchedIDs = Set(fetched.map(\.identifier))
        let missing = expected.filter { !fetchedIDs.contains($0.identifier) }
        if !missing.isEmpty, missing.allSatisfy({ lost in fetched.contains { $0.title == lost.title } }) {
            throw fail("""
                The database holds two threads with the same title, "REST APIs" (identifiers \
                \(Self.list(expected.map(\.identifier).sorted()))), and after fetchMessageThreads `messageThreads` holds \
                \(fetched.count) thread(s): one thread of that title was dropped. Threads are told apart by their \
                identifier (their key in the database), not by their title: two people can start a thread with the \
                same title. Keep every value of the decoded dictionary. See LESSONS.md §4.2.
                """)
        }
        try checkSameThreads(fetched, expected: expected)
    }

    // MARK: Replacing the list

    func test_fetchMessageThreads_twice_replacesTheListInsteadOfMergingOrAppending() throws {
        let before = try fetchTheClassDatabaseFirst()
        let later = try Self.classDatabaseLater()
        try fetchSuccessfully(later.database)
        try checkSameThreads(controller.messageThreads, expected: try Self.expectedThreads(in: later.database), before: before)
    }

    func test_fetchMessageThreads_twice_aNewMessageOnly_replacesTheList() throws {
        let before = try fetchTheSampleFirst(for: "a second fetch")
        let later = try Self.sampleWithANewMessage()
        try fetchSuccessfully(later)
        try checkSameThreads(controller.messageThreads, expected: try Self.expectedThreads(in: later), before: before)
    }

    func test_fetchMessageThreads_twice_sortsTheNewListByTitleToo() throws {
        let before = try fetchTheClassDatabaseFirst()
        let later = try Self.classDatabaseLater()
        try fetchSuccessfully(later.database)
        let expected = try Self.expectedThreads(in: later.database)
        let fetched = controller.messageThreads
        guard Set(fetched.map(\.identifier)) == Set(expected.map(\.identifier)), fetched.count == expected.count else {
            throw fail("""
                setup: checking the order after a second fetch needs the later database's \(expected.count) threads, \
                each once, and `messageThreads` holds \(fetched.count) other or repeated ones; \
                test_fetchMessageThreads_twice_replacesTheListInsteadOfMergingOrAppending says what is wrong.
                """)
        }
        let oldIDs = Set(before.map(\.identifier))
        let new = fetched.filter { !oldIDs.contains($0.identifier) }
        let kept = fetched.filter { oldIDs.contains($0.identifier) }
        let keptInOldOrder = before.map(\.identifier).filter { id in kept.contains { $0.identifier == id } }
        if fetched.map(\.title) != expected.map(\.title), !new.isEmpty, kept.map(\.identifier) == keptInOldOrder,
           fetched.map(\.identifier) == (kept + new).map(\.identifier) || fetched.map(\.identifier) == (new + kept).map(\.identifier) {
            let place = fetched.first.map { oldIDs.contains($0.identifier) } ?? true ? "at the end" : "at the top"
            throw fail("""
                After a second fetch the thread that is new since the first, \(Self.list(new.map(\.title))), is \
                \(place) of `messageThreads`, and the others stay in the first fetch's order: the new list was not \
                sorted as a whole. Every successful fetch sorts all its threads by title with String's `<` — a thread \
                added since belongs in its place among the others ("Added after…" right after "Accessibility"), not \
                \(place). See LESSONS.md §4.2 and §4.5.
                """)
        }
        try checkSortedByTitle(fetched, expected: expected)
    }

    /// The class database fetched, the list it gave (never empty): where the "twice" tests start.
    private func fetchTheClassDatabaseFirst() throws -> [MessageThread] {
        try fetchSuccessfully(try Self.classDatabase(), setup: "a second fetch")
        let before = controller.messageThreads
        guard !before.isEmpty else {
            throw fail("setup: a second fetch needs a first one that fills the list, but after a successful fetch of the class database `messageThreads` is empty. See LESSONS.md §4.5.")
        }
        return before
    }

    // MARK: The empty database

    func test_fetchMessageThreads_emptyDatabase_givesAnEmptyListAndNoError() throws {
        try fetchSuccessfully(.null)
        XCTAssertTrue(controller.messageThreads.isEmpty, "The database is empty (`null`), but `messageThreads` holds \(controller.messageThreads.count) thread(s). See LESSONS.md §4.3.")
    }

    func test_fetchMessageThreads_databaseEmptiedSinceTheLastFetch_emptiesTheList() throws {
        _ = try fetchTheSampleFirst(for: "emptying the list")
        try fetchSuccessfully(.null)
        XCTAssertTrue(controller.messageThreads.isEmpty, """
            The database was emptied since the last fetch, and GET /.json answered `null`, and fetchMessageThreads \
            called completion(nil), but `messageThreads` still holds \(controller.messageThreads.count) thread(s). \
            `null` is a successful answer meaning "no threads": it replaces the list with an empty one, like any other \
            database replaces it. (Code that calls completion(nil) when decoding fails gets here too: `null` does not \
            decode as a non-optional `[String: MessageThread]`, and that decoding error was swallowed. Decode an \
            optional dictionary, and pass decoding errors to the completion, §4.6.) See LESSONS.md §4.3.
            """)
    }

    // MARK: The list is set before completion

    func test_fetchMessageThreads_setsTheListBeforeCallingCompletion() throws {
        emulator.load(try Self.classDatabase())
        let error = try fetch(holdingTheMainQueue: true)
        try requireFetchSucceeded(error, setup: "checking when the list is set")
        let final = controller.messageThreads
        guard !final.isEmpty else {
            throw fail("setup: after a successful fetch of the class database `messageThreads` is empty, so when it is set cannot be checked; test_fetchMessageThreads_classDatabase_givesEveryThreadOnceWithItsMessages says what is wrong.")
        }
        let seen = listSeenByCompletion ?? []
        if seen.count == final.count, Set(seen.map(\.identifier)) == Set(final.map(\.identifier)), seen.map(\.identifier) != final.map(\.identifier) {
            throw fail("""
                When fetchMessageThreads called completion(nil), `messageThreads` held the \(final.count) fetched threads, \
                but not yet in title order: they were sorted only afterwards (in a block sent to the main queue, say). \
                The caller reads the list in its completion (to show it), so assign the sorted list, then call \
                completion(nil) — on the same queue, or both inside the same `DispatchQueue.main.async`. See LESSONS.md §4.5.
                """)
        }
        XCTAssertEqual(seen.map(\.identifier), final.map(\.identifier), """
            When fetchMessageThreads called completion(nil), `messageThreads` held \(seen.count) thread(s); only \
            afterwards did it change to the \(final.count) fetched. The caller reads the list in its completion (to \
            show it), so set `self.messageThreads` first, then call completion(nil) — on the same queue, or both \
            inside the same `DispatchQueue.main.async`. See LESSONS.md §4.5.
            """)
    }

    func test_fetchMessageThreads_databaseEmptied_emptiesTheListBeforeCallingCompletion() throws {
        _ = try fetchTheSampleFirst(for: "checking when the emptied list is set")
        emulator.load(.null)
        emulator.clearRequests()
        let error = try fetch(holdingTheMainQueue: true)
        try requireFetchSucceeded(error, setup: "checking when the emptied list is set")
        guard controller.messageThreads.isEmpty else {
            throw fail("setup: after a successful fetch of the emptied database `messageThreads` still holds threads, so when it is emptied cannot be checked; test_fetchMessageThreads_databaseEmptiedSinceTheLastFetch_emptiesTheList says what is wrong.")
        }
        let seen = listSeenByCompletion ?? []
        XCTAssertTrue(seen.isEmpty, """
            The database was emptied since the last fetch and GET /.json answered `null`, but when \
            fetchMessageThreads called completion(nil) `messageThreads` still held the \(seen.count) thread(s) of the \
            last fetch: it was emptied only afterwards. The caller reads the list in its completion (to show it), so \
            empty it first, then call completion(nil) — on the `null` path too, in the same order as on every \
            success. See LESSONS.md §4.5.
            """)
    }

    // MARK: When the server refuses

    func test_fetchMessageThreads_permissionDenied_passesHTTPStatusError401() throws {
        emulator.inject(.permissionDenied)
        let error = try fetch()
        try checkHTTPStatusError(error, status: 401, answer: #"401 {"error" : "Permission denied"}"#)
    }

    func test_fetchMessageThreads_serverError_passesHTTPStatusError500() throws {
        emulator.inject(.internalError)
        let error = try fetch()
        try checkHTTPStatusError(error, status: 500, answer: #"500 {"error" : "An internal error occurred"}"#)
    }

    func test_fetchMessageThreads_databaseNotFound_passesHTTPStatusError404() throws {
        emulator.inject(.httpError(status: 404, message: Self.databaseNotFound))
        let error = try fetch()
        if error == nil {
            throw fail("""
                The emulator answered 404 Not Found ({"error" : "\(Self.databaseNotFound.prefix(60))…"}, Firebase's \
                answer when the database URL is wrong), and fetchMessageThreads called completion(nil): a 404 is not \
                an empty board. Firebase answers a path that holds nothing with 200 and `null` (§4.3); a 404 says the \
                request reached no database at all, and whoever uses the app must see that. Pass \
                HTTPStatusError(statusCode:body:) for every status outside 200...299. See LESSONS.md §4.4.
                """)
        }
        try checkHTTPStatusError(error, status: 404, answer: "404 Not Found (no such database)")
    }

    func test_fetchMessageThreads_databaseNotFound_keepsTheList() throws {
        let before = try fetchTheSampleFirst(for: "keeping the list after a 404")
        emulator.inject(.httpError(status: 404, message: Self.databaseNotFound))
        _ = try fetch()
        checkListKept(before, after: "404 Not Found, Firebase's answer when the database URL is wrong: no data was read, none is gone")
    }

    func test_fetchMessageThreads_databaseDeactivated_passesHTTPStatusError423() throws {
        emulator.inject(.httpError(status: 423, message: Self.databaseDeactivated))
        let error = try fetch()
        if let decoding = error as? DecodingError, emulator.requests.count == 1 {
            throw fail("""
                The emulator answered 423 Locked ({"error" : "\(Self.databaseDeactivated)"}: Firebase refuses every \
                request with 423 once the database's owner has deactivated it), and fetchMessageThreads passed a \
                DecodingError (\(oneLine(decoding))): the 423 went into the decoder. A status check that lists the \
                refusals it knows (401, 404, 500...599) lets every other one through — Firebase also answers 402 over \
                quota and 423 deactivated, and a proxy in front of it answers anything. A refusal is every status \
                outside 200...299, whatever its number: `!(200...299).contains(status)`. See LESSONS.md §4.4.
                """)
        }
        try checkHTTPStatusError(error, status: 423, answer: "423 Locked (the database deactivated by its owner)")
    }

    /// A status the code did not expect is a path too: a cache or proxy in front of the server can answer 304 Not
    /// Modified (empty body), and URLSession hands it over as it is. Which error is the other tests' business.
    func test_fetchMessageThreads_notModified304_stillCallsCompletion() throws {
        emulator.inject(.answer(status: 304, body: ""))
        // awaitCompletion stops the test when completion comes twice or not at all, and names the status.
        _ = try fetch()
    }

    func test_fetchMessageThreads_serverError_withAnHTMLPage_passesHTTPStatusError502() throws {
        emulator.inject(.page(status: 502, contentType: "text/html", body: Self.badGatewayPage))
        let error = try fetch()
        if error is DecodingError {
            throw fail("""
                The emulator answered 502 Bad Gateway with an HTML page (as a proxy in front of the server does), and \
                fetchMessageThreads passed a DecodingError (\(oneLine(error!))). A refusal's body is not always JSON: \
                Firebase's is {"error" : "…"}, a proxy's or load balancer's is a page of its own. Do not decode it — \
                check the status before decoding anything, and pass the body as text: \
                HTTPStatusError(statusCode: 502, body: String(decoding: data, as: UTF8.self)). See LESSONS.md §4.4.
                """)
        }
        if let error = error, !(error is HTTPStatusError), emulator.requests.count == 1 {
            throw fail("""
                The emulator answered 502 Bad Gateway with an HTML page (Content-Type text/html, as a proxy in front of \
                the server sends), and fetchMessageThreads passed \(type(of: error)): \(oneLine(error)). The status \
                decides first: a status outside 200...299 is HTTPStatusError(statusCode:body:), whatever the body or \
                its Content-Type (`mimeType`) — look at those only once the status said success. See LESSONS.md §4.4.
                """)
        }
        try checkHTTPStatusError(error, status: 502, answer: "502 Bad Gateway with an HTML page")
    }

    func test_fetchMessageThreads_serverError_withABodyThatDecodes_passesHTTPStatusError503() throws {
        emulator.inject(.answer(status: 503, body: String(decoding: try Self.sampleDatabase().jsonData, as: UTF8.self)))
        let error = try fetch()
        if error == nil {
            throw fail("""
                The emulator answered 503 Service Unavailable with a body that decodes as threads (a stale copy of the \
                database), and fetchMessageThreads called completion(nil), as if it had succeeded: it looked at the \
                status only when decoding failed. Whether the body is your data is what the status says, so check \
                the status before decoding, and pass HTTPStatusError(statusCode:body:) for every status outside \
                200...299, whatever the body. See LESSONS.md §4.4.
                """)
        }
        try checkHTTPStatusError(error, status: 503, answer: "503 with a body that decodes as threads")
    }

    func test_fetchMessageThreads_serverError_withABodyThatDecodes_keepsTheList() throws {
        let before = try fetchTheSampleFirst(for: "keeping the list after a 503 whose body decodes")
        emulator.inject(.answer(status: 503, body: String(decoding: try Self.classDatabase().jsonData, as: UTF8.self)))
        _ = try fetch()
        checkListKept(before, after: "503 Service Unavailable, with a body that decodes as threads")
    }

    /// An earlier success changes nothing about a refusal: no earlier answer stands in for it.
    func test_fetchMessageThreads_serverError_afterASuccessfulFetch_stillPassesHTTPStatusError500() throws {
        _ = try fetchTheSampleFirst(for: "a server error after a successful fetch")
        emulator.inject(.internalError)
        let error = try fetch()
        if error == nil {
            throw fail("""
                After a successful fetch, the next one was answered 500 {"error" : "An internal error occurred"}, and \
                fetchMessageThreads called completion(nil), as if it had succeeded (the first fetch's 500 it did \
                report): it showed an earlier answer instead — a copy it kept of the last answer that decoded, say \
                ("stale while erroring"). Keeping the list as it was is right (§4.5); reporting success is not: the \
                board was not refreshed, and the user must learn why. Pass HTTPStatusError(statusCode:body:) for \
                every refusal, whatever came before. See LESSONS.md §4.4.
                """)
        }
        try checkHTTPStatusError(error, status: 500, answer: #"500 {"error" : "An internal error occurred"}, after a successful fetch"#)
    }

    func test_fetchMessageThreads_permissionDenied_statusErrorCarriesTheBody() throws {
        emulator.inject(.permissionDenied)
        let error = try fetch()
        guard let status = error as? HTTPStatusError, status.statusCode == 401 else {
            throw fail("setup: the body can be checked only on an HTTPStatusError with statusCode 401, and fetchMessageThreads passed \(error.map(oneLine) ?? "nil"); test_fetchMessageThreads_permissionDenied_passesHTTPStatusError401 says what is wrong.")
        }
        if status.body.hasPrefix("Optional(") {
            throw fail("""
                fetchMessageThreads passed HTTPStatusError(statusCode: 401) with the body \(status.body.debugDescription): \
                the server's text wrapped in `Optional(…)`, its quotes and line breaks escaped. That is what string \
                interpolation writes for an optional, `"\\(String(data: data, encoding: .utf8))"` (the compiler only \
                warns): its debug description, not the text. Pass the text itself, \
                `String(decoding: data, as: UTF8.self)`, or unwrap the optional first (`?? ""`). See LESSONS.md §4.4.
                """)
        }
        XCTAssertTrue(status.body.contains("Permission denied"), """
            fetchMessageThreads passed HTTPStatusError(statusCode: 401) with the body \(status.body.debugDescription); \
            the server answered {"error" : "Permission denied"}. Pass the response body as text \
            (HTTPStatusError(statusCode:body:)): it is the only place that says why. See LESSONS.md §4.4.
            """)
    }

    /// Firebase's 404 message is long (the database URL to check): the body is the whole of it, not a preview.
    func test_fetchMessageThreads_databaseNotFound_statusErrorCarriesTheWholeBody() throws {
        emulator.inject(.httpError(status: 404, message: Self.databaseNotFound))
        let error = try fetch()
        guard let status = error as? HTTPStatusError, status.statusCode == 404 else {
            throw fail("setup: the body can be checked only on an HTTPStatusError with statusCode 404, and fetchMessageThreads passed \(error.map(oneLine) ?? "nil"); test_fetchMessageThreads_databaseNotFound_passesHTTPStatusError404 says what is wrong.")
        }
        XCTAssertTrue(status.body.contains(Self.databaseNotFound), """
            The emulator answered 404 with Firebase's message {"error" : "\(Self.databaseNotFound)"} \
            (\(Self.databaseNotFound.utf8.count) bytes of text), and fetchMessageThreads passed HTTPStatusError(statusCode: 404) \
            with the body \(status.body.debugDescription): not the whole of it (a `prefix` of the data, say, which \
            can also cut a character in two). The end of the message is what says what to check. Pass the whole \
            body as text, `String(decoding: data, as: UTF8.self)`; shorten it, if you must, where you show it. \
            See LESSONS.md §4.4.
            """)
    }

    func test_fetchMessageThreads_permissionDenied_keepsTheList() throws {
        let before = try fetchTheSampleFirst(for: "keeping the list after a 401")
        emulator.inject(.permissionDenied)
        _ = try fetch()
        checkListKept(before, after: "401 Permission denied")
    }

    // MARK: When the connection fails

    func test_fetchMessageThreads_transportError_passesTheURLErrorOn() throws {
        emulator.inject(.transportError(.networkConnectionLost))
        let error = try fetch()
        if emulator.requests.count > 1 {
            throw fail("""
                fetchMessageThreads sent \(emulator.requests.count) requests for one fetch \
                (\(emulator.requests.map(\.summary).joined(separator: "; "))): the first failed without any answer \
                (URLError.networkConnectionLost) and it asked again, so the completion got \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)") and the failure is hidden. One fetch is \
                one GET: pass the data task's `error` on as it is, and let the caller decide whether to try again. \
                See LESSONS.md §4.4.
                """)
        }
        // `error as NSError` passes the same error on; Linux's Foundation does not bridge that NSError back to URLError.
        let bridged = (error as NSError?).flatMap { nsError -> URLError? in
            let code: URLError.Code? = URLError.Code(rawValue: nsError.code)  // failable on Linux only
            return nsError.domain == NSURLErrorDomain ? code.map { URLError($0) } : nil
        }
        guard let urlError = error as? URLError ?? bridged else {
            throw fail("""
                The request failed without any answer (URLError.networkConnectionLost), and fetchMessageThreads passed \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)") to its completion. Pass the data \
                task's `error` on as it is: it is the only thing that says what went wrong. See LESSONS.md §4.4.
                """)
        }
        XCTAssertEqual(urlError.code, .networkConnectionLost, "The request failed with URLError.networkConnectionLost, and fetchMessageThreads passed URLError(\(urlError.code.rawValue)). Pass the data task's `error` on as it is. See LESSONS.md §4.4.")
    }

    func test_fetchMessageThreads_transportError_keepsTheList() throws {
        let before = try fetchTheSampleFirst(for: "keeping the list after a failed connection")
        emulator.inject(.transportError(.networkConnectionLost))
        _ = try fetch()
        checkListKept(before, after: "URLError.networkConnectionLost, no response at all")
    }

    /// An earlier success changes nothing about a lost connection: no earlier answer stands in for it.
    func test_fetchMessageThreads_transportError_afterASuccessfulFetch_stillPassesTheError() throws {
        _ = try fetchTheSampleFirst(for: "a failed connection after a successful fetch")
        emulator.inject(.transportError(.networkConnectionLost))
        let error = try fetch()
        if error == nil {
            throw fail("""
                After a successful fetch, the next request failed without any answer (URLError.networkConnectionLost), \
                and fetchMessageThreads called completion(nil), as if it had succeeded (the same failure with no \
                fetch before it it did report): it showed an earlier answer instead — a copy it kept of the last \
                answer that decoded, say ("offline support"). Keeping the list as it was is right (§4.5); reporting \
                success is not: the board was not refreshed, and the user must learn that the connection failed. \
                Pass the data task's `error` on as it is, whatever came before. See LESSONS.md §4.4.
                """)
        }
        // Which error it is, is test_fetchMessageThreads_transportError_passesTheURLErrorOn's business.
    }

    // MARK: When the answer is broken

    func test_fetchMessageThreads_malformedBody_passesTheDecodingError() throws {
        emulator.inject(.malformedBody(Self.cutOff))
        let error = try fetch()
        if emulator.requests.count > 1 {
            throw fail("""
                fetchMessageThreads sent \(emulator.requests.count) requests for one fetch \
                (\(emulator.requests.map(\.summary).joined(separator: "; "))): the first answer, 200 with a body cut off \
                in the middle, did not decode and it asked again, so the completion got \
                \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil (success)") and the broken answer is hidden. \
                One fetch is one GET: pass the decoding error to the completion, and let the caller decide whether to \
                try again. See LESSONS.md §4.6.
                """)
        }
        if error == nil {
            throw fail("""
                The emulator answered 200 with a body cut off in the middle (\(Self.cutOff)), which is not JSON, and \
                fetchMessageThreads called completion(nil): the decoding error was swallowed (as `try?` does) and a \
                broken answer passed for success. Pass the decoding error to the completion. See LESSONS.md §4.6.
                """)
        }
        // JSONDecoder throws a DecodingError; a solution that parses with JSONSerialization passes its parser's
        // error (NSCocoaErrorDomain 3840) on as it is, which is just as right.
        XCTAssertTrue(error is DecodingError || Self.isJSONParserError(error), """
            The emulator answered 200 with a body that is not JSON, and fetchMessageThreads passed \
            \(error.map { "\(type(of: $0)): \(oneLine($0))" } ?? "nil"). Pass the DecodingError that JSONDecoder threw, \
            as it is: it says where the answer broke. See LESSONS.md §4.6.
            """)
    }

    func test_fetchMessageThreads_malformedBody_keepsTheList() throws {
        let before = try fetchTheSampleFirst(for: "keeping the list after a broken answer")
        emulator.inject(.malformedBody(Self.cutOff))
        _ = try fetch()
        checkListKept(before, after: "200 with a body that is not JSON")
    }

    func test_fetchMessageThreads_aThreadThatDoesNotDecode_passesTheDecodingError() throws {
        emulator.load(try Self.sampleWithAThreadThatDoesNotDecode())
        let error = try fetch()
        if error == nil {
            throw fail("""
                The database holds a thread that does not decode (\(Self.undecodableThreadID) has no `title`: \
                someone wrote it by hand in the console), and fetchMessageThreads called completion(nil), with \
                \(controller.messageThreads.count) thread(s) in `messageThreads`: the thread that did not decode was \
                skipped — a `try?` for each thread, a "lossy" wrapper, `compactMap` or `?? ""` defaults — and a list \
                without it passed for the whole board. An answer with a thread that does not decode is an answer that \
                does not decode: decode the dictionary as a whole (`[String: MessageThread]?`), pass the DecodingError \
                to the completion and leave the list as it was. See LESSONS.md §4.6.
                """)
        }
        // Which error says so is the malformed body's test's business: a parser of one's own throws its own.
    }

    /// The thread that does not decode may come anywhere among the 59: code that fills `messageThreads` thread by
    /// thread stops wherever it is. The list before is the sample with a message the class database lacks, so no
    /// part of the class database can equal it.
    func test_fetchMessageThreads_aThreadThatDoesNotDecode_keepsTheList() throws {
        try fetchSuccessfully(try Self.sampleWithANewMessage(), setup: "keeping the list after an answer with a thread that does not decode")
        let before = controller.messageThreads
        guard !before.isEmpty else {
            throw fail("setup: after a successful fetch of the sample database `messageThreads` is empty, so whether a failed fetch keeps it cannot be checked; test_fetchMessageThreads_sampleDatabase_givesItsThreadWithEveryField says what is wrong.")
        }
        emulator.load(try Self.withAThreadThatDoesNotDecode(try Self.classDatabase(), named: "Fixtures/lesson4/class-database.json"))
        emulator.clearRequests()
        _ = try fetch()
        checkListKept(before, after: """
            200 with the class database's 58 threads and one that does not decode (no `title`), wherever it came: \
            code that assigns or appends thread by thread as it decodes leaves the list half-way changed — decode \
            them all into a local first
            """)
    }

    // MARK: Reading back what the app wrote

    func test_fetchMessageThreads_findsTheThreadAndMessageWrittenByCreateMessageThreadAndCreateMessage() throws {
        let created = try createThread(title: "Fetched back ✅")
        try createMessage(in: created, text: "Written with PUT and POST, read with GET 🎉", sender: "Zoë")
        let written = emulator.database
        let otherDevice = MessageThreadController(baseURL: emulator.baseURL, session: emulator.session)
        emulator.clearRequests()
        let error = try fetch(with: otherDevice)
        try requireFetchSucceeded(error)
        // Two threads: their order could be right by luck, so only the set is checked here.
        try checkSameThreads(otherDevice.messageThreads, expected: try Self.expectedThreads(in: written))
        let fetched = try XCTUnwrap(otherDevice.messageThreads.first { $0.identifier == created.identifier })
        XCTAssertTrue(Self.same(fetched, created), """
            The thread read back differs from the one written: fetched "\(fetched.title)" with \
            \(fetched.messages.map(\.text)), wrote "\(created.title)" with \(created.messages.map(\.text)). \
            See LESSONS.md §4.6.
            """)
    }

    // MARK: Trying again after a failure

    func test_fetchMessageThreads_afterARefusal_aSecondFetchSucceeds() throws {
        emulator.inject(.permissionDenied)  // the first request only; the next is answered with the sample database
        _ = try fetch()
        emulator.clearRequests()
        // The user pulls to refresh. Waited for by hand: a fetch that never starts is this test's subject.
        let completed = Flag()
        let lock = NSLock()
        var secondError: Error?
        controller.fetchMessageThreads { error in
            if completed.setOnce() {
                lock.lock(); secondError = error; lock.unlock()
            }
        }
        let deadline = Date(timeIntervalSinceNow: CompletionTimeouts.normal)
        while !completed.isSet && emulator.requests.isEmpty && Date() < deadline {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        if emulator.requests.isEmpty {
            throw fail("""
                After a fetch the server refused (401 Permission denied), fetchMessageThreads was called again (the \
                user tries again) and \(completed.isSet ? "called its completion at once" : "did nothing at all"): it \
                sent no request. The failed fetch left something behind that stops every later one — a flag such as \
                `isFetching` or `isLoading`, set when a fetch starts and reset only on success. Whatever the start \
                sets, every path out of the handler must undo (a `defer` at the top of the handler does it on all of \
                them). See LESSONS.md §4.6.
                """)
        }
        let answered = Date(timeIntervalSinceNow: emulator.latency + CompletionTimeouts.normal)
        while !completed.isSet && Date() < answered {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        guard completed.isSet else {
            throw fail("""
                After a fetch the server refused (401 Permission denied), fetchMessageThreads was called again: it \
                sent \(emulator.requests.map(\.summary).joined(separator: "; ")), the server answered, and the \
                completion was never called. The failed fetch left something behind that blocks the next one — a \
                lock taken and not released on a failure path, a flag not reset. Undo on every path what the start \
                set (`defer`). See LESSONS.md §4.6.
                """)
        }
        settle()
        lock.lock(); let error = secondError; lock.unlock()
        try requireFetchSucceeded(error)
        XCTAssertEqual(controller.messageThreads.map(\.identifier), [Self.sampleThreadID], """
            After a fetch the server refused (401), a second fetch of the sample database succeeded, but \
            `messageThreads` holds \(Self.list(controller.messageThreads.map(\.title))) instead of its one thread, \
            "REST APIs". A failed fetch leaves nothing behind: the next one works as the first would. See LESSONS.md §4.6.
            """)
    }

    // MARK: Two fetches at once

    /// The user pulls to refresh while the first fetch is still on its way: two calls, each with its own completion.
    /// Either may send its own GET, share the first one's answer, or cancel the older request (whose completion then
    /// gets URLError.cancelled): what this checks is only that each completion is called exactly once.
    func test_fetchMessageThreads_twoFetchesAtOnce_callsEachCompletionOnce() throws {
        let outcomes = fetchTwiceAtOnce()
        let (first, second) = (outcomes[0].calls, outcomes[1].calls)
        if first == 0 && second == 0 {
            throw fail("""
                fetchMessageThreads was called twice, the second time while the first fetch was on its way, and \
                neither completion was ever called (the emulator received \(emulator.requests.count) request(s)). \
                See LESSONS.md §4.6.
                """)
        }
        if first == 0 {
            throw fail("""
                fetchMessageThreads was called twice (the user pulled to refresh while the first fetch was on its \
                way): the second call's completion was called, the first call's never. The second fetch took the \
                first one's place — a completion kept in a property and replaced by the next call, or a fetch \
                cancelled by the next one whose handler (or catch) returns without a word on URLError.cancelled or \
                CancellationError — and whoever made the first call waits forever (a spinner that never stops). Every \
                call gets its completion exactly once: let both run, or pass the cancelled fetch its error. \
                See LESSONS.md §4.6.
                """)
        }
        if second == 0 {
            throw fail("""
                fetchMessageThreads was called a second time while the first fetch was on its way, and that call's \
                completion was never called: it returned without a word (`guard !isFetching else { return }`, say), \
                so its caller waits forever (a spinner that never stops). Every call gets its completion exactly once: \
                fetch again, or keep the completion and call it when the fetch on its way answers. See LESSONS.md §4.6.
                """)
        }
        XCTAssertEqual([first, second], [1, 1], """
            fetchMessageThreads was called twice, the second time while the first fetch was on its way, and the \
            completions were called \(first) and \(second) time(s): each must be called exactly once. See LESSONS.md §4.6.
            """)
    }

    /// completion(nil) says "the list is now the database's": a call that shares or gives up its fetch may not say
    /// it before the list holds the fetched threads (the sample database's one thread; the list starts empty).
    func test_fetchMessageThreads_twoFetchesAtOnce_reportSuccessOnlyWithTheFetchedList() throws {
        let outcomes = fetchTwiceAtOnce()
        guard outcomes.allSatisfy({ $0.calls == 1 }) else {
            throw fail("""
                setup: checking what two fetches started at once report needs each completion called once, and they \
                were called \(outcomes[0].calls) and \(outcomes[1].calls) time(s); \
                test_fetchMessageThreads_twoFetchesAtOnce_callsEachCompletionOnce says what is wrong.
                """)
        }
        for (index, outcome) in outcomes.enumerated() where outcome.error == nil {
            let seen = outcome.listSeen.map(\.identifier)
            guard seen != [Self.sampleThreadID] else { continue }
            throw fail("""
                fetchMessageThreads was called twice, the second time while the first fetch was on its way, and the \
                \(index == 0 ? "first" : "second") call got completion(nil) — success — while `messageThreads` held \
                \(Self.list(outcome.listSeen.map(\.title))), not the sample database's one thread: it reported success \
                before any fetched list was there (`guard !isFetching else { completion(nil); return }`, or a fetch \
                cancelled by the next one reported as a success). completion(nil) tells the caller that the list is \
                now the database's, and the caller shows it. A call that has no fetched list yet waits for the fetch \
                on its way (keep its completion, call it after the list is assigned), fetches again, or gets an error. \
                See LESSONS.md §4.6.
                """)
        }
    }

    /// Calls fetchMessageThreads twice on a new controller, the second call right after the first (its request on
    /// its way), and waits for both completions: for each call, how often its completion was called, and the error
    /// and the list its first call saw.
    private func fetchTwiceAtOnce() -> [(calls: Int, error: Error?, listSeen: [MessageThread])] {
        emulator.latency = 0.2
        let fetcher = controller!
        let lock = NSLock()
        var calls = [0, 0]
        var errors: [Error?] = [nil, nil]
        var seen: [[MessageThread]] = [[], []]
        func counts() -> [Int] { lock.lock(); defer { lock.unlock() }; return calls }
        for index in 0..<2 {
            fetcher.fetchMessageThreads { (error: Error?) in
                let list = fetcher.messageThreads
                lock.lock()
                calls[index] += 1
                if calls[index] == 1 { errors[index] = error; seen[index] = list }
                lock.unlock()
            }
        }
        // Both answers are due `latency` after their requests; a completion still missing a while after the first
        // came (or after the normal wait, when none came) is never coming.
        var deadline = Date(timeIntervalSinceNow: emulator.latency + CompletionTimeouts.normal)
        var sawOne = false
        while counts().contains(0) && Date() < deadline {
            if !sawOne && counts() != [0, 0] {
                sawOne = true
                deadline = min(deadline, Date(timeIntervalSinceNow: emulator.latency + 0.5))
            }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        settle()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))  // a late second call shows
        lock.lock(); defer { lock.unlock() }
        return (0..<2).map { (calls[$0], errors[$0], seen[$0]) }
    }

    /// The error text of the emulator's 423 Locked, the status Firebase answers for a database its owner deactivated
    /// (shared/firebase-rest.md lists the status; this wording is the kit's, not a recorded one).
    static let databaseDeactivated = "This database has been deactivated by its owner."

    /// Firebase's answer (404) to a request for a database that does not exist: a wrong database URL.
    static let databaseNotFound = "Firebase error. Please ensure that you have the URL of your Firebase Realtime Database instance configured correctly."

    static let badGatewayPage = """
        <html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>\
        <p>The proxy could not reach the server.</p></body></html>
        """

    static let cutOff = #"{"695398C4-498C-40A8-AA76-CB2B20DFD9FA" : {"identifier" : "695398C4-498C-40A8-AA76-CB2B20DFD9FA", "title" : "REST A"#
}
