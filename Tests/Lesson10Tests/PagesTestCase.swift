import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// The page tests' emulator: the long thread (55 messages, tied timestamps at the page boundaries) under
/// `/t1/messages`, with the rules file that indexes `timestamp` (Fixtures/lesson10/README.md).
class PagesTestCase: Lesson10TestCase {
    static let threadID = "t1"

    var emulator: FirebaseEmulator!
    var pages: ThreadPages!

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = try FirebaseEmulator(databaseExport: Fixtures.folder.appendingPathComponent("lesson10/long-thread.json"))
        try emulator.setRules(String(decoding: try Fixtures.data("lesson10/database.rules.json"), as: UTF8.self))
        pages = ThreadPages(baseURL: emulator.baseURL, threadID: Self.threadID, session: emulator.session)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    /// The thread's 55 messages, oldest first by (timestamp, key), read from the fixture without learner code.
    static func thread() throws -> [Message] {
        let export = try Fixtures.json("lesson10/long-thread.json")
        guard let object = export["t1"]["messages"].objectValue, object.count == 55 else {
            throw Lesson10FixtureProblem(description: "Fixtures/lesson10/long-thread.json must hold 55 messages under t1/messages")
        }
        return object.map { key, value in
            Message(key: key, body: Message.Body(sender: value["sender"].stringValue ?? "", text: value["text"].stringValue ?? "",
                                                  timestamp: Int(value["timestamp"].numberValue ?? 0)))
        }.sorted { ($0.timestamp, $0.key) < ($1.timestamp, $1.key) }
    }

    /// A thread of 10 in which 8 messages share one timestamp, their keys ending in `- 7 A Z _ a k z` (Firebase's key
    /// order, MessageOrderTests), then 2 later ones: loaded into the emulator, it returns the 8, oldest first by key.
    /// A page sorted by timestamp alone comes out in the dictionary's order, wrong in all but 1 run of 40 320.
    func loadTiedThread() -> (tied: [Message], later: [Message]) {
        let tied = MessageOrderTests.tiedKeyEnds.map { end in
            Message(key: "-P5QdiIlZv_zWnsfgYx\(end)", body: Message.Body(sender: "Ana", text: "tied \(end)", timestamp: 1_793_612_768_497))
        }
        let later = [0, 1].map { n in
            Message(key: "-P5QdiIlZv_zWnsfgYy\(n)", body: Message.Body(sender: "Ben", text: "later \(n)", timestamp: 1_793_612_768_600 + n))
        }
        var messages: [String: JSONValue] = [:]
        for message in tied + later {
            messages[message.key] = ["sender": .string(message.sender), "text": .string(message.text), "timestamp": .number(Double(message.timestamp))]
        }
        emulator.load(["t1": ["title": "Ties", "messages": .object(messages)]])
        return (tied, later)
    }

    /// The page with each run of messages of one timestamp put in key order. The page tests of the long thread compare
    /// pages this way: the order within a tie is judged by the `equalTimestamps_inKeyOrder` tests alone (8 in a tie,
    /// so never right by luck), not, by the luck of a dictionary's order, in every other test whose page has a tie of 2.
    static func tiesByKey(_ page: [Message]) -> [Message] {
        var result: [Message] = []
        var start = page.startIndex
        while start < page.endIndex {
            let end = page[start...].firstIndex { $0.timestamp != page[start].timestamp } ?? page.endIndex
            result += page[start..<end].sorted { $0.key < $1.key }
            start = end
        }
        return result
    }

    /// The keys' last characters, for messages about a tie: "- 7 A Z _ a k z".
    static func keyEnds(_ page: [Message]) -> String {
        page.map { String($0.key.suffix(1)) }.joined(separator: " ")
    }

    /// Messages `from...through` of the thread, counted from 1 (oldest), as the test reads them.
    static func messages(_ positions: ClosedRange<Int>) throws -> [Message] {
        Array(try thread()[(positions.lowerBound - 1)...(positions.upperBound - 1)])
    }

    func newestPage(count: Int = 20, file: StaticString = #filePath, line: UInt = #line) throws -> Result<[Message], Error> {
        let pages = self.pages!
        return try awaitReturn(of: Self.newest, session: emulator.session, traffic: { TrafficReport(emulator).summary },
                           requests: { emulator.requests }, file: file, line: line) {
            try await pages.newestPage(count: count)
        }
    }

    func olderPage(than loaded: [Message], count: Int = 20, file: StaticString = #filePath, line: UInt = #line) throws -> Result<[Message], Error> {
        let pages = self.pages!
        return try awaitReturn(of: Self.older, session: emulator.session, traffic: { TrafficReport(emulator).summary },
                           requests: { emulator.requests }, file: file, line: line) {
            try await pages.olderPage(than: loaded, count: count)
        }
    }

    /// The page, or a stop naming what the call threw.
    func requirePage(_ result: Result<[Message], Error>, _ exercise: Exercise,
                     file: StaticString = #filePath, line: UInt = #line) throws -> [Message] {
        switch result {
        case .success(let page): return page
        case .failure(let error):
            throw fail("""
                \(exercise.function) threw \(Self.describe(error)); the thread has the messages asked for. The server \
                received: \(TrafficReport(emulator).summary). See \(exercise.reference).
                """, file: file, line: line)
        }
    }

    /// "#36…#55" — a page by the messages' positions in the thread (1 = the oldest), for messages; a run of three or
    /// more in a row is written first…last ("#1…#35 (35)" when longer than a page of 20, with the count).
    static func positions(_ page: [Message]) -> String {
        let thread = (try? Self.thread()) ?? []
        let numbers = page.map { message in thread.firstIndex { $0.key == message.key }.map { $0 + 1 } }
        var parts: [String] = []
        var index = 0
        while index < page.count {
            guard let first = numbers[index] else { parts.append(page[index].key); index += 1; continue }
            var last = index
            while last + 1 < page.count, numbers[last + 1] == numbers[last]! + 1 { last += 1 }
            parts += last - index >= 2 ? ["#\(first)…#\(numbers[last]!)"] : (index...last).map { "#\(numbers[$0]!)" }
            index = last + 1
        }
        let text = parts.isEmpty ? "(none)" : parts.joined(separator: " ")
        return page.count > 20 ? "\(text) (\(page.count))" : text
    }

    /// Every request the call sent must be a GET of the thread's messages with `orderBy` as JSON (in quotes), and
    /// a child's bounds (`startAt`, `endAt`, `equalTo`) as numbers, since the timestamps are numbers.
    func wrongQuery(_ exercise: Exercise) -> String? {
        for request in emulator.requests {
            if request.method != "GET" || request.path != "/\(Self.threadID)/messages" || !request.hasJSONSuffix {
                return "\(exercise.function) sent \(request.summary); a page is a GET of <baseURL>/\(Self.threadID)/messages.json with a query. See \(exercise.reference)."
            }
            guard let orderBy = request.query["orderBy"] else {
                if request.query["limitToLast"] == nil && request.query["limitToFirst"] == nil {
                    return """
                        \(exercise.function) fetched the whole thread (no orderBy, no limit): a page is a query. See LESSONS.md §10.1.
                        Ask Firebase for the page: orderBy="timestamp"&limitToLast=<count>, and for older ones endAt too.
                        (If you add the query with components.queryItems?.append(…): queryItems is nil until it is set, \
                        so the ?. appends nothing. Set it: components.queryItems = [URLQueryItem(…), …]. And if you took \
                        components.url before setting queryItems: a URL is a value, made when you ask for it — the one \
                        taken before setting them has no query. Ask for components.url after.)
                        \(request.summary)
                        """
                }
                return """
                    \(exercise.function) sent \(request.summary) without `orderBy`: Firebase filters and limits only an ordered \
                    query. See LESSONS.md §10.1.
                    (If you set components.queryItems once per parameter: each assignment replaces the items set before. \
                    Give it every item at once: components.queryItems = [orderBy, limit].)
                    """
            }
            if !orderBy.hasPrefix("\"") || !orderBy.hasSuffix("\"") || orderBy.count < 2 {
                if orderBy.contains("\\") {
                    return """
                        \(exercise.function) sent orderBy=\(orderBy): backslashes before the quotes. In a raw string, \
                        #"…"#, a backslash is a backslash — #"\\"timestamp\\""# is \\"timestamp\\" — so write the quotes as \
                        they are there, #""timestamp""#, or escape them in a plain string, "\\"timestamp\\"". The value is \
                        the JSON string "timestamp", quotes included. See LESSONS.md §10.1.
                        \(request.summary)
                        """
                }
                if orderBy.contains("%22") {
                    return """
                        \(exercise.function) sent orderBy=\(orderBy): its quotes were percent-encoded twice. URLComponents \
                        encodes a query item's value itself: give it "timestamp", quotes as they are. See LESSONS.md §10.1.
                        \(request.summary)
                        """
                }
                if orderBy.hasPrefix("\u{201C}") || orderBy.hasPrefix("\u{201D}") || orderBy.hasPrefix("\u{2018}") {
                    return """
                        \(exercise.function) sent orderBy=\(orderBy) in typographic (curly) quotes, as a web page or smart \
                        quotes write them: JSON takes the straight double quote, orderBy="timestamp" ("\\"timestamp\\"" in \
                        Swift), and Firebase answers 400 otherwise. See LESSONS.md §10.1.
                        \(request.summary)
                        """
                }
                if orderBy.hasPrefix("'") {
                    return """
                        \(exercise.function) sent orderBy=\(orderBy) in single quotes: a JSON string takes double quotes, \
                        orderBy="timestamp", and Firebase answers 400 otherwise. See LESSONS.md §10.1.
                        \(request.summary)
                        """
                }
                return """
                    \(exercise.function) sent orderBy=\(orderBy) without quotes: Firebase wants a JSON string, \
                    orderBy="timestamp" (%22timestamp%22 in the URL), and answers 400 otherwise. See LESSONS.md §10.1.
                    \(request.summary)
                    """
            }
            if let sdkOnly = ["endBefore", "startAfter"].first(where: { request.query[$0] != nil }) {
                return """
                    \(exercise.function) sent \(sdkOnly)=\(request.query[sdkOnly] ?? ""): the SDKs have \(sdkOnly) \
                    (queryEnding(beforeValue:), queryStarting(afterValue:)), the REST API has not — Firebase ignores the \
                    parameter, and the query then has no bound at all. See LESSONS.md §10.1.
                    Use endAt (it includes its bound) and drop the shown messages it brings back.
                    \(request.summary)
                    """
            }
            if let limit = ["limitToFirst", "limitToLast"].compactMap({ name in request.query[name].map { (name: name, value: $0) } }).first,
               Int(limit.value) == nil {
                return """
                    \(exercise.function) sent \(limit.name)=\(limit.value): a limit is a number, as it is, not in quotes. \
                    See LESSONS.md §10.1.
                    \(limit.name)=20: only orderBy and the bounds are JSON. Firebase answers 400 otherwise.
                    \(request.summary)
                    """
            }
            let bounds = ["startAt", "endAt", "equalTo"].compactMap { name in request.query[name].map { (name: name, value: $0) } }
            if orderBy == "\"$key\"", let bare = bounds.first(where: { !$0.value.hasPrefix("\"") || !$0.value.hasSuffix("\"") || $0.value.count < 2 }) {
                return """
                    \(exercise.function) sent \(bare.name) without quotes with orderBy="$key": a bound is then a key, a \
                    JSON string. See LESSONS.md §10.1.
                    \(bare.name)="-P5QqX5P5e5k93F30irS" (%22 in the URL); Firebase answers 400 otherwise. It sent \
                    \(bare.name)=\(bare.value).
                    \(request.summary)
                    """
            }
            if orderBy != "\"$key\"", let notJSON = bounds.first(where: { !$0.value.hasPrefix("\"") && Double($0.value) == nil }) {
                let optional = notJSON.value.hasPrefix("Optional(")
                return """
                    \(exercise.function) sent \(notJSON.name)=\(notJSON.value), which is not JSON: a timestamp bound is a \
                    number, as it is (\(notJSON.name)=1793616126362). See LESSONS.md §10.1.\(optional ? """

                        That is an optional interpolated into a string ("\\(loaded.first?.timestamp)" gives "Optional(…)"): \
                        unwrap it first (guard let oldest = loaded.first), then String(oldest.timestamp).
                        """ : "")
                    Firebase answers 400 otherwise.
                    \(request.summary)
                    """
            }
            // A 13-digit timestamp written with String(format: "%d"), which reads a 32-bit C int: another number.
            if orderBy == "\"timestamp\"", let thread = try? Self.thread(), let cut = bounds.first(where: { bound in
                Int(bound.value).map { value in thread.contains { $0.timestamp != value && Int(Int32(truncatingIfNeeded: $0.timestamp)) == value } } ?? false
            }) {
                return """
                    \(exercise.function) sent \(cut.name)=\(cut.value): a timestamp cut to 32 bits. String(format: "%d", …) \
                    reads a 32-bit C int, and a timestamp in milliseconds needs 64 (%ld); write it as it is, \
                    String(oldest.timestamp) or "\\(oldest.timestamp)", \(cut.name)=1793616126362. See LESSONS.md §10.1.
                    \(request.summary)
                    """
            }
            // A timestamp taken through a Date and cut to whole seconds before it was made milliseconds again:
            // Int(date.timeIntervalSince1970) * 1000 is the thread's timestamp with its last three digits 000.
            if orderBy == "\"timestamp\"", let thread = try? Self.thread(), let cut = bounds.first(where: { bound in
                Int(bound.value).map { value in
                    value % 1000 == 0 && !thread.contains { $0.timestamp == value } && thread.contains { $0.timestamp / 1000 * 1000 == value }
                } ?? false
            }) {
                return """
                    \(exercise.function) sent \(cut.name)=\(cut.value): a timestamp cut to whole seconds, its milliseconds \
                    lost (Int(date.timeIntervalSince1970) * 1000 drops them before it multiplies), so the bound falls before \
                    the oldest shown message and the messages between are skipped. Give the message's timestamp as it is, \
                    String(oldest.timestamp); through a Date, Int((date.timeIntervalSince1970 * 1000).rounded()). \
                    See LESSONS.md §10.1.
                    \(request.summary)
                    """
            }
            if orderBy == "\"timestamp\"", let seconds = bounds.first(where: { Double($0.value).map { $0 > 0 && $0 < 1e12 } ?? false }) {
                return """
                    \(exercise.function) sent \(seconds.name)=\(seconds.value): seconds, not milliseconds. Firebase's \
                    timestamps (ServerValue.TIMESTAMP, and this thread's) are milliseconds since 1970, 13 digits: give the \
                    message's timestamp as it is, \(seconds.name)=1793616126362 — a Date's timeIntervalSince1970 is in \
                    seconds. See LESSONS.md §10.1.
                    \(request.summary)
                    """
            }
            if orderBy != "\"$key\"", let quoted = bounds.first(where: { $0.value.hasPrefix("\"") }) {
                return """
                    \(exercise.function) sent \(quoted.name)=\(quoted.value) in quotes: a JSON string, which sorts after every \
                    number (every timestamp). A number goes as it is: \(quoted.name)=1793616126362. See LESSONS.md §10.1.
                    \(request.summary)
                    """
            }
        }
        return nil
    }
}
