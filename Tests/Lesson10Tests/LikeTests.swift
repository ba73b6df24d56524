import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson10

/// Exercise 10.6: `like(_:)` — read with `X-Firebase-ETag: true`, write with `if-match`, and on 412 write again from
/// the count and ETag the 412 carries, at most `maxAttempts` writes. The counter starts at 3.
final class LikeTests: LikesTestCase {
    let exercise = LikesTestCase.like

    // MARK: The read and the write

    func test_like_readsTheCountWithXFirebaseETag() throws {
        _ = try call(exercise) { try await $0.like(Self.messageKey) }
        guard let read = emulator.requests.first, read.method == "GET" else {
            return XCTFail("""
                \(exercise.function) did not start with a GET of the counter (\(TrafficReport(emulator).summary)): a \
                conditional write needs the ETag of what you read. See LESSONS.md §10.5.
                """)
        }
        XCTAssertEqual(read.path, Self.counterPath, "\(exercise.function) read \(read.summary); the counter is <baseURL>/likes/m1.json (likesURL(of:)). See \(exercise.reference).")
        XCTAssertTrue(read.hasJSONSuffix, """
            \(exercise.function) read \(read.summary) without .json: Firebase's REST API is the location's URL + .json, \
            <baseURL>/likes/m1.json (likesURL(of:) gives it), and it refuses the request otherwise. See \(exercise.reference).
            """)
        guard read.header("X-Firebase-ETag")?.lowercased() != "true" else { return }
        // The count read plainly and the tag by another read before the first write: two answers, not one.
        let beforeTheWrite = emulator.requests.prefix { $0.method == "GET" }
        if let tagged = beforeTheWrite.dropFirst().first(where: { $0.header("X-Firebase-ETag")?.lowercased() == "true" }) {
            return XCTFail("""
                \(exercise.function) read the count without X-Firebase-ETag: true and the tag with another read \
                (\(tagged.summary)): take the count and the ETag from the same answer, one GET with X-Firebase-ETag: true — \
                a like written between two reads is in the tag and not in the count, and a write from them overwrites it. \
                See LESSONS.md §10.5.
                \(TrafficReport(emulator).summary)
                """)
        }
        XCTFail("""
            \(exercise.function) read the count without the header X-Firebase-ETag: true, so Firebase sent no ETag to \
            write with. See LESSONS.md §10.5.
            \(read.summary)
            """)
    }

    func test_like_writesTheCountPlusOne_withIfMatchOfTheETagRead() throws {
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        let etag = emulator.requests.first?.response.headers["ETag"]
        guard let write = writes.first else {
            if let asGET = writeSentAsGET(exercise) { return XCTFail(asGET) }
            // The read answered a tag, and the call gave up before writing: it did not find the header.
            let lookup = etag == nil ? "" : """

                If your code did not find the tag: read it with response.value(forHTTPHeaderField: "ETag"), which ignores case: \
                allHeaderFields is a plain dictionary, and Foundation on Linux spells this key "Etag", so \
                allHeaderFields["ETag"] finds nothing.
                """
            if case .success = result, etag != nil {
                return XCTFail("""
                    \(exercise.function) returned \(result.outcome.dropFirst("returned ".count)) and no write reached the server: \
                    a write started in a `Task { }`, or in an `async let` the function does not await (Swift cancels it when \
                    the function returns), is work left running or never done. Await the write's answer, and return the \
                    count of the write that succeeded. See \(exercise.reference).
                    \(TrafficReport(emulator).summary)
                    """)
            }
            return XCTFail("""
                \(exercise.function) sent no write after its read: the tag is the read answer's ETag header; write \
                count + 1 with if-match: <that ETag>. See LESSONS.md §10.5.\(lookup)
                It \(result.outcome). The read was answered ETag: \(etag ?? "(none)"). \(TrafficReport(emulator).summary)
                """)
        }
        XCTAssertEqual(write.method, "PUT", "\(exercise.function) wrote with \(write.method); a conditional write is a PUT of the whole new count. \(write.summary)")
        guard let ifMatch = write.header("if-match") else {
            // The tag sent under the response's header name (ETag, X-Firebase-ETag) instead of the request's.
            if let tag = etag, let name = ["ETag", "X-Firebase-ETag"].first(where: { write.header($0) == tag }) {
                return XCTFail("""
                    \(exercise.function) sent the tag as \(name): \(tag), not as if-match: Firebase reads the condition only \
                    from if-match (ETag is the name of the answer's header), so the write was a plain PUT, which overwrites \
                    whatever another client wrote meanwhile (a lost update). Send \
                    write.setValue(tag, forHTTPHeaderField: "if-match"). See LESSONS.md §10.5.
                    \(write.summary)
                    """)
            }
            // The header named with the colon of "if-match: <tag>", as the lesson writes a request: another name.
            if let named = write.headers.keys.first(where: { name in
                let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: ": ")).lowercased()
                return bare == "if-match" && name.lowercased() != "if-match"
            }) {
                return XCTFail("""
                    \(exercise.function) sent its tag under a header named "\(named)": with the colon, that is another \
                    header, not if-match, so the write was a plain PUT, which overwrites whatever another client wrote \
                    meanwhile (a lost update). The colon separates a header's name from its value in the request's text; \
                    the name is if-match: write.setValue(tag, forHTTPHeaderField: "if-match"). See LESSONS.md §10.5.
                    \(write.summary)
                    """)
            }
            return XCTFail("""
                \(exercise.function) wrote without if-match: a plain PUT overwrites whatever another client wrote \
                meanwhile (a lost update). Send if-match: <the ETag you read>. See LESSONS.md §10.5.
                If your code sets it and it is not sent: the header's name is if-match, without the colon of \
                "if-match: <tag>" (a name with a colon is another header); allHTTPHeaderFields is nil on a new URLRequest, so \
                request.allHTTPHeaderFields?["if-match"] = tag sets nothing; and a URLRequest is a value, so a header set \
                on a copy (a function's parameter, `var r = write`) is not on the request you send. Call \
                write.setValue(tag, forHTTPHeaderField: "if-match") on the request you send.
                \(write.summary)
                """)
        }
        // An empty if-match (or "nil", or null_etag when something is stored) is a tag the code never found: say where
        // it is, as when no write is sent.
        let sent = ifMatch.trimmingCharacters(in: .whitespaces).lowercased()
        let notFound = ["", "nil", "null", "null_etag"].contains(sent) && etag != nil && etag != "null_etag" ? """
             \(sent == "null_etag" ? "null_etag while a count is stored is a fallback for a tag" : "An empty tag is one") \
            your code did not find: read it with response.value(forHTTPHeaderField: "ETag"), which ignores case: \
            allHeaderFields is a plain dictionary, and Foundation on Linux spells this key "Etag", so \
            allHeaderFields["ETag"] finds nothing.
            """ : ""
        if ifMatch.hasPrefix("Optional(") {
            return XCTFail("""
                \(exercise.function) sent if-match: \(ifMatch): an optional interpolated into a string ("\\(etag)" of a \
                String?) is written Optional("…"), never the tag. value(forHTTPHeaderField:) gives a String?: unwrap it \
                (guard let etag = response.value(forHTTPHeaderField: "ETag") else { … }) and send the tag itself, \
                write.setValue(etag, forHTTPHeaderField: "if-match"). See LESSONS.md §10.5.
                \(write.summary)
                """)
        }
        XCTAssertEqual(ifMatch, etag, """
            \(exercise.function) sent if-match: \(ifMatch.isEmpty ? "(empty)" : ifMatch), not the ETag the read answered \
            (\(etag ?? "none")): the tag is the server's, opaque — copy it from the ETag header.\(notFound) See LESSONS.md §10.5.
            """)
        if let text = write.bodyJSON?.stringValue {
            return XCTFail("""
                \(exercise.function) wrote the JSON string "\(text)": a count is a number, 4, not "4". See LESSONS.md §10.5.
                Encode the Int (JSONEncoder().encode(count + 1)) or send its digits, Data(String(count + 1).utf8).
                \(write.summary)
                """)
        }
        if write.bodyJSON?.objectValue != nil {
            return XCTFail("""
                \(exercise.function) wrote the object \(write.bodyText ?? "") over the count: the counter holds a bare \
                number, \(Self.startingLikes + 1), not an object around it (that would store likes/m1/<name>). See LESSONS.md §10.5.
                \(write.summary)
                """)
        }
        if let body = write.body, !body.isEmpty, write.bodyJSON == nil {
            return XCTFail("""
                \(exercise.function) wrote a body that is not JSON (\(body.count) bytes: \(body.prefix(8).map { String($0) }.joined(separator: " "))\
                \(body.count > 8 ? " …" : "")) over the count, and Firebase refused it: the count goes as a JSON number, its \
                digits as text — Data(String(count + 1).utf8) or JSONEncoder().encode(count + 1) — not the Int's own bytes \
                in memory (withUnsafeBytes(of:)). See LESSONS.md §10.6.
                \(write.summary)
                """)
        }
        XCTAssertEqual(write.bodyJSON, .number(Double(Self.startingLikes + 1)), """
            \(exercise.function) wrote \(write.bodyText ?? "nothing") over a count of \(Self.startingLikes); the new count \
            is \(Self.startingLikes + 1). \(write.summary)
            """)
    }

    func test_like_returnsTheNewCount_andStoresIt() throws {
        let count = try requireCount(try call(exercise) { try await $0.like(Self.messageKey) }, exercise)
        XCTAssertEqual(storedLikes, Self.startingLikes + 1, "\(exercise.function): the counter holds \(storedLikes.map(String.init) ?? "nothing") after one like of \(Self.startingLikes). See \(exercise.reference).")
        XCTAssertEqual(count, Self.startingLikes + 1, "\(exercise.function) returned \(count); it should return the count it wrote. See \(exercise.reference).")
    }

    /// Another client likes just after this like's write succeeded: the count to return is the one written (4),
    /// not the counter read again afterwards (5).
    func test_like_anotherClientLikesJustAfter_returnsTheCountItWrote() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 0, rivalLikesAfterSuccess: true)
        let count = try requireCount(try call(exercise) { try await $0.like(Self.messageKey) }, exercise)
        XCTAssertEqual(count, Self.startingLikes + 1, """
            \(exercise.function) returned \(count); it should return the count it wrote, \(Self.startingLikes + 1). Another \
            client liked just after your write succeeded (the counter holds \(storedLikes.map(String.init) ?? "nothing") now): \
            a count read after the write is theirs too, not this like's. Return the count of the write that succeeded — no \
            read after it. See LESSONS.md §10.6.
            \(TrafficReport(emulator).summary)
            """)
    }

    /// Another client likes between a first and a second read of the counter: a like whose count comes from one
    /// read and whose tag from another overwrites that like. A like that reads once meets no rival here.
    func test_like_countAndTagFromOneAnswer_loseNoLikeBetweenTwoReads() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 0, rivalLikesBeforeSecondRead: true)
        _ = try requireCount(try call(exercise) { try await $0.like(Self.messageKey) }, exercise)
        let expected = Self.startingLikes + rivalLiked + 1
        XCTAssertEqual(storedLikes, expected, """
            \(exercise.function): another client liked between your two reads of the counter; the counter holds \
            \(storedLikes.map(String.init) ?? "nothing"), expected \(expected) (both likes). The count written came from \
            one read and the tag from another: the tag was the value's after that like, so the write went through and \
            overwrote it. Take the count and the ETag from the same answer (one GET with X-Firebase-ETag: true, or the \
            412). See LESSONS.md §10.5.
            \(TrafficReport(emulator).summary)
            """)
    }

    func test_like_firstLike_countsNothingAsZero() throws {
        try makeEmulator(likes: .null, rivalLikes: 0)
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        if case .failure(let error) = result, writes.isEmpty, emulator.requests.first?.response.statusCode == 200 {
            return XCTFail("""
                \(exercise.function) threw \(Self.describe(error)) for the first like, before any write: the counter holds \
                nothing yet, and the read answered null with the ETag null_etag. Both are normal: null is a count of 0 \
                (decode an Int?, ?? 0), and null_etag is a tag like any other, "nothing is stored" — write 1 with \
                if-match: null_etag. See LESSONS.md §10.5.
                \(TrafficReport(emulator).summary)
                """)
        }
        let count = try requireCount(result, exercise)
        XCTAssertEqual(count, 1, """
            \(exercise.function) returned \(count) for the first like: nothing stored (null, ETag null_etag) counts \
            as 0. See \(exercise.reference).
            """)
        XCTAssertEqual(storedLikes, 1, "\(exercise.function): the counter holds \(storedLikes.map(String.init) ?? "nothing") after the first like. See \(exercise.reference).")
    }

    // MARK: 412: someone else wrote first

    func test_like_after412_writesFromTheCountAndETagThe412Sent() throws {
        // Two likes from others land between the read and the write: only the 412's body knows the count now.
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 1, likesPerTurn: 2)
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        guard writes.count >= 2, let refused = writes.first(where: { $0.response.statusCode == 412 }),
              let retry = writes.last, retry.receivedAt > refused.receivedAt else {
            // The retry went as a GET (a new URLRequest for it, its httpMethod never set): it wrote nothing.
            if let asGET = writeSentAsGET(exercise) { return XCTFail("After the 412: " + asGET) }
            return XCTFail("""
                \(exercise.function) did not write again after a 412: it \(result.outcome). A 412 Precondition Failed \
                says another client wrote between your read and your write, so nothing was written; its body is the \
                count now and its ETag header the tag now: write that count + 1 with if-match: <that tag>, up to \
                maxAttempts writes in all. See LESSONS.md §10.5.
                \(TrafficReport(emulator).summary)
                """)
        }
        if retry.bodyJSON == refused.bodyJSON {
            return XCTFail("""
                \(exercise.function) wrote the same stale count again after the 412: that count was computed from the \
                old value. The 412's body is the count now: write that + 1. See LESSONS.md §10.5.
                \(retry.summary)
                """)
        }
        let now = Self.startingLikes + 2
        if retry.bodyJSON == .number(Double(now)) {
            return XCTFail("""
                \(exercise.function) wrote \(now) after the 412, whose body said the count is now \(now): that count does \
                not hold this like (the write that would have added it was refused). Write the 412's count + 1 — code \
                that adds the like once, before the first write (count = read + 1), must add it again to the count a \
                412 brings, and code that guessed one more like than its own count must read the 412's body instead. \
                See LESSONS.md §10.5.
                \(retry.summary)
                """)
        }
        XCTAssertEqual(retry.bodyJSON, .number(Double(now + 1)), """
            \(exercise.function) wrote \(retry.bodyText ?? "nothing") after the 412, whose body said the count is now \
            \(now): write \(now + 1). See LESSONS.md §10.5.
            """)
        if let sent = retry.header("if-match"), sent.contains(","), let tag = refused.response.headers["ETag"], sent.contains(tag) {
            return XCTFail("""
                \(exercise.function) sent if-match: \(sent) after the 412: the tags of earlier writes too, joined by \
                commas. addValue(_:forHTTPHeaderField:) adds to a header the request already has: set the tag with \
                setValue (or make a new URLRequest for each write). See LESSONS.md §10.5.
                """)
        }
        XCTAssertEqual(retry.header("if-match"), refused.response.headers["ETag"], """
            \(exercise.function) sent if-match: \(retry.header("if-match") ?? "(none)") after the 412; use the ETag \
            header of the 412 answer, the tag of the count now. See LESSONS.md §10.5.
            """)
    }

    func test_like_whenAnotherClientWroteFirst_countsBothLikes() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 1)
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        let expected = Self.startingLikes + 2
        if case .success = result, storedLikes != expected, writes.count == 1, writes[0].response.statusCode == 412 {
            return XCTFail("""
                \(exercise.function) returned after a 412: the write was refused (another client liked first), so this \
                like was never counted. On 412, write again. See LESSONS.md §10.5.
                """)
        }
        _ = try requireCount(result, exercise)
        XCTAssertEqual(storedLikes, expected, """
            \(exercise.function): another client liked between your read and your write; the counter holds \
            \(storedLikes.map(String.init) ?? "nothing"), expected \(expected) (both likes). See LESSONS.md §10.5.
            \(TrafficReport(emulator).summary)
            """)
    }

    func test_like_afterA412_returnsTheCountItWrote() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 1)
        let count = try requireCount(try call(exercise) { try await $0.like(Self.messageKey) }, exercise)
        let expected = Self.startingLikes + 2
        guard storedLikes == expected else { return }  // a lost like: the test above names it
        XCTAssertEqual(count, expected, """
            \(exercise.function) returned \(count) after a 412 and a second write, which wrote \(expected). See \(exercise.reference).
            Return the count of the write that succeeded (the 412's count + 1), not one computed from the first read.
            """)
    }

    func test_like_after412WithNothingStored_countsFromZero() throws {
        // Between the read (3) and the write, the likes were removed (a moderator cleared them): the 412 carries
        // null and the tag null_etag — nothing stored, which counts as 0, as it does for the read. Then another
        // client likes before the next write, so that write must be conditional too (if-match: null_etag): its 412
        // brings 1, and the write after it stores 2.
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 2, rivalDeletes: true)
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        if case .failure(let error) = result, case ThreadAPIError.decoding = error,
           writes.first?.response.statusCode == 412 {
            return XCTFail("""
                \(exercise.function) threw \(Self.describe(error)) after a 412 whose body is null (the likes were removed \
                meanwhile): nothing stored counts as 0 there too — decode the 412's body as an Int? (?? 0), as the read's, \
                and write 1 with if-match: null_etag. See LESSONS.md §10.5.
                """)
        }
        // The write after the 412 that carried null: 1 (from 0), conditional on null_etag.
        if writes.count >= 2, writes[0].response.statusCode == 412, writes[0].response.headers["ETag"] == "null_etag" {
            let retry = writes[1]
            if retry.bodyJSON != .number(1) {
                return XCTFail("""
                    \(exercise.function) wrote \(retry.bodyText ?? "nothing") after a 412 whose body is null (the likes were \
                    removed meanwhile): null is a count of 0, so this like writes 1 — not a count kept from before the 412. \
                    See LESSONS.md §10.5.
                    \(TrafficReport(emulator).summary)
                    """)
            }
            if retry.header("if-match") != "null_etag" {
                return XCTFail("""
                    \(exercise.function) wrote 1 after a 412 whose ETag is null_etag with if-match: \
                    \(retry.header("if-match") ?? "(none)"): null_etag is a tag like any other, it says "nothing is stored". \
                    A write with if-match: null_etag is done only while nothing is stored; without it, a like another client \
                    wrote meanwhile is overwritten (here one was). Send if-match with the 412's ETag, whatever it is. \
                    See LESSONS.md §10.5.
                    \(TrafficReport(emulator).summary)
                    """)
            }
        }
        let count = try requireCount(result, exercise)
        XCTAssertEqual(storedLikes, 2, """
            \(exercise.function): the likes were removed between your read and your write (the 412: body null, ETag \
            null_etag, a count of 0), then another client liked (1); with this like the counter should hold 2, and it \
            holds \(storedLikes.map(String.init) ?? "nothing"). See LESSONS.md §10.5.
            \(TrafficReport(emulator).summary)
            """)
        XCTAssertEqual(count, 2, "\(exercise.function) returned \(count); its last write, the one that succeeded, wrote 2. See \(exercise.reference).")
    }

    /// Another client likes before the first write (a 412), then again just before a read that follows the 412: a
    /// like whose count comes from the 412 and whose tag from that later read overwrites the second like. A like that
    /// writes again from the 412 alone, or takes both from a read after it, loses nothing.
    func test_like_after412_countAndTagFromOneAnswer_loseNoLikeBeforeALaterRead() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 1, rivalLikesBeforeReadAfterConflict: true)
        _ = try requireCount(try call(exercise) { try await $0.like(Self.messageKey) }, exercise)
        let expected = Self.startingLikes + rivalLiked + 1
        XCTAssertEqual(storedLikes, expected, """
            \(exercise.function): another client liked before your write (a 412), and again just before the read you sent \
            after the 412; the counter holds \(storedLikes.map(String.init) ?? "nothing"), expected \(expected) (every like). \
            The count written and its tag came from two answers — the count from the 412, the tag from the read after \
            it: the tag already held the second like and the count did not, so the write went through and overwrote \
            it. Take the count and the ETag from the same answer: the 412's body and its ETag header (no read needed), \
            or both from one read with X-Firebase-ETag: true. See LESSONS.md §10.5.
            \(TrafficReport(emulator).summary)
            """)
    }

    func test_like_alwaysRefused_throwsTooManyConflicts_afterMaxAttemptsWrites() throws {
        // 2: small, so that a client that waits before each retry (a backoff) still ends in time.
        try checkAlwaysRefused(maxAttempts: 2)
    }

    func test_like_alwaysRefused_withMaxAttempts1_writesOnce() throws {
        // Another maxAttempts than the test above: the limit is the counter's, not a number written into like.
        try checkAlwaysRefused(maxAttempts: 1)
    }

    /// Every write meets a 412: exactly `maxAttempts` writes, then `.tooManyConflicts(attempts: maxAttempts)`.
    func checkAlwaysRefused(maxAttempts: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 60, maxAttempts: maxAttempts)
        let result = try call(exercise, file: file, line: line) { try await $0.like(Self.messageKey) }
        let sent = writes.count
        if sent > maxAttempts {
            return XCTFail("""
                \(exercise.function) sent \(sent) writes while another client always wrote first; with maxAttempts \
                \(maxAttempts) it must stop after \(maxAttempts) and throw .tooManyConflicts. See LESSONS.md §10.6.\(maxAttempts == 1 ? """

                    The limit is the counter's maxAttempts (self.maxAttempts), whatever it is — not a number of retries \
                    written into like.
                    """ : "")
                """, file: file, line: line)
        }
        guard case .failure(let error) = result, case ThreadAPIError.tooManyConflicts(let attempts) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) after \(sent) refused write(s) (maxAttempts \(maxAttempts)); \
                expected ThreadAPIError.tooManyConflicts(attempts: \(maxAttempts)) after \(maxAttempts) writes. See LESSONS.md §10.6.
                """, file: file, line: line)
        }
        XCTAssertEqual(sent, maxAttempts, "\(exercise.function) gave up after \(sent) write(s); maxAttempts is \(maxAttempts). See LESSONS.md §10.6.",
                       file: file, line: line)
        XCTAssertEqual(attempts, maxAttempts, "\(exercise.function) threw .tooManyConflicts(attempts: \(attempts)) after \(maxAttempts) writes. See LESSONS.md §10.6.",
                       file: file, line: line)
    }

    // MARK: Together, and other failures

    func test_like_twoClientsAtOnce_bothCounted() throws {
        // Two, not more: each extra client is one more retry for the last one, and a client may wait before a retry.
        let results = try concurrently(2, exercise) { try await $0.like(Self.messageKey) }
        let failures = results.compactMap(\.failure)
        XCTAssertEqual(failures.map(Self.describe), [], "\(exercise.function): 2 likes at once, and some threw (maxAttempts 5). See LESSONS.md §10.5.")
        XCTAssertEqual(storedLikes, Self.startingLikes + 2, """
            \(exercise.function): 2 likes at once on a count of \(Self.startingLikes) left \(storedLikes.map(String.init) ?? "nothing"), \
            expected \(Self.startingLikes + 2): a like was lost. See LESSONS.md §10.5.
            """)
    }

    func test_like_writeRefusedWith500_throwsStatus500() throws {
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 0, refusesWrites: 500)
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        guard case .failure(let error) = result, case ThreadAPIError.status(500) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when its write was answered 500: only a 412 is a conflict to \
                retry; any other status is ThreadAPIError.status(code). See LESSONS.md §10.6.
                \(TrafficReport(emulator).summary)
                """)
        }
    }

    /// No answer to the read, then (a fresh emulator) no answer to the write. The read's answer is held until the
    /// fault for the next request is queued, so the fault meets the write every run, with no timing luck.
    func test_like_noAnswer_throwsTransport() throws {
        guard try checkNoAnswerThrowsTransport(exercise, { try await $0.like(Self.messageKey) }) else { return }
        try makeEmulator(likes: .number(Double(Self.startingLikes)), rivalLikes: 0)
        let emulator = self.emulator!
        emulator.holdResponses()
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(2)
            while emulator.requests.isEmpty, Date() < deadline { usleep(1_000) }
            emulator.inject(.transportError(.timedOut))
            emulator.releaseHeldResponses()
        }
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        guard case .failure(let error) = result, case ThreadAPIError.transport(let urlError) = error, urlError.code == .timedOut else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when its write got no answer (URLError.timedOut); expected \
                ThreadAPIError.transport with that URLError. Only a 412 is a conflict to retry: a write with no answer \
                may have been stored, and writing again would count the like twice. See LESSONS.md §10.6.
                \(TrafficReport(emulator).summary)
                """)
        }
    }

    func test_like_readRefused_throwsStatus401_andWritesNothing() throws {
        emulator.inject(.httpError(status: 401, message: "Permission denied"))
        let result = try call(exercise) { try await $0.like(Self.messageKey) }
        guard case .failure(let error) = result, case ThreadAPIError.status(401) = error else {
            return XCTFail("""
                \(exercise.function) \(result.outcome) when the read was refused with 401; expected \
                ThreadAPIError.status(401). See \(exercise.reference).
                """)
        }
        XCTAssertEqual(writes.map(\.summary), [], "\(exercise.function) wrote after its read was refused. See \(exercise.reference).")
    }
}
