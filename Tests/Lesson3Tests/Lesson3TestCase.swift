import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson3

/// Lesson 3's tests share this: fixtures decoded through the learner's `init(from:)` (with a `DecoderLog` of what it
/// asked for), a reference reading of the same JSON that uses none of the learner's code, and threads encoded through
/// the learner's `encode(to:)`.
///
/// The two exercises are judged apart: `InitFromDecoderTests` never calls encode(to:), and `EncodeToEncoderTests`
/// never calls init(from:) — it reads what encode wrote as JSON, directly or as the emulator stored it.
class Lesson3TestCase: TimeZonedTestCase {
    static let initFrom = Exercise("MessageThread.init(from:)", section: "3.3")
    static let encodeTo = Exercise("MessageThread.encode(to:)", section: "3.4")
    /// The original course's sample thread (Fixtures/lesson3/thread-sample.json).
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"
    /// Swift's reference date (2001) minus the Unix epoch (1970), in seconds.
    static let secondsFrom1970To2001 = 978_307_200.0

    // MARK: The time zone the tests run in

    // The tests run in Asia/Kolkata, whatever the machine's time zone (TimeZonedTestCase): code that "converts" a
    // timestamp to local time or back (adding or subtracting `TimeZone.current.secondsFromGMT()`) moves the instant,
    // and that shows.

    /// Whether `shift` (seconds) is the offset from UTC of the time zone the tests run in, either way.
    static func isTimeZoneShift(_ shift: TimeInterval, at date: Date) -> Bool {
        let offset = TimeInterval(TimeZone.current.secondsFromGMT(for: date))
        return offset != 0 && abs(abs(shift) - abs(offset)) < 0.001
    }

    /// The sentence that names a timestamp moved by the local time zone's offset.
    static func timeZoneCause(_ shift: TimeInterval) -> String {
        let minutes = Int((abs(shift) / 60).rounded())
        return """
            The timestamp is off by \(String(format: "%.0f", shift)) s (\(minutes / 60) h \(minutes % 60) min), exactly the \
            offset from UTC of the time zone the tests run in (\(testTimeZone)): it was "converted" to or from local time \
            with `TimeZone.current.secondsFromGMT()`. A Date is an instant, the same in every time zone: time zones \
            belong to displaying it (a DateFormatter), never to the data. On a machine set to UTC this shift is zero \
            and hides.
            """
    }

    // MARK: Fixtures

    /// `Fixtures/<path>`'s bytes and JSON; a missing or broken file stops the test with a "setup:" message.
    func fixture(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (data: Data, json: JSONValue) {
        do {
            return (try Fixtures.data(path), try Fixtures.json(path))
        } catch {
            throw fail("setup: could not load the kit's fixture: \(oneLine(error)). This is the kit's problem, not your code's.",
                       file: file, line: line)
        }
    }

    // MARK: Decoding with the learner's init(from:)

    /// `data` decoded as one thread by a plain JSONDecoder, whose decoder reaches the learner's `init(from:)` through
    /// a `SpyDecoder`; never fails the test.
    static func attemptDecoding(_ data: Data) -> (result: Result<MessageThread, Error>, log: DecoderLog) {
        let log = DecoderLog()
        let decoder = JSONDecoder()
        decoder.userInfo[DecoderLog.userInfoKey] = log
        return (Result { try decoder.decode(LoggedThread.self, from: data).thread }, log)
    }

    /// `attemptDecoding(data)` on a thread of its own, or nil when it has not returned within `seconds` (an endless
    /// loop in init(from:)): the test can then say so instead of hanging. The stuck thread spins on until the process
    /// ends; its log is not read, as it may still be written.
    static func attemptDecoding(_ data: Data, within seconds: TimeInterval) -> (result: Result<MessageThread, Error>, log: DecoderLog)? {
        final class Outcome: @unchecked Sendable {
            var value: (result: Result<MessageThread, Error>, log: DecoderLog)?
            var thread: pthread_t?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.thread = pthread_self()
            outcome.value = attemptDecoding(data)
            done.signal()
        }.start()
        // Once a decode has waited for ever (a deadlock, not a loop: its thread used no CPU), every later one that
        // waits will too, and waiting 2 s for each only makes the run slow: they get 0.5 s. Code that never waits
        // for ever is never given less than `seconds`.
        let limit = aDecodeDeadlocked ? min(seconds, 0.5) : seconds
        guard done.wait(timeout: .now() + limit) == .success else {
            stuckThreadCPUSeconds = outcome.thread.flatMap(cpuSeconds)
            stuckLimit = limit
            if let cpu = stuckThreadCPUSeconds, cpu < 0.05 { aDecodeDeadlocked = true }
            return nil
        }
        return outcome.value
    }

    /// Whether a decode of this run has not returned while its thread used almost no CPU: a deadlock.
    static var aDecodeDeadlocked = false
    /// The time the last `attemptDecoding(_:within:)` that did not return was given.
    static var stuckLimit: TimeInterval = 2

    /// The CPU time used by the thread of the last `attemptDecoding(_:within:)` that did not return (nil: unknown):
    /// a loop burns it, a thread that waits (a `DispatchQueue.main.sync`, a semaphore) does not.
    static var stuckThreadCPUSeconds: Double?

    /// The CPU time `thread` has used, where the platform tells it (Linux).
    static func cpuSeconds(of thread: pthread_t) -> Double? {
        #if os(Linux)
        var clock = clockid_t()
        guard pthread_getcpuclockid(thread, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        #else
        return nil
        #endif
    }

    /// Why init(from:) did not return within 2 s decoding `source`: waiting, when its thread used almost no CPU in
    /// that time; otherwise stuck in a loop, with `loopHint`.
    static func notReturned(decoding source: String, loopHint: String) -> String {
        if let cpu = stuckThreadCPUSeconds, cpu < 0.05 {
            return """
                init(from:) did not return within \(String(format: "%g", stuckLimit)) s decoding \(source), and its thread used \(String(format: "%.3f", cpu)) s \
                of CPU in that time: it is not looping but waiting for something that does not come — a \
                `DispatchQueue.main.sync` (here the main thread was waiting for init(from:) to return; in an app that \
                decodes on the main thread, `main.sync` traps), a semaphore's `wait()` for work sent to the main thread \
                or the main actor (a `Task { @MainActor in … }` cannot run while the main thread waits), a lock held \
                elsewhere — or held by init(from:) itself: an NSLock is not recursive, so locking it again on the same \
                thread (a setter that locks, called under the lock) waits for ever. Do the work in init(from:) itself, \
                before it returns: sorting needs no other queue, and no lock of its own. See LESSONS.md §3.3.
                """
        }
        return "init(from:) did not return within \(String(format: "%g", stuckLimit)) s decoding \(source): it is stuck in a loop. \(loopHint) See LESSONS.md §3.3."
    }

    /// A thread read from `Fixtures/<path>` with the learner's init(from:), the fixture's JSON and what init(from:)
    /// asked for. Stops the test with the decoding error in words when init(from:) throws.
    func decodeThread(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (thread: MessageThread, json: JSONValue, log: DecoderLog) {
        let (data, json) = try fixture(path, file: file, line: line)
        guard let (result, log) = Self.attemptDecoding(data, within: 2) else {
            let times = Self.referenceMessages(json).map(\.timestamp)
            let shared = Set(times).count < times.count
            throw fail(Self.notReturned(decoding: "Fixtures/\(path)", loopHint: shared
                ? "Some of its messages share a timestamp: a hand-written sort that swaps two messages when their timestamps are equal (`>=` where `>` belongs) swaps them back and forth for ever — or use `sorted(by:)`."
                : "A `while` whose condition never changes: does every pass move on? An unkeyed container moves only when a decode succeeds — and only itself: containers are values, so a helper that takes one as a parameter moves its own copy (pass it `inout`)."),
                file: file, line: line)
        }
        switch result {
        case .success(let thread):
            return (thread, json, log)
        case .failure(let error as DecodingError):
            throw fail(Self.explain(error, in: json, source: "Fixtures/\(path)", threadDepth: 0, log: log), file: file, line: line)
        case .failure(let error):
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            // An error of its own for a thread without `messages`: a new thread, which is no error at all.
            let newThread = json["messages"].isNull && json["title"].stringValue != nil && json["identifier"].stringValue != nil
                ? " This thread has no `messages` key: a new thread, which has no messages — not bad data. Only a missing title or identifier is an error; read messages with `decodeIfPresent`, and make nil an empty list."
                : ""
            throw fail("init(from:) threw \(oneLine(error)) decoding Fixtures/\(path); a Decodable throws DecodingError, or nothing.\(newThread) See LESSONS.md §3.3.",
                       file: file, line: line)
        }
    }

    /// `Fixtures/<path>` decoded as `type` with a plain JSONDecoder (no log: the learner's init(from:) gets the real
    /// decoder). `threadDepth` is how deep in the JSON the threads sit (1: a database, threads keyed by identifier).
    func decode<T: Decodable>(_ type: T.Type, fixture path: String, threadDepth: Int,
                              file: StaticString = #filePath, line: UInt = #line) throws -> (value: T, json: JSONValue) {
        let (data, json) = try fixture(path, file: file, line: line)
        do {
            return (try JSONDecoder().decode(type, from: data), json)
        } catch let error as DecodingError {
            throw fail(Self.explain(error, in: json, source: "Fixtures/\(path)", threadDepth: threadDepth, log: nil), file: file, line: line)
        } catch {
            throw fail("init(from:) threw \(oneLine(error)) decoding Fixtures/\(path). See LESSONS.md §3.3.", file: file, line: line)
        }
    }

    /// What a `DecodingError` from the learner's `init(from:)` says, in one line; it names a cause only when the
    /// error (its key, type and coding path), the JSON, or the log of calls shows it.
    static func explain(_ error: DecodingError, in json: JSONValue, source: String, threadDepth: Int, log: DecoderLog?) -> String {
        let reference = "See LESSONS.md §3.3."
        // The container kind is named as the cause only when the log shows that asking for it (or decoding the
        // whole thread through it as one value) is what threw.
        if log?.containers.first == "unkeyed" {
            return """
                init(from:) read the thread through an unkeyed container (for a JSON array) and threw \(summary(error)) \
                decoding \(source). A thread is a JSON object with the keys title, identifier and messages: read it \
                through a keyed container, `decoder.container(keyedBy: CodingKeys.self)`. \(reference)
                """
        }
        if log?.containers.first == "singleValue",
           let call = log?.calls.first(where: { $0.method == "singleValue.decode" && $0.error != nil }) {
            return """
                init(from:) read the whole thread as one \(call.type) through a single-value container, which threw \
                \(summary(error)) decoding \(source). A thread is a JSON object whose values differ in type (strings, \
                and messages): read it through a keyed container, `decoder.container(keyedBy: CodingKeys.self)`, one \
                key at a time. \(reference)
                """
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath
            let holder = value(at: path, in: json)
            let keys = holder.objectValue.map { $0.keys.sorted() } ?? []
            let location = describe(path)
            if path.count == threadDepth, key.stringValue == "messages" {
                let call = log?.calls(forKey: "messages").last { $0.error != nil }
                let asked = call.map { "init(from:) called \($0.description), which" } ?? "init(from:) asked for \"messages\" in a way that"
                // A nested container has no "IfPresent": ask whether the key is there first.
                let cure = call?.description.contains("nestedContainer") == true || call?.description.contains("nestedUnkeyedContainer") == true
                    ? "so open the nested container only when `container.contains(.messages)` (no key: no messages), or read them with `decodeIfPresent` and make nil an empty list"
                    : call.map { $0.method == "decode" && $0.type.hasPrefix("Optional<") } == true
                    ? "and asking `decode` for an Optional type does not make the key optional (it only lets the value be null): read messages with `decodeIfPresent`, and make nil an empty list"
                    : "so read messages with `decodeIfPresent`, and make nil an empty list"
                return """
                    \(asked) throws keyNotFound when the key is missing, decoding \(source)\(location): this thread has \
                    no `messages` key (its keys: \(keys.joined(separator: ", "))). A new thread has none — Firebase \
                    stores no empty list — \(cure). \
                    \(reference)
                    """
            }
            // A thread's own key looked for inside one of the thread's values (its object of messages): the thread was
            // read as if it sat one level deeper, inside an object keyed by its identifier, and the first key taken
            // for that identifier happened to hold an object.
            if path.count == threadDepth + 1, ["title", "identifier"].contains(key.stringValue),
               let thread = value(at: Array(path.prefix(threadDepth)), in: json).objectValue,
               thread[key.stringValue] != nil, let inside = path.last?.stringValue, thread[inside] != nil {
                return """
                    init(from:) looked for "\(key.stringValue)" inside "\(inside)" decoding \(source), but "\(key.stringValue)" \
                    is at the thread's top level: it read the thread as if it sat one level deeper, inside an object \
                    keyed by its identifier (as GET /.json shows a whole database). The decoder init(from:) is given is \
                    the thread itself: read title, identifier and messages from `decoder.container(keyedBy: \
                    CodingKeys.self)` directly — a [String: MessageThread] unwraps the database's keys for you. \
                    \(reference)
                    """
            }
            if let near = keys.first(where: { $0 != key.stringValue && $0.lowercased() == key.stringValue.lowercased() }) {
                return """
                    init(from:) looked for the key "\(key.stringValue)" decoding \(source)\(location), but the JSON \
                    spells it "\(near)". A CodingKeys case's raw value must be exactly the JSON key: \
                    `case \(near)` (or `case x = "\(near)"`). \(reference)
                    """
            }
            if path.count == threadDepth, let object = holder.objectValue, object[key.stringValue] == nil,
               !["title", "identifier"].contains(key.stringValue) {
                return """
                    init(from:) looked for the key "\(key.stringValue)" decoding \(source)\(location), but a thread's \
                    JSON has the keys \(keys.joined(separator: ", ")): no "\(key.stringValue)". CodingKeys should be \
                    exactly title, identifier and messages, with raw values that match the JSON. \(reference)
                    """
            }
            // A key made from an index ("0", "1", …) looked for in an object of messages that has no such key: the
            // object was walked as if Firebase stored it as an array.
            if path.count == threadDepth + 1, path.last?.stringValue == "messages", let object = holder.objectValue,
               object[key.stringValue] == nil, Int(key.stringValue) != nil {
                let pushIDs = keys.filter { $0.hasPrefix("-") }
                return """
                    init(from:) looked for the key "\(key.stringValue)" in `messages` decoding \(source)\(location), \
                    a key made from an index; that object is keyed \(keys.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))\
                    \(keys.count > 3 ? ", …" : "")\(pushIDs.isEmpty ? "" : ": push IDs, which the server chose, one per POST — not 0, 1, 2"). \
                    Only an array that a PUT stored is keyed by indexes. Walk the keys that are there (a nested \
                    container's `allKeys`, with a CodingKey struct that accepts any string), or decode the object as \
                    [String: Message] and keep its values. \(reference)
                    """
            }
            return """
                init(from:) threw keyNotFound for "\(key.stringValue)" decoding \(source)\(location); the object there \
                has the keys \(keys.joined(separator: ", ")). \(oneLine(context.debugDescription)) \(reference)
                """
        case .typeMismatch(let type, let context):
            let path = context.codingPath
            let found = value(at: path, in: json)
            let typeName = String(describing: type)
            if path.count == threadDepth + 1, path.last?.stringValue == "messages" {
                // A first attempt that failed inside a message (the shape was right, a message was not), whose error a
                // `try?` hid before this attempt at another shape: that hidden error is the one to fix.
                if let hidden = log?.calls(forKey: "messages").first(where: { call in
                       guard let error = call.error else { return false }
                       switch error as? DecodingError {
                       case .typeMismatch(_, let context)? where context.codingPath.count <= threadDepth + 1: return false  // a shape that did not match
                       case .keyNotFound(let key, _)? where key.stringValue == "messages": return false
                       default: return true
                       }
                   }), let inner = hidden.error {
                    return """
                        A message in \(source) did not decode, and init(from:) hid that error and tried `messages` as \
                        another shape, which threw \(summary(error)). The error it hid, from \(hidden.description): \
                        \((inner as? DecodingError).map { explain($0, in: json, source: source, threadDepth: threadDepth, log: nil) } ?? explainOther(inner))
                        """
                }
                if typeName.hasPrefix("Array"), let object = found.objectValue {
                    let keys = object.keys.sorted()
                    return """
                        init(from:) asked for `messages` as an array, but in \(source) they are an object keyed by push \
                        IDs (\(keys.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))\(keys.count > 3 ? ", …" : "")): \
                        that is how Firebase stores messages POSTed one by one. An object decodes as a dictionary, \
                        [String: Message], whose values are the messages. \(reference)
                        """
                }
                if typeName.hasPrefix("Dictionary"), found.arrayValue != nil {
                    return """
                        init(from:) asked for `messages` only as a dictionary, but in \(source) they are a JSON array: \
                        what Firebase returns when a PUT stored them under the keys 0, 1, 2, … (its array heuristic). \
                        init(from:) must read both shapes: an array decodes as [Message]. \(reference)
                        """
                }
            }
            if path.count == threadDepth, found.objectValue != nil {
                let container = typeName.hasPrefix("Array") ? "an unkeyed container (a JSON array)" : "a single-value container (one \(typeName))"
                return """
                    init(from:) asked for \(container) decoding \(source)\(describe(path)), but a thread is a JSON \
                    object with the keys title, identifier and messages: that is a keyed container, \
                    `decoder.container(keyedBy: CodingKeys.self)`. \(reference)
                    """
            }
            if path.last?.stringValue == "timestamp", found.numberValue != nil {
                return """
                    init(from:) expected \(typeName) decoding \(source)\(describe(path)), but a message's timestamp is a \
                    number (\(shortJSON(found))): seconds since 2001, which Date's own Decodable reads with JSONDecoder's \
                    default strategy. Decode it as a Date — or let Message decode itself. \(reference)
                    """
            }
            // A keyed container asked for at one of the thread's own keys (a string): the thread was read as if it sat
            // one level deeper, inside an object keyed by its identifier (as GET /.json shows a whole database).
            if path.count == threadDepth + 1, typeName.hasPrefix("Dictionary"), found.stringValue != nil,
               let key = path.last?.stringValue, ["title", "identifier"].contains(key) {
                return """
                    init(from:) opened a keyed container at "\(key)" decoding \(source), but the JSON there is a string \
                    (\(shortJSON(found))): it read the thread as if it sat one level deeper, inside an object keyed by \
                    its identifier (as GET /.json shows a whole database). The decoder init(from:) is given is the \
                    thread itself: read title, identifier and messages from `decoder.container(keyedBy: \
                    CodingKeys.self)` directly — a [String: MessageThread] unwraps the database's keys for you. \
                    \(reference)
                    """
            }
            return """
                init(from:) expected \(typeName) decoding \(source)\(describe(path)), but the JSON there is \
                \(shortJSON(found)). \(oneLine(context.debugDescription)) \(reference)
                """
        case .valueNotFound(let type, let context):
            let path = context.codingPath
            if path.count >= threadDepth + 1, path[threadDepth].stringValue == "messages",
               let thread = value(at: Array(path.prefix(threadDepth)), in: json).objectValue, thread["messages"] == nil {
                // superDecoder(forKey:) and the like hand a missing key on as null: what read it then threw.
                let call = log?.calls(forKey: "messages").last
                let asked = call.map { "init(from:) called \($0.description), and reading what it gave threw" } ?? "init(from:) read `messages` in a way that threw"
                return """
                    \(asked) \(summary(error)) decoding \(source): this thread has no `messages` key (its keys: \
                    \(thread.keys.sorted().joined(separator: ", "))). A new thread has none — Firebase stores no empty \
                    list — so read messages with `decodeIfPresent` (or ask `contains(.messages)` first), and make nil \
                    an empty list. \(reference)
                    """
            }
            return """
                init(from:) expected \(type) decoding \(source)\(describe(context.codingPath)) but found null or \
                nothing. \(oneLine(context.debugDescription)) \(reference)
                """
        case .dataCorrupted(let context) where context.codingPath.last?.stringValue == "timestamp"
                                            && value(at: context.codingPath, in: json).numberValue != nil:
            let found = value(at: context.codingPath, in: json)
            return """
                init(from:) could not read \(shortJSON(found)) decoding \(source)\(describe(context.codingPath)): \
                a message's timestamp is seconds since 2001 with a fraction, which a whole-number type cannot hold \
                (\(oneLine(context.debugDescription))). Decode it as a Date — or let Message decode itself. \
                \(reference)
                """
        case .dataCorrupted(let context) where context.codingPath.isEmpty && context.debugDescription.contains("not valid JSON"):
            // Foundation's JSONDecoder on Linux (swift-foundation, Swift 6.3) says this, with no coding path, of a
            // number it cannot read as the type asked for (5.55405872056162E8 as an Int); the fixture is valid JSON.
            return """
                JSONDecoder threw dataCorrupted ("\(oneLine(context.debugDescription))") decoding \(source), which is \
                valid JSON: on Linux Foundation says that of a number it cannot read as the type asked for — most \
                likely a message's timestamp, seconds since 2001 with a fraction (such as 5.55405872056162E8), read as \
                an Int. Decode it as a Date — or let Message decode itself. \(reference)
                """
        case .dataCorrupted(let context) where context.underlyingError is DecodingError:
            // A catch-all (typed throws(DecodingError) invites one) that wraps every error, a DecodingError included.
            let inner = context.underlyingError.map(summary) ?? ""
            return """
                init(from:) threw a new DecodingError.dataCorrupted decoding \(source) ("\(oneLine(context.debugDescription))"), \
                which wrapped the DecodingError it caught: \(inner). A caller reads the error itself, not what it wraps: \
                let a DecodingError through as it is (`catch let error as DecodingError { throw error }`), and wrap only \
                other errors. \(reference)
                """
        case .dataCorrupted(let context):
            return "init(from:) found corrupted data decoding \(source)\(describe(context.codingPath)): \(oneLine(context.debugDescription)) \(reference)"
        @unknown default:
            return "init(from:) threw \(oneLine(error)) decoding \(source). \(reference)"
        }
    }

    /// An error from inside a message that is no `DecodingError`: Foundation's JSONDecoder (swift-foundation) lets
    /// its own `JSONError.numberIsNotRepresentableInSwift` through when a number does not fit the type asked for.
    static func explainOther(_ error: Error) -> String {
        guard String(describing: error).contains("numberIsNotRepresentable") else {
            return "\(oneLine(error)). See LESSONS.md §3.3."
        }
        return """
            \(oneLine(error)): JSONDecoder could not read that number as the type asked for. A message's timestamp is \
            seconds since 2001 with a fraction, which a whole-number type (an Int) cannot hold: decode it as a Date — \
            or let Message decode itself. See LESSONS.md §3.3.
            """
    }

    /// " at messages/-LJNQ2zNeL4bwG1qpwYB", or "" at the top.
    static func describe(_ path: [CodingKey]) -> String {
        path.isEmpty ? "" : " at \(path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/"))"
    }

    /// The JSON at a decoder's coding path.
    static func value(at path: [CodingKey], in json: JSONValue) -> JSONValue {
        path.reduce(json) { node, key in
            if let index = key.intValue, let array = node.arrayValue {
                return array.indices.contains(index) ? array[index] : .null
            }
            return node[key.stringValue]
        }
    }

    static func shortJSON(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// "keyNotFound for "title"" / "typeMismatch (expected Array<Any>) at messages", short.
    static func summary(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context): return "keyNotFound for \"\(key.stringValue)\"\(describe(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context): return "typeMismatch (expected \(type))\(describe(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context): return "valueNotFound (\(type))\(describe(context.codingPath))"
        case DecodingError.dataCorrupted(let context): return "dataCorrupted\(describe(context.codingPath))"
        default: return oneLine(error)
        }
    }

    // MARK: The reference reading (none of the learner's code)

    /// One message read from its JSON object, or nil when it lacks a field.
    static func referenceMessage(_ json: JSONValue) -> MessageThread.Message? {
        guard let text = json["text"].stringValue, let sender = json["sender"].stringValue,
              let seconds = json["timestamp"].numberValue else { return nil }
        return MessageThread.Message(text: text, sender: sender, timestamp: Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// The messages a thread's JSON holds, oldest first: from an object (keyed by push IDs, or by 0, 1, 2 and push
    /// IDs) or an array; none when `messages` is missing.
    static func referenceMessages(_ thread: JSONValue) -> [MessageThread.Message] {
        let children = thread["messages"].objectValue.map { Array($0.values) } ?? thread["messages"].arrayValue ?? []
        return children.compactMap(referenceMessage).sorted { $0.timestamp < $1.timestamp }
    }

    /// What Firebase stores for a `messages` value a client writes, as a list in order: an array as it is; an
    /// object keyed exactly "0", "1", … as the array Firebase reads back (its array heuristic); null, `[]` and `{}`
    /// as nothing (Firebase stores no empty list). Nil for an object with other keys, or a value that is no list.
    static func messagesAsFirebaseStoresThem(_ value: JSONValue) -> [JSONValue]? {
        switch value {
        case .array(let array): return array
        case .null: return []
        case .object(let object):
            let indexes = (0..<object.count).map(String.init)
            guard Set(object.keys) == Set(indexes) else { return nil }
            return indexes.compactMap { object[$0] }
        default: return nil
        }
    }

    /// The sentence that names an empty (or blank) field read, or written, with a placeholder in its place.
    static func placeholderCause(_ field: String, was: String, now: String) -> String {
        """
        Its \(field) is \(was.debugDescription), and it came out as \(now.debugDescription): a placeholder for the \
        screen, kept in the data, which the next PUT of the thread stores. Keep the \(field) as it is, even an empty \
        one — what the screen shows for it is the view's business — and let Message's own Codable handle each message.
        """
    }

    /// "Ada 2018-08-08 07:24:32.056" per message, to show an order in a message.
    static func timeline(_ messages: [MessageThread.Message]) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return "[" + messages.map { "\($0.sender) \(formatter.string(from: $0.timestamp))" }.joined(separator: ", ") + "]"
    }

    static func describe(_ message: MessageThread.Message) -> String {
        "(text: \(message.text.debugDescription), sender: \(message.sender.debugDescription), timestamp: \(message.timestamp.timeIntervalSinceReferenceDate))"
    }

    // MARK: Checking what init(from:) read

    /// Whether `thread`, whose messages init(from:) returned as `returned` (not oldest first), puts them in order by
    /// itself within 0.3 s while the main queue does not run: a sort it left running on another thread. Such a sort
    /// may also win the race and finish before init(from:) returns, so these tests cannot fail it every run;
    /// `test_initFrom_sortsTheMessagesBeforeItReturns` does, on a longer thread.
    static func cameIntoOrderOffTheMainQueue(_ thread: MessageThread, returned: [MessageThread.Message], expected: [MessageThread.Message]) -> Bool {
        guard returned.count == expected.count else { return false }
        let deadline = Date().addingTimeInterval(0.3)
        while true {
            let now = thread.messages
            if now != returned {
                let key = { (m: MessageThread.Message) in (m.timestamp, m.sender, m.text) }
                return isOldestFirst(now) && now.sorted { key($0) < key($1) } == returned.sorted { key($0) < key($1) }
            }
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.002)  // not the run loop: work left on the main queue stays undone
        }
    }

    /// Whether `messages` (a `DecoderLog.messagesAtReturn`, or nil) are oldest first: true for nil.
    static func isOldestFirst(_ messages: Any?) -> Bool {
        guard let times = (messages as? [MessageThread.Message])?.map(\.timestamp) else { return true }
        return zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// Checks that `actual` are the messages of the thread `json`, every field, oldest first (the order only with
    /// `checkingOrder`: a test about something else must not fail, by luck or not, on a dictionary's order). Each
    /// failure says what differs, and names a cause only when it checked it (with `log`, what init(from:) asked for).
    func assertMessages(_ actual: [MessageThread.Message], of json: JSONValue, source: String, log: DecoderLog?,
                        checkingOrder: Bool = true, thread: MessageThread? = nil,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = "See LESSONS.md §3.3."
        // The messages as init(from:) returned them, not as they are now. Work left on the main queue is caught every
        // run (the main thread waits while init(from:) runs, and the main queue waits with it). A sort left running
        // on another thread (a `DispatchQueue.global().async`, a `Task.detached`) races with the return and, on a
        // dozen messages, wins about as often as it loses: such a thread is let through here, once it has come into
        // order by itself, and `test_initFrom_sortsTheMessagesBeforeItReturns` fails it every run, on a thread long
        // enough that its sort cannot finish before init(from:) has returned.
        let actual = thread != nil ? (log?.messagesAtReturn as? [MessageThread.Message] ?? actual) : actual
        let expected = Self.referenceMessages(json)
        let shape: String
        switch json["messages"] {
        case .object(let object):
            shape = object.keys.allSatisfy({ $0.hasPrefix("-") })
                ? "Here `messages` is an object keyed by push IDs: a dictionary, [String: Message]."
                : "Here `messages` is an object keyed \(object.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) (a PUT array, then POSTs): a dictionary, [String: Message]."
        case .array: shape = "Here `messages` is a JSON array (as Firebase returns messages that a PUT stored under 0, 1, 2, …): [Message]."
        default: shape = "Here there is no `messages` key."
        }
        guard actual.count == expected.count else {
            var cause = ""
            // A nested container over `messages` whose allKeys lists fewer keys than the object has: its key type
            // could not make the others from their strings (an enum such as CodingKeys knows only its own cases).
            let unlisted = log?.calls(forKey: "messages").lazy.compactMap { call -> String? in
                guard call.method == "nestedContainer", call.error == nil, let listed = call.count,
                      let object = json["messages"].objectValue, listed < object.count else { return nil }
                let why = call.type == "CodingKeys"
                    ? ": CodingKeys is an enum, and knows only its own cases (title, identifier, messages) — no push ID"
                    : " (an enum of keys knows only its own cases; a struct's init?(stringValue:) may refuse some)"
                return """
                     init(from:) walked `messages` with \(call.description), whose allKeys listed \(listed) of its \
                    \(object.count) keys: a keyed container lists only the keys its key type can make from a string, \
                    and `\(call.type)(stringValue:)` gave nil for the others\(why). \
                    Walk keys you cannot name in advance with a CodingKey struct whose `init?(stringValue:)` accepts \
                    every string — or decode the object as [String: Message].
                    """
            }.first
            if let unlisted = unlisted {
                cause = unlisted
            } else if actual.isEmpty, let log = log, log.calls.contains(where: { $0.method == "superDecoder()" }),
                      !log.keysAskedFor.contains("messages") {
                cause = """
                     init(from:) read its messages through `container.superDecoder()`, which reads the key "super" — \
                    no thread has one, so it found nothing there. `superDecoder(forKey: .messages)` reads the key \
                    "messages" (or decode them from the container itself).
                    """
            } else if actual.isEmpty, let log = log {
                if !log.keysAskedFor.contains("messages") {
                    let others = log.keysAskedFor.filter { !["title", "identifier"].contains($0) }
                    cause = """
                         init(from:) never asked its container for the key "messages" (it asked for: \
                        \(log.keysAskedFor.map { "\"\($0)\"" }.joined(separator: ", ")))\
                        \(others.isEmpty ? ": read the messages from the key \"messages\"." : ": a CodingKeys case's raw value must be exactly the JSON key, \"messages\".")
                        """
                } else if let kept = log.calls(forKey: "messages").first(where: { ($0.count ?? 0) > 0 }), let count = kept.count {
                    cause = " \(kept.description) gave \(count) message(s), but init(from:) kept none of them."
                } else if log.calls(forKey: "messages").allSatisfy({ $0.error != nil }),
                          let swallowed = log.calls(forKey: "messages").last, let error = swallowed.error {
                    cause = """
                         \(swallowed.description) threw \(Self.summary(error)), and init(from:) carried on with no \
                        messages: a `try?` (or a `catch`) turned that error into an empty list.
                        """
                }
            } else if !actual.isEmpty, actual.count < expected.count {
                if let gave = log?.calls(forKey: "messages").first(where: { $0.count == expected.count }) {
                    cause = " \(gave.description) gave \(expected.count) message(s), but init(from:) kept only \(actual.count) of them."
                }
                // A message that looks like another one (the same sender and text, sent twice) is still its own message
                // — even one equal to another in every field (a POST tried again). Matched one for one.
                var unmatched = actual
                let dropped = expected.filter { want in
                    guard let index = unmatched.firstIndex(of: want) else { return true }
                    unmatched.remove(at: index)
                    return false
                }
                if !dropped.isEmpty, dropped.allSatisfy({ actual.contains($0) }) {
                    let twin = dropped[0]
                    cause += """
                         It dropped a message equal in every field to one it kept (\(twin.sender)'s \
                        \(twin.text.debugDescription) is there twice — a request tried again): each \
                        child of `messages` is its own message — keep every one, even when two are equal (no \
                        `contains` check, no Set).
                        """
                } else if let twin = dropped.first(where: { want in actual.contains { $0.sender == want.sender && $0.text == want.text } }) {
                    cause += """
                         It dropped a message whose sender and text another message also has (\(twin.sender)'s \
                        \(twin.text.debugDescription), sent twice): each child of `messages` is its own message — keep \
                        every one, even when two look alike.
                        """
                }
                let now = Date()
                if !dropped.isEmpty, unmatched.isEmpty, dropped.allSatisfy({ $0.timestamp > now }), expected.contains(where: { $0.timestamp <= now }) {
                    cause += """
                         It dropped the message(s) dated in the future (\(dropped.map { "\($0.sender)'s \($0.text.debugDescription)" }.joined(separator: ", ")): \
                        stamped by a device whose clock ran ahead). They are messages the database holds, and the model \
                        is what the next PUT of the thread writes back: a filter by date here deletes them. Keep every \
                        child of `messages`, whatever its timestamp.
                        """
                }
                if let object = json["messages"].objectValue {
                    // Which children it kept: those under push IDs ("-…"), or those under the 0, 1, 2 of a PUT.
                    func children(underPushIDs: Bool) -> [MessageThread.Message] {
                        object.filter { $0.key.hasPrefix("-") == underPushIDs }.values.compactMap(Self.referenceMessage)
                            .sorted { $0.timestamp < $1.timestamp }
                    }
                    let kept = actual.sorted { $0.timestamp < $1.timestamp }
                    if let which = kept == children(underPushIDs: true) ? "push IDs, and dropped those under the keys 0, 1, 2, … that a PUT left"
                        : kept == children(underPushIDs: false) ? "the keys 0, 1, 2, … that a PUT left, and dropped those under push IDs" : nil {
                        cause += " It kept the messages under \(which): every child of `messages` is a message, whatever its key."
                    }
                }
            }
            throw fail("""
                init(from:) read \(actual.count) message(s) from \(source); the JSON holds \(expected.count).\(cause) \
                \(shape) \(reference)
                """, file: file, line: line)
        }
        let inTimeOrder = actual.sorted { $0.timestamp < $1.timestamp }
        if inTimeOrder != expected {
            // A field is wrong: show the first expected message that was not read exactly, next to what was read.
            for (index, want) in expected.enumerated() where !actual.contains(want) {
                let got = actual.first { $0.text == want.text && $0.sender == want.sender }
                    ?? actual.first { $0.timestamp == want.timestamp }
                    ?? inTimeOrder[index]
                var cause = "Let Message's own Decodable read each message, and keep it as it is."
                let shift = got.timestamp.timeIntervalSinceReferenceDate - want.timestamp.timeIntervalSinceReferenceDate
                let seconds = want.timestamp.timeIntervalSinceReferenceDate
                if got.text == want.text, got.sender == want.sender, abs(abs(shift) - Self.secondsFrom1970To2001) < 1 {
                    cause = """
                        The timestamp is off by exactly the 31 years between 1970 and 2001: the JSON number is seconds \
                        since 2001 (what Date's own Decodable reads with JSONDecoder's default strategy), not since 1970.
                        """
                } else if got.text == want.text, got.sender == want.sender,
                          abs(got.timestamp.timeIntervalSince1970 * 1000 - seconds) < 1 {
                    cause = """
                        The timestamp was read as milliseconds since 1970 (JavaScript's Date.now()): the JSON number is \
                        seconds since 2001 (what Date's own Decodable reads with JSONDecoder's default strategy).
                        """
                } else if got.sender == want.sender, got.timestamp == want.timestamp, got.text != want.text,
                          got.text == want.text.trimmingCharacters(in: .whitespacesAndNewlines) {
                    cause = """
                        Its text was trimmed: the newline or spaces its author typed at its start or end are gone. \
                        Decoding changes no data: keep the text exactly as the JSON holds it — let Message's own \
                        Decodable read each message.
                        """
                } else if got.text == want.sender, got.sender == want.text {
                    cause = """
                        Its text and sender are swapped: text is read from the key "text", sender from the key "sender". \
                        Let Message's own Decodable read each message, and keep it as it is.
                        """
                } else if got.timestamp == want.timestamp, got.sender == want.sender, got.text != want.text,
                          want.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    cause = Self.placeholderCause("text", was: want.text, now: got.text)
                } else if got.timestamp == want.timestamp, got.text == want.text, want.sender.isEmpty, !got.sender.isEmpty {
                    cause = Self.placeholderCause("sender", was: want.sender, now: got.sender)
                } else if got.text == want.text, got.timestamp == want.timestamp, got.sender != want.sender,
                          got.sender.lowercased() == want.sender.lowercased() {
                    cause = """
                        Its sender's letters' case was changed (\(want.sender.debugDescription) became \
                        \(got.sender.debugDescription), as `capitalized` does): a name is kept exactly as its author \
                        typed it — how the screen shows it is the view's business, and the model is what the next PUT \
                        writes back. Let Message's own Decodable read each message, and keep it as it is.
                        """
                } else if got.text == want.text, got.sender == want.sender,
                          got.timestamp.timeIntervalSinceReferenceDate == Double(Float(seconds)) {
                    cause = """
                        The timestamp is off by \(String(format: "%.6f", shift)) s: it went through a Float, which keeps \
                        about 7 significant digits (this timestamp has 15). Read it as a Date (or a Double): let \
                        Message's own Decodable read each message.
                        """
                } else if got.text == want.text, got.sender == want.sender, abs(shift) > 3600,
                          abs(got.timestamp.timeIntervalSinceNow) < 600 {
                    cause = """
                        The timestamp is the moment init(from:) ran, not the message's own: the message was built \
                        without the timestamp it read, and `Message(text:sender:)` compiles because its `timestamp` \
                        has a default value, Date(). Pass the timestamp the JSON holds — or let Message's own \
                        Decodable read each message.
                        """
                } else if got.text == want.text, got.sender == want.sender, Self.isTimeZoneShift(shift, at: want.timestamp) {
                    cause = Self.timeZoneCause(shift) + " Let Message's own Decodable read each message."
                } else if got.text == want.text, got.sender == want.sender, shift != 0, abs(shift) < 0.00001 {
                    cause = """
                        The timestamp is off by \(shift) s, in its last digits: it went through a conversion that is \
                        not exact — a Decimal (its doubleValue is not always the nearest Double), a String, or \
                        arithmetic on the seconds (through 1970 and back, `Date(timeIntervalSince1970: seconds + \
                        978307200)`: the sum rounds, and so does Date's own subtraction). Read it as a Date (or a \
                        Double, with `Date(timeIntervalSinceReferenceDate:)`) and keep the value the decoder gives: \
                        let Message's own Decodable read each message.
                        """
                } else if got.text == want.text, got.sender == want.sender, shift != 0, abs(shift) < 3600 {
                    cause = """
                        The timestamp is off by \(String(format: "%.6f", shift)) s: it lost digits on the way (rounded, or \
                        read as a smaller type). Read it as a Date: let Message's own Decodable read each message.
                        """
                }
                if actual.count > 1, actual.allSatisfy({ $0 == actual[0] }) {
                    cause = """
                        Every message it read is the same one, \(actual.count) times over: a container that starts \
                        over — an unkeyed container opened again on each pass, or a copy of one — reads the first \
                        element every time. Open the nested container once and decode from it until `isAtEnd` (or \
                        decode the whole array as [Message]).
                        """
                }
                throw fail("""
                    init(from:) read a message from \(source) as \(Self.describe(got)); the JSON says \
                    \(Self.describe(want)). \(cause) \(reference)
                    """, file: file, line: line)
            }
        }
        guard checkingOrder, actual != expected else { return }
        if let thread = thread, Self.cameIntoOrderOffTheMainQueue(thread, returned: actual, expected: expected) { return }
        var cause = """
            A dictionary (and a JSON object) has no order: sort the messages by timestamp, oldest first, whichever \
            shape they came in (and keep the result: `sorted(by:)` returns a sorted copy, `sort(by:)` sorts a var in place).
            """
        // A `messages` whose didSet sorts: an assignment after init sorts them, one in init(from:) does not.
        var observed = false
        if let thread = thread {
            let read = thread.messages
            thread.messages = read
            observed = thread.messages != read && thread.messages == expected
            thread.messages = read
        }
        // Work init(from:) left running (a `DispatchQueue.main.async` that sorts): let the main queue run a moment.
        var sortedLater = false
        if let thread = thread, !observed, Thread.isMainThread {
            let deadline = Date().addingTimeInterval(0.2)
            while Date() < deadline, thread.messages == actual {
                RunLoop.current.run(until: Date().addingTimeInterval(0.01))
            }
            sortedLater = thread.messages != actual && thread.messages == expected
        }
        let wholeSeconds = actual.map { $0.timestamp.timeIntervalSinceReferenceDate.rounded(.down) }
        let wholeMilliseconds = actual.map { ($0.timestamp.timeIntervalSinceReferenceDate * 1000).rounded(.down) }
        if sortedLater {
            cause = """
                They were sorted after init(from:) had returned, by work it left on a queue (a \
                `DispatchQueue.main.async`, a `DispatchQueue.global().async`, a `Task`): whoever decodes a thread uses it \
                as soon as the decoder returns, and a sort on another thread races with it. Sort them in init(from:) \
                itself, before it returns.
                """
        } else if observed {
            cause = """
                Assigned again after init(from:) returned, `messages` sorts itself: a `didSet` does that, but property \
                observers do not run for assignments in an initialiser. Sort the messages in init(from:) itself.
                """
        } else if actual == expected.reversed() {
            cause = "That is newest first: sort in ascending order of timestamp."
        } else if wholeMilliseconds == wholeMilliseconds.sorted() {
            cause = """
                Millisecond by millisecond the order is right, but not within a millisecond: the sort compared whole \
                milliseconds (`Int(timestamp * 1000)`, as JavaScript counts). A Date holds fractions of a millisecond, \
                and the messages an app posts at once are that close. Compare the full timestamps: \
                `$0.timestamp < $1.timestamp`.
                """
        } else if wholeSeconds == wholeSeconds.sorted() {
            cause = """
                Second by second the order is right, but not within a second: the sort compared whole seconds (or \
                text with seconds in it, such as a date's description). Compare the full timestamps: \
                `$0.timestamp < $1.timestamp`.
                """
        } else if let array = json["messages"].arrayValue, actual == array.compactMap(Self.referenceMessage) {
            cause = "That is the array's own order, which need not be chronological (another app PUT it): sort after reading either shape, array or object."
        } else if let object = json["messages"].objectValue,
                  actual == object.sorted(by: { $0.key < $1.key }).compactMap({ Self.referenceMessage($0.value) }) {
            cause = """
                That is the order of their keys (\(object.keys.sorted().joined(separator: ", "))): push IDs sort by \
                the time of the POST, but the keys 0, 1, 2 of a PUT sort after a push ID's "-". Sort by timestamp, \
                which every message has.
                """
        }
        throw fail("""
            init(from:) read the right messages from \(source) but not oldest first: \(Self.timeline(actual)); \
            expected \(Self.timeline(expected)). \(cause) \(reference)
            """, file: file, line: line)
    }

    // MARK: Encoding with the learner's encode(to:)

    /// `thread` encoded with a plain JSONEncoder through the learner's `encode(to:)`, as bytes and JSON.
    func encodeThread(_ thread: MessageThread, file: StaticString = #filePath, line: UInt = #line) throws -> (data: Data, json: JSONValue) {
        let data: Data
        do {
            data = try JSONEncoder().encode(thread)
        } catch {
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("encode(to:) threw \(oneLine(error)). It should write the thread's keys and never throw for a valid thread. See LESSONS.md §3.4.", file: file, line: line)
        }
        do {
            return (data, try JSONValue(data: data))
        } catch {
            throw fail("What encode(to:) wrote is not JSON: \(String(decoding: data, as: UTF8.self)). See LESSONS.md §3.4.", file: file, line: line)
        }
    }

    /// What is wrong with the keys of a thread's JSON that encode(to:) wrote, or nil when it is a JSON object with
    /// the keys title, identifier and messages (messages may be left out when `thread` has none).
    static func keysProblem(of json: JSONValue, for thread: MessageThread) -> String? {
        guard let object = json.objectValue else {
            return """
                encode(to:) wrote \(shortJSON(json)), not a JSON object. A thread is an object with the keys title, \
                identifier and messages: encode through `encoder.container(keyedBy: CodingKeys.self)`, not a \
                single-value or unkeyed container. See LESSONS.md §3.4.
                """
        }
        if object.count == 1, let inner = object[thread.identifier]?.objectValue, inner["title"] != nil || inner["identifier"] != nil {
            return """
                encode(to:) wrote the thread inside an object keyed by its identifier ({"\(thread.identifier)": {…}}), \
                as GET /.json shows a whole database. The app PUTs a thread at /<identifier>.json, so its body is the \
                thread itself: the keys title, identifier and messages at the top, in \
                `encoder.container(keyedBy: CodingKeys.self)`. Nested, Firebase would store it one level too deep. \
                See LESSONS.md §3.4.
                """
        }
        let keys = Set(object.keys)
        var expected: Set = ["title", "identifier", "messages"]
        if thread.messages.isEmpty, !keys.contains("messages") { expected.remove("messages") }
        guard keys == expected else {
            let missing = expected.subtracting(keys).sorted()
            let extra = keys.subtracting(expected).sorted()
            return """
                encode(to:) wrote the keys \(keys.sorted()); a thread's JSON has exactly title, identifier and \
                messages\(thread.messages.isEmpty ? " (messages may be left out for a thread with none)" : ""). \
                \(missing.isEmpty ? "" : "Missing: \(missing). ")\(extra.isEmpty ? "" : "Not expected: \(extra) — Firebase would store them as data. ")\
                Encode each property once, for its own CodingKeys case. See LESSONS.md §3.4.
                """
        }
        return nil
    }

    /// A thread with three messages, oldest first, built in code (so the encoding tests need no init(from:)).
    static func threeMessageThread() -> MessageThread {
        MessageThread(title: "Encoding by hand", identifier: "5D2C8A10-3B4E-4F6A-9C7D-8E1F2A3B4C5D", messages: [
            // Neither their texts nor their senders are in alphabetical order (nor its reverse): a sort by either
            // changes the order.
            MessageThread.Message(text: "Posted first: an array keeps its order.", sender: "Grace", timestamp: Date(timeIntervalSinceReferenceDate: 5.55405872056162E8)),
            MessageThread.Message(text: "Two: no keys of my own, says Rene\u{301}e.", sender: "Ada", timestamp: Date(timeIntervalSinceReferenceDate: 5.55405931123456E8)),
            // linus wrote his name in lowercase: a name is kept as typed (a `capitalized` changes it).
            MessageThread.Message(text: "And Firebase keeps them as 0, 1, 2 🎯", sender: "linus", timestamp: Date(timeIntervalSinceReferenceDate: 5.55406010987654E8)),
        ])
    }
}

/// A thread decoded with the learner's init(from:) and the real decoder, and its messages the moment init(from:)
/// returned (work it left running on another thread may reorder them before the test looks).
struct ReturnedThread: Decodable {
    let thread: MessageThread
    let messages: [MessageThread.Message]

    init(from decoder: Decoder) throws {
        thread = try MessageThread(from: decoder)
        messages = thread.messages
    }
}

/// Decodes a thread with the learner's init(from:), handing it a `SpyDecoder` that records its calls in the
/// `DecoderLog` found in the JSONDecoder's userInfo.
struct LoggedThread: Decodable {
    let thread: MessageThread

    init(from decoder: Decoder) throws {
        guard let log = decoder.userInfo[DecoderLog.userInfoKey] as? DecoderLog else {
            thread = try MessageThread(from: decoder)
            return
        }
        thread = try MessageThread(from: SpyDecoder(base: decoder, log: log))
        log.messagesAtReturn = thread.messages
    }
}
