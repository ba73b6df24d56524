import Foundation
import XCTest
import LabTestSupport
import FirebaseEmulator
import Lesson8

/// §8.2: the parser, without a server — the recorded streams of Fixtures/lesson8 fed whole, in every split, byte by
/// byte; and the framing rules one at a time.
final class EventStreamParserTests: Lesson8TestCase {
    /// The recorded streams: each file's bytes and the events they hold (Fixtures/lesson8/README.md).
    static let recordings = ["firebase-forum", "firebase-forum-crlf", "spec-framing"]

    private func recording(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> (Data, [ServerSentEvent]) {
        let bytes = try Fixtures.data("lesson8/\(name).sse")
        guard case .array(let list) = try Fixtures.json("lesson8/\(name).events.json") else {
            throw fail("setup: Fixtures/lesson8/\(name).events.json is not a list of events", file: file, line: line)
        }
        let events = list.map { ServerSentEvent(name: $0["event"].stringValue ?? "?", data: $0["data"].stringValue ?? "?") }
        return (bytes, events)
    }

    /// Feeds `pieces` to one parser and returns every event it handed on.
    private func parse(_ pieces: [Data], file: StaticString = #filePath, line: UInt = #line) throws -> [ServerSentEvent] {
        var parser = EventStreamParser()
        let events = pieces.flatMap { parser.parse($0) }
        try requireStarted(file: file, line: line)
        return events
    }

    /// Fails unless `got` is `expected`. The message leads with the diagnosis (under 200 characters); the events
    /// follow, trimmed. `input`: the bytes fed, when they may hold \r\n line endings (the CRLF trap below).
    private func check(_ got: [ServerSentEvent], _ expected: [ServerSentEvent], _ how: String, input: Data? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        guard got != expected else { return }
        let diagnosis: String
        if got.contains(where: { $0.data.contains("\u{FFFD}") || $0.name.contains("\u{FFFD}") }) {
            diagnosis = "a character cut in two between pieces came out as U+FFFD (�): each piece was decoded as text on its own. Keep the bytes (Data) until a line is complete, then decode the line."
        } else if let input = input, !input.allSatisfy({ $0 < 0x80 }), Self.losesNonASCIILines() {
            diagnosis = "a line holding a character outside ASCII (é, 🎉, 日本語) was lost or garbled: fed `data: \"é\"`, it did not hand on that é. An event stream is UTF-8: decode each whole line as UTF-8 (`String(decoding: line, as: UTF8.self)`), not as .ascii or .isoLatin1."
        } else if got.count < expected.count, Self.endsLinesOnlyAtCRLF() {
            diagnosis = #"it reads "event: put\r\ndata: 1\r\n\r\n" but nothing of the same lines ended by a plain \n: a line ends at \n, and a \r before it is part of that ending. Lines ending in \r\n are the exception (Firebase sends plain \n): look for the byte 10, not for \r\n (§8.2)."#
        } else if got.count < expected.count, let input = input, Self.mixesLineEndings(input), Self.crlfTrap(input, expected: expected),
                  Self.readsCRLFAlone() {
            diagnosis = #"this stream mixes \n and \r\n line endings, and \#(expected.count) events came out as \#(got.count): an event ends at its first blank line, whichever ending it has — do not look for \r\n\r\n before \n\n."#
        } else if got.count < expected.count, let input = input, Self.crlfTrap(input, expected: expected), Self.missesCRLFBlankLines() {
            diagnosis = #"with \r\n line endings it found \#(got.count) of \#(expected.count) events: a blank line ended by \r\n was not taken for blank — it reads "event: put\r\ndata: 1\r\n\n" but nothing from "event: put\ndata: 1\n\r\n". The \r is part of the line ending: drop a \r just before \n from every line, the blank one too, before you look at the line (trimming the values hides it in the text, not in the blank line) (§8.2)."#
        } else if got.count < expected.count, let input = input, Self.crlfTrap(input, expected: expected), Self.keepsTheCR() {
            diagnosis = #"with \r\n line endings it found \#(got.count) of \#(expected.count) events: it keeps the \r of each line, so a blank line (\r\n) never looks empty (\r\n\r\n holds no \n\n). Drop a \r just before \n (§8.2)."#
        } else if got.count < expected.count, let input = input, Self.crlfTrap(input, expected: expected) {
            diagnosis = #"with \r\n line endings it found \#(got.count) of \#(expected.count) events, yet all of them once the \r are gone: in Swift "\r\n" is ONE Character, so splitting a String on "\n" never splits these lines. Split the bytes at 10 (\n) and drop a \r before it, or handle "\r\n", "\r" and "\n" (§8.2)."#
        } else if got.count < expected.count, let input = input, Self.commentTrap(input, expected: expected) {
            diagnosis = "an event that starts with a comment line (`: …`) was lost: a comment is one line to skip, not a reason to drop the event around it."
        } else if got.count < expected.count, let input = input, Self.hasFieldWithoutSpace(input), Self.needsTheSpace() {
            diagnosis = "a line without a space after the colon (`event:patch`, `data:{…}`) was not read: the space after the colon is optional — take the field up to the first colon, then drop one space if it is there."
        } else if got.count < expected.count, Self.readsOneLinePerPiece() {
            diagnosis = "a piece that holds several lines gave only its first: fed \"event: put\\ndata: 1\\n\\n\" in one piece it hands on nothing, fed one byte at a time the event. Read every line the piece completes — loop while a \\n is left (`while let`, not `if let`)."
        } else if got.count < expected.count, let input = input, Self.severalEventsTrap(input, expected: expected) {
            diagnosis = "a piece that held several events gave only \(got.count) of \(expected.count); fed one event per piece, the same bytes give them all: parse(_:) returns every event the piece completes, in order (keep a list, not one var)."
        } else if got.count < expected.count, let input = input, Self.handsOnAtTheNextEvent(input, expected: expected) {
            diagnosis = "an event was handed on only when the next `event:` line came, not at its own blank line: the stream's last event waited for one that never comes. A blank line ends an event; hand it on there."
        } else if got.isEmpty, !expected.isEmpty, Self.findsNoEventAtAll() {
            diagnosis = #"no event at all, not even from "event: put\ndata: 1\n\n": a blank line never ended an event. An empty line is the end of the event — `split(separator:)` drops empty lines unless you pass omittingEmptySubsequences: false. Or the event was forgotten before its blank line: a `defer { name = ""; … }` at the top of a function runs each time it returns — after every line, not only after the blank one."#
        } else if got.count < expected.count {
            diagnosis = "events were lost or merged: keep the bytes of an unfinished line (and an unfinished event) for the next piece, and end an event only at a blank line (an empty line, also when it ends in \\r\\n)."
        } else if got.count > expected.count, let input = input, Self.crlfTrap(input, expected: expected) {
            diagnosis = #"with \r\n line endings it handed on \#(got.count) events for \#(expected.count): each \r\n was read as two line ends, with a blank line between them (`.newlines` splits at \r and at \n). A \r\n is one line ending (§8.2)."#
        } else if got.count > expected.count, let input = input, got.count - expected.count <= Self.blankLinesInARow(input),
                  let kept = zip(got.dropFirst(), got).first(where: { $0.0.data.isEmpty && !$0.0.name.isEmpty && $0.0.name == $0.1.name })?.0,
                  !expected.contains(kept) {
            diagnosis = "an extra `\(kept.name)` event without data came out at a second blank line in a row: the name was kept after its event. After a blank line start afresh, the name too."
        } else if got.count > expected.count, let input = input, got.count - expected.count <= Self.blankLinesInARow(input),
                  got.contains(ServerSentEvent(name: "", data: "")), !expected.contains(ServerSentEvent(name: "", data: "")) {
            diagnosis = "an empty event (no name, no data) came out at a blank line with nothing before it: two blank lines in a row end one event. Hand on only an event that has a name or data."
        } else if got.count > expected.count {
            diagnosis = "an event was handed on before its blank line, or twice: hand an event on only when its blank line arrives."
        } else if got.count > 1, got.count == expected.count,
                  got.map(\.description).sorted() == expected.map(\.description).sorted() {
            diagnosis = "the right events came out in the wrong order: hand them on in the order they were sent — append each to the end of the list (`events.append(event)`), not at its front."
        } else if let index = got.indices.first(where: { got[$0] != expected[$0] }) {
            let why = Self.why(got[index], expected[index], previous: index > 0 ? expected[index - 1] : nil)
            diagnosis = (why.isEmpty ? "event \(index + 1) differs." : why)
                + " (Event \(index + 1): got \(got[index].name.debugDescription) \(Self.trimmed(got[index].data).debugDescription), expected \(expected[index].name.debugDescription) \(Self.trimmed(expected[index].data).debugDescription).)"
        } else {
            diagnosis = "the events differ."
        }
        // The events on a line of their own, each cut before it is quoted: a list cut in the middle of a quoted
        // event left a quote open, and the failure's first line read the rest of the message as one string.
        let events = "Got \(got.count) event(s): \(Self.listed(got)); expected \(expected.count): \(Self.listed(expected))."
        throw fail("\(how), parse(_:): \(diagnosis) See \(Self.parse.reference).\n\(events)", file: file, line: line)
    }

    /// Whether the parser finds every expected event in `input` once its \r\n are plain \n: then the \r\n endings
    /// alone lost them — Swift's "\r\n" Character, which a String split on "\n" never splits.
    private static func crlfTrap(_ input: Data, expected: [ServerSentEvent]) -> Bool {
        let crlf = Data("\r\n".utf8)
        guard input.range(of: crlf) != nil else { return false }
        var lf = Data()
        var index = input.startIndex
        while index < input.endIndex {
            if input[index] == 13, input.index(after: index) < input.endIndex, input[input.index(after: index)] == 10 {
                index = input.index(after: index)
                continue
            }
            lf.append(input[index])
            index = input.index(after: index)
        }
        var parser = EventStreamParser()
        return parser.parse(lf) == expected
    }

    /// How many blank lines in `input` come right after another blank line (\n\n\n once its \r\n are \n): where a
    /// parser that keeps a name, or hands on empty events, gives an extra event.
    private static func blankLinesInARow(_ input: Data) -> Int {
        var bytes: [UInt8] = []
        for byte in input {
            if byte == 10, bytes.last == 13 { bytes.removeLast() }
            bytes.append(byte)
        }
        return bytes.indices.dropLast(2).filter { bytes[$0] == 10 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 10 }.count
    }

    /// Whether `input` ends some lines in \r\n and others in a plain \n.
    private static func mixesLineEndings(_ input: Data) -> Bool {
        let bytes = [UInt8](input)
        let crlf = bytes.indices.contains { $0 > 0 && bytes[$0] == 10 && bytes[$0 - 1] == 13 }
        let lf = bytes.indices.contains { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }
        return crlf && lf
    }

    /// Whether the parser reads a stream whose lines all end in \r\n: then a stream that mixes endings lost events
    /// because it looked for one kind of blank line before the other (inaka/EventSource's mistake).
    private static func readsCRLFAlone() -> Bool {
        var parser = EventStreamParser()
        let events = parser.parse(Data("event: put\r\ndata: 1\r\n\r\nevent: patch\r\ndata: 2\r\n\r\n".utf8))
        return events == [ServerSentEvent(name: "put", data: "1"), ServerSentEvent(name: "patch", data: "2")]
    }

    /// Whether the parser finds every expected event in `input` once its comment lines are gone: then an event that
    /// starts with a comment was dropped whole (inaka/EventSource's `hasPrefix(":")` on an event's text).
    private static func commentTrap(_ input: Data, expected: [ServerSentEvent]) -> Bool {
        let lines = input.split(separator: 10, omittingEmptySubsequences: false)
        guard lines.contains(where: { $0.first == UInt8(ascii: ":") }) else { return false }
        var parser = EventStreamParser()
        let kept = lines.filter { $0.first != UInt8(ascii: ":") }
        return parser.parse(Data(kept.joined(separator: [10]))) == expected
    }

    /// Whether `input` has an `event:` or `data:` line without the optional space after its colon.
    private static func hasFieldWithoutSpace(_ input: Data) -> Bool {
        input.split(separator: 10).contains { line in
            ["event:", "data:"].contains { field in
                line.starts(with: Data(field.utf8)) && line.count > field.utf8.count && line[line.startIndex + field.utf8.count] != 32
            }
        }
    }

    /// Whether the parser reads `event: put` / `data: 1` but not the same lines without the space after the colon.
    private static func needsTheSpace() -> Bool {
        var spaced = EventStreamParser(), tight = EventStreamParser()
        let put = [ServerSentEvent(name: "put", data: "1")]
        return spaced.parse(Data("event: put\ndata: 1\n\n".utf8)) == put && tight.parse(Data("event:put\ndata:1\n\n".utf8)) != put
    }

    /// Whether the parser finds every expected event in `input` when each event comes in a piece of its own (cut
    /// after each blank line): then a piece that holds several events lost some of them.
    private static func severalEventsTrap(_ input: Data, expected: [ServerSentEvent]) -> Bool {
        let bytes = [UInt8](input)
        var pieces: [Data] = [], start = 0
        for index in bytes.indices where bytes[index] == 10 {
            let previous = index > 0 && bytes[index - 1] == 13 ? index - 2 : index - 1
            if previous >= 0, bytes[previous] == 10 {
                pieces.append(Data(bytes[start...index]))
                start = index + 1
            }
        }
        if start < bytes.count { pieces.append(Data(bytes[start...])) }
        guard pieces.count > 1 else { return false }
        var parser = EventStreamParser()
        return pieces.flatMap { parser.parse($0) } == expected
    }

    /// Whether the parser finds every expected event in `input` once an `event:` line follows it: then it handed
    /// each event on at the next one's `event:` line, not at its own blank line.
    private static func handsOnAtTheNextEvent(_ input: Data, expected: [ServerSentEvent]) -> Bool {
        var parser = EventStreamParser()
        return parser.parse(input) + parser.parse(Data("event: keep-alive\n".utf8)) == expected
    }

    /// Whether the parser hands on nothing for the simplest event in one piece, yet the event when it comes one
    /// byte at a time: it reads one line per piece (`if let` where `while let` was meant).
    private static func readsOneLinePerPiece() -> Bool {
        let wire = Data("event: put\ndata: 1\n\n".utf8)
        var whole = EventStreamParser(), bytes = EventStreamParser()
        return whole.parse(wire).isEmpty && wire.flatMap { bytes.parse(Data([$0])) } == [ServerSentEvent(name: "put", data: "1")]
    }

    /// Whether the parser reads an event whose lines end in \r\n but hands on nothing for the same event with plain
    /// \n endings, nor for its lines ended by \n and its blank line by \r\n: it cuts lines only at \r\n. (A parser
    /// that drops empty lines also reads only the first, but reads the third: its \r\n blank line is one "\r".)
    private static func endsLinesOnlyAtCRLF() -> Bool {
        var crlf = EventStreamParser(), lf = EventStreamParser(), mixed = EventStreamParser()
        let put = [ServerSentEvent(name: "put", data: "1")]
        return crlf.parse(Data("event: put\r\ndata: 1\r\n\r\n".utf8)) == put
            && lf.parse(Data("event: put\ndata: 1\n\n".utf8)).isEmpty
            && mixed.parse(Data("event: put\ndata: 1\n\r\n".utf8)) != put
    }

    /// Whether the parser reads an event whose field lines end in \r\n (its blank line a plain \n) but hands on nothing
    /// when only the blank line ends in \r\n: it looks at a line before dropping its \r, or hides the \r only by
    /// trimming the values — the blank line "\r" is then no blank line. (A String split on "\n" reads neither.)
    private static func missesCRLFBlankLines() -> Bool {
        var fields = EventStreamParser(), blank = EventStreamParser()
        let put = [ServerSentEvent(name: "put", data: "1")]
        return fields.parse(Data("event: put\r\ndata: 1\r\n\n".utf8)) == put
            && blank.parse(Data("event: put\ndata: 1\n\r\n".utf8)).isEmpty
    }

    /// Whether the parser reads an event of ASCII text but loses or garbles the same event with an "é" in its data:
    /// it decodes lines as ASCII (a nil line read as blank) or Latin-1, not UTF-8.
    private static func losesNonASCIILines() -> Bool {
        var ascii = EventStreamParser(), accented = EventStreamParser()
        return ascii.parse(Data("event: put\ndata: \"e\"\n\n".utf8)) == [ServerSentEvent(name: "put", data: "\"e\"")]
            && accented.parse(Data("event: put\ndata: \"é\"\n\n".utf8)) != [ServerSentEvent(name: "put", data: "\"é\"")]
    }

    /// Whether the parser hands on an event for `event: put` and `data: 1` lines without their blank line: it takes
    /// the end of a piece at a line end for a blank line.
    private static func handsOnAtALineEnd() -> Bool {
        var parser = EventStreamParser()
        return !parser.parse(Data("event: put\ndata: 1\n".utf8)).isEmpty
    }

    /// Whether the parser hands on nothing for the simplest event there is.
    private static func findsNoEventAtAll() -> Bool {
        var parser = EventStreamParser()
        return parser.parse(Data("event: put\ndata: 1\n\n".utf8)).isEmpty
    }

    /// Whether the parser splits \r\n lines at their \n but keeps the \r: its lines ending in \r\n, then a blank line
    /// of a plain \n, come out with a \r at the end of the text. (A parser that splits a String on "\n" finds no event.)
    private static func keepsTheCR() -> Bool {
        var parser = EventStreamParser()
        return parser.parse(Data("event: put\r\ndata: 1\r\n\n".utf8)).contains { $0.name.hasSuffix("\r") || $0.data.hasSuffix("\r") }
    }

    /// `text`, cut to 300 characters: the diagnosis comes first, long data after it.
    static func trimmed(_ text: String, to limit: Int = 300) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// Events as a list of quoted texts, each cut to 100 characters before it is quoted, so every quote is closed.
    static func listed(_ events: [ServerSentEvent]) -> String {
        "[" + events.map { trimmed($0.description, to: 100).debugDescription }.joined(separator: ", ") + "]"
    }

    /// The likely cause of one event that came out different.
    private static func why(_ got: ServerSentEvent, _ expected: ServerSentEvent, previous: ServerSentEvent?) -> String {
        let dataDiffers = got.data != expected.data, nameDiffers = got.name != expected.name
        if got.name == " " + expected.name || got.data == " " + expected.data {
            return "a value starts with the space after the colon: that one space is not part of the value — drop it when it is there."
        }
        if (dataDiffers || nameDiffers), got.data == expected.data.lowercased(), got.name == expected.name.lowercased() {
            return "a value came out lowercased: field names are matched as written (`event`, `data`), and a value is taken as it is — do not lowercase the line."
        }
        if dataDiffers, expected.data.contains(" "), got.data == expected.data.replacingOccurrences(of: " ", with: "") {
            return "every space of the data is gone: only the one space right after the colon is not part of the value — drop that one space, only when it is there; the spaces in the data are the data's."
        }
        if got.name == expected.name, dataDiffers, expected.data.contains("\n"),
           let separator = [" ", "\r\n", "\t"].first(where: { expected.data.replacingOccurrences(of: "\n", with: $0) == got.data }) {
            return "an event's data: lines were joined with \(separator.debugDescription): join them with \"\\n\" between them — the format's own separator (the data is text; the app, not the parser, decides whether it is JSON)."
        }
        if got.name == expected.name, got.data == expected.data + "\n" {
            return "an event's data ends in \\n: join its data: lines with \\n between them and none after the last (the WHATWG steps remove the buffer's last \\n)."
        }
        if dataDiffers, let previous = previous, got.data.hasPrefix(previous.data) {
            return "an event still holds the previous event's data: after a blank line, start the next event afresh."
        }
        let gotLines = got.data.components(separatedBy: "\n"), expectedLines = expected.data.components(separatedBy: "\n")
        if got.name == expected.name, gotLines.count > expectedLines.count, expectedLines.allSatisfy(gotLines.contains) {
            return "lines that are not `data:` lines (a comment, `id:`, `retry:`) went into the data: only `data:` lines make the data — skip the others, one line at a time."
        }
        if dataDiffers, expected.data.contains("\n"),
           [expected.data.replacingOccurrences(of: "\n", with: ""), expected.data.components(separatedBy: "\n").last ?? "",
            expected.data.components(separatedBy: "\n").first ?? ""].contains(got.data) {
            return "an event with several data: lines lost some: join the values of all its data: lines with \"\\n\" between them."
        }
        // A parser that reads `event: put` but not `event:put` gives the spec's tight event as one with no name and
        // no data; when it also hands on empty events, the count is right and only this event differs.
        if (nameDiffers && got.name.isEmpty) || (dataDiffers && got.data.isEmpty), Self.needsTheSpace() {
            return "a line without a space after the colon (`event:patch`, `data:{…}`) was not read: the space after the colon is optional — take the field up to the first colon, then drop one space if it is there."
        }
        if nameDiffers, got.name.isEmpty {
            return "an event came out without its name: an `event:` line sets it (put, patch, keep-alive…); read it as well as `data:`."
        }
        if (dataDiffers && got.data == String(expected.data.dropFirst())) || (nameDiffers && got.name == String(expected.name.dropFirst())) {
            return "a value's first character is missing: the space after the colon is optional, so drop it only when it is there."
        }
        if (dataDiffers && got.data == String(expected.data.dropLast())) || (nameDiffers && got.name == String(expected.name.dropLast())) {
            return "a value's last character is missing: drop the last byte of a line only when it is a \\r (of \\r\\n) — a line that ends in a plain \\n, as Firebase's do, has none to drop."
        }
        if got.data.hasSuffix("\r") || got.name.hasSuffix("\r") {
            return "a \\r is left at the end of a line's text: it belongs to the \\r\\n line ending — drop a \\r just before \\n."
        }
        if dataDiffers && expected.data.hasPrefix(got.data) {
            return "a value is cut short: it is everything after the first colon, colons in the JSON included."
        }
        return ""
    }

    func test_everyRecordedStream_inOnePiece() throws {
        for name in Self.recordings {
            let (bytes, expected) = try recording(name)
            try check(try parse([bytes]), expected, "Fed Fixtures/lesson8/\(name).sse in one piece", input: bytes)
        }
    }

    func test_everyRecordedStream_splitInTwoAtEveryByte() throws {
        for name in Self.recordings {
            let (bytes, expected) = try recording(name)
            let wholeIsRight = try parse([bytes]) == expected
            for cut in 0...bytes.count {
                let pieces = [bytes.prefix(cut), bytes.dropFirst(cut)].map { Data($0) }
                let got = try parse(pieces)
                guard got != expected else { continue }
                let text = String(decoding: bytes.prefix(cut).suffix(12), as: UTF8.self)
                let how = "Fed Fixtures/lesson8/\(name).sse in two pieces, the first ending after byte \(cut) (…\(text.debugDescription))"
                if wholeIsRight, !got.contains(where: { $0.data.contains("\u{FFFD}") }), cut > 0, cut < bytes.count,
                   bytes[bytes.startIndex + cut] & 0xC0 == 0x80 {
                    throw fail("""
                        \(how), parse(_:) handed on \(got.count) event(s) for \(expected.count): the cut falls inside a \
                        character (its UTF-8 bytes are split between the pieces), and half a character is no text — \
                        String(data:encoding:) gives nil for such a piece. Keep the bytes (Data) until a line is complete, \
                        then decode the line. See \(Self.parse.reference).
                        Got \(Self.listed(got)).
                        """)
                }
                var fresh = EventStreamParser()
                let head = fresh.parse(pieces[0])
                if wholeIsRight, !head.isEmpty, got == head + expected {
                    throw fail("""
                        \(how), the events the first piece completed came out again with the second: parse(_:) returns the \
                        events THIS piece completes — start each call with an empty list (a local variable), not a property \
                        that keeps every event so far. See \(Self.parse.reference).
                        Got \(Self.listed(got)).
                        """)
                }
                if wholeIsRight, !got.contains(where: { $0.data.contains("\u{FFFD}") }), Self.handsOnAtALineEnd() {
                    throw fail("""
                        \(how), parse(_:) handed on \(got.map(\.description)); in one piece the same bytes give the right \
                        events. A piece that ends at a line end ended the event there: fed `event: put` and `data: 1` \
                        lines without their blank line, parse(_:) already handed on an event. The end of a piece is no \
                        blank line — keep the unfinished event for the next piece (cutting the buffer up to AND with its \
                        last \\n and splitting that, the empty part after the last \\n is no line). See \(Self.parse.reference).
                        """)
                }
                if wholeIsRight, !got.contains(where: { $0.data.contains("\u{FFFD}") }) {
                    throw fail("""
                        \(how), parse(_:) handed on \(got.map(\.description)); in one piece the same bytes give the right \
                        events, so the cut between pieces garbled them: keep the bytes after the last \\n (an unfinished \
                        line) and the unfinished event for the next piece. See \(Self.parse.reference).
                        """)
                }
                try check(got, expected, how, input: bytes)
            }
        }
    }

    func test_everyRecordedStream_oneByteAtATime() throws {
        for name in Self.recordings {
            let (bytes, expected) = try recording(name)
            try check(try parse(bytes.map { Data([$0]) }), expected, "Fed Fixtures/lesson8/\(name).sse one byte at a time", input: bytes)
        }
    }

    /// Two of them alike (two keep-alives in a row, as a slow reader gets them): every event is handed on, an event
    /// equal to the one before too.
    func test_severalEventsInOnePiece_areAllHandedOn_inOrder() throws {
        let events = [Self.event("put", "/", "null"), Self.keepAlive, Self.keepAlive, Self.event("put", "/a", "1"),
                      Self.event("patch", "/", #"{"b":2}"#)]
        let got = try parse([Self.wire(events)])
        if got == [events[0], Self.keepAlive, events[3], events[4]] {
            throw fail("""
                Fed five events in one piece, two keep-alives in a row among them, parse(_:) handed on one keep-alive: \
                an event equal to the one before was dropped. Every event the stream sends is one to hand on — the \
                parser does not judge them (a keep-alive twice is two keep-alives; a put sent twice is two puts). See \(Self.parse.reference).
                Got \(Self.listed(got)).
                """)
        }
        try check(got, events, "Fed five events in one piece (two keep-alives in a row among them)")
    }

    func test_crlfLineEndings_areNotPartOfTheText() throws {
        let wire = Data("event: put\r\ndata: {\"path\":\"/\",\"data\":null}\r\n\r\n".utf8)
        let got = try parse([wire])
        if got.first?.name == "put\r" || got.first?.data.hasSuffix("\r") == true {
            throw fail("""
                Fed an event whose lines end in \\r\\n, parse(_:) kept the \\r in the text: \(got.map { $0.name.debugDescription + " " + $0.data.debugDescription }). \
                A line ends at \\n, and a \\r just before it is part of the line ending. See \(Self.parse.reference).
                """)
        }
        try check(got, [Self.event("put", "/", "null")], "Fed an event whose lines end in \\r\\n", input: wire)
    }

    func test_aCharacterSplitAcrossPieces_arrivesWhole() throws {
        let wire = Self.wire([Self.event("put", "/m/text", #""Ciao 👋 ünïcödé""#)])
        let cut = try XCTUnwrap(wire.firstIndex(of: 0xF0), "setup: the emoji's first byte") + 2
        let got = try parse([wire.prefix(cut), wire.dropFirst(cut)].map { Data($0) })
        if got.count == 1, got[0].data.contains("\u{FFFD}") {
            throw fail("""
                Fed an event split in the middle of the emoji 👋 (a 4-byte UTF-8 character), parse(_:) handed on \
                \(got[0].data.debugDescription): each piece was turned into text on its own, and half a character is \
                no character. Keep the bytes (Data) until a line is complete, then decode the line. See \(Self.parse.reference).
                """)
        }
        try check(got, [Self.event("put", "/m/text", #""Ciao 👋 ünïcödé""#)], "Fed an event split in the middle of a character")
    }

    func test_anEvent_isHandedOnOnlyAtItsBlankLine() throws {
        var parser = EventStreamParser()
        let early = parser.parse(Data("event: put\ndata: {\"path\":\"/\",\"data\":1}\n".utf8))
        try requireStarted()
        if !early.isEmpty {
            throw fail("""
                Fed `event: put` and `data: …` lines without the blank line that ends the event, parse(_:) already \
                handed on \(early.map(\.description)). An event ends at a blank line: until then more `data:` lines \
                may follow. See \(Self.parse.reference).
                """)
        }
        try check(parser.parse(Data("\n".utf8)), [Self.event("put", "/", "1")], "Fed the blank line after it")
    }

    /// An event without an `event:` line has no name of its own: "" (or "message", the WHATWG spec's default type),
    /// never the name of the event before it.
    func test_eachEvent_startsAfresh_itsNameToo() throws {
        let wire = Data("event: put\ndata: {\"path\":\"/\",\"data\":1}\n\ndata: 2\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got == [put] {
            throw fail("""
                Fed a put, then an event with only `data: 2` (no `event:` line), parse(_:) handed on the put alone: an \
                event without an `event:` line is still an event — it has data (its name is ""). Hand on an event that \
                has a name or data. See \(Self.parse.reference).
                """)
        }
        guard got.count == 2, got[0] == put, got[1].data == "2", !["", "message"].contains(got[1].name) else {
            let expected = [put, ServerSentEvent(name: got.count == 2 && got[1].name == "message" ? "message" : "", data: "2")]
            return try check(got, expected, "Fed a put, then an event with a `data:` line and no `event:` line")
        }
        throw fail("""
            Fed a put, then an event with only `data: 2` (no `event:` line), parse(_:) named the second one \
            \(got[1].name.debugDescription): the name was kept from the event before. After a blank line the next event \
            starts afresh, its name too (without `event:` it has none: ""). See \(Self.parse.reference). Got \(got.map(\.description)).
            """)
    }

    /// Many SSE servers keep a quiet stream alive with a comment alone (`: ping`); Firebase sends `keep-alive`
    /// events instead, but a comment is part of the format: a block of only a comment is no event.
    func test_aCommentAlone_handsOnNothing() throws {
        let wire = Data(": ping\n\nevent: put\ndata: {\"path\":\"/\",\"data\":1}\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got.count > 1, got.first?.name.isEmpty == true, got.first?.data.isEmpty == true {
            throw fail("""
                Fed a block of only a comment (`: ping`, as a server keeps a quiet stream alive) and then a put, \
                parse(_:) handed on an empty event first: a comment is skipped, so that block has no name and no data — \
                it is no event. Hand on an event only when it has a name or data. See \(Self.parse.reference). Got \(got.map(\.description)).
                """)
        }
        try check(got, [put], "Fed a block of only a comment (`: ping`), then a put")
    }

    /// A comment is one line to skip wherever it comes, between an event's own lines too: it does not end the event.
    func test_aCommentInsideAnEvent_isSkipped_andDoesNotEndIt() throws {
        let wire = Data("event: put\n: the data follows\ndata: {\"path\":\"/\",\"data\":1}\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got != [put], got.contains(where: { $0.name == "put" && $0.data.isEmpty }) {
            throw fail("""
                Fed an event with a comment between its `event:` and `data:` lines, parse(_:) handed on \
                \(got.map(\.description)): the comment ended the event. A comment (a line starting with `:`) is skipped, \
                one line and nothing more; only a blank line ends an event. See \(Self.parse.reference).
                """)
        }
        try check(got, [put], "Fed an event with a comment line between its `event:` and `data:` lines")
    }

    /// The format does not fix the order of an event's lines: `data:` may come before `event:`, and the name still
    /// belongs to that event (the WHATWG algorithm reads every line into the event, then hands it on at the blank line).
    func test_theLinesOfAnEvent_mayComeInAnyOrder() throws {
        let wire = Data("data: {\"path\":\"/\",\"data\":1}\nevent: put\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got.count == 1, got[0].name == put.name, got[0].data.isEmpty {
            throw fail("""
                Fed an event whose `data:` line comes before its `event:` line, parse(_:) handed on \
                \(got.map(\.description)): the data was lost. The lines of an event may come in any order, and an \
                `event:` line does not start a new event — only a blank line ends one — so it sets the name and keeps the \
                data lines read before it: start afresh only after the blank line. See \(Self.parse.reference).
                """)
        }
        if got.count == 1, got[0].data == put.data, got[0].name != put.name {
            throw fail("""
                Fed an event whose `data:` line comes before its `event:` line, parse(_:) handed on \
                \(got.map(\.description)): the name was lost. The lines of an event may come in any order — keep the \
                name and the data lines as they come, and build the event only at its blank line. See \(Self.parse.reference).
                """)
        }
        try check(got, [put], "Fed an event whose `data:` line comes before its `event:` line")
    }

    /// One parser reads one stream: two listeners read two streams at once, each with its own parser.
    func test_twoParsers_readTwoStreams_eachItsOwn() throws {
        var first = EventStreamParser(), second = EventStreamParser()
        var got = first.parse(Data("event: put\ndata: {\"path\":\"/\",".utf8))
        let other = second.parse(Data("event: patch\ndata: {\"path\":\"/b\",\"data\":{\"c\":2}}\n\n".utf8))
        got += first.parse(Data("\"data\":1}\n\n".utf8))
        try requireStarted()
        let put = Self.event("put", "/", "1"), patch = Self.event("patch", "/b", #"{"c":2}"#)
        if got != [put] || other != [patch] {
            throw fail("""
                Two parsers read two streams at once (a piece of the first, a whole event of the second, the rest of \
                the first), and their events came out mixed: the first gave \(got.map(\.description)), expected \
                \([put.description]); the second \(other.map(\.description)), expected \([patch.description]). One parser \
                reads one stream: keep what it has not finished in its own (instance) properties, not in a static or \
                global variable that every parser shares. See \(Self.parse.reference).
                """)
        }
    }

    /// An empty `data:` line is a line of the data, an empty one (WHATWG: its value, "", and a \n go into the data).
    func test_anEmptyDataLine_isAnEmptyLineOfTheData() throws {
        let wire = Data("event: put\ndata: a\ndata:\ndata: b\n\n".utf8)
        let got = try parse([wire])
        let expected = [ServerSentEvent(name: "put", data: "a\n\nb")]
        if got == [ServerSentEvent(name: "put", data: "a\nb")] {
            throw fail("""
                Fed an event with the data lines `data: a`, `data:` and `data: b`, parse(_:) handed on the data "a\\nb": \
                the empty `data:` line was skipped. It is a data line whose value is empty — an empty line of the data: \
                "a\\n\\nb". Append every `data:` line's value, an empty one too. See \(Self.parse.reference).
                """)
        }
        try check(got, expected, "Fed an event whose data lines are `data: a`, `data:` and `data: b`")
    }

    func test_theSpaceAfterTheColon_isOptional() throws {
        let wire = Data("event:put\ndata:{\"path\":\"/\",\"data\":1}\n\n".utf8)
        try check(try parse([wire]), [Self.event("put", "/", "1")],
                  "Fed `event:put` and `data:{…}`, without the space after the colon (the space is optional)")
    }

    /// A line without a colon is a field whose value is empty (WHATWG: `id` alone clears the last event ID): one more
    /// line to read or skip, never a reason to stop.
    func test_aLineWithoutAColon_isAFieldWithNoValue() throws {
        let wire = Data("event: put\nid\ndata: {\"path\":\"/\",\"data\":1}\n\n".utf8)
        try check(try parse([wire]), [Self.event("put", "/", "1")],
                  "Fed an event with a line without a colon (`id` alone, a field with no value) between its `event:` and `data:` lines")
    }

    /// Feeds `wire` to one parser in two pieces, the first ending after byte `cut`: what each piece handed on.
    private func parse(_ wire: Data, cutAt cut: Int, file: StaticString = #filePath, line: UInt = #line) throws
        -> (now: [ServerSentEvent], later: [ServerSentEvent]) {
        var parser = EventStreamParser()
        let now = parser.parse(Data(wire.prefix(cut)))
        let later = parser.parse(Data(wire.dropFirst(cut)))
        try requireStarted(file: file, line: line)
        return (now, later)
    }

    /// The network cuts pieces anywhere: a piece that completes an event and starts the next hands on the first at
    /// once. (Every cut above only checks all the events in the end: waiting for a piece that ends at a line end, or
    /// at a blank line, gives them all in the end — and a live app each event only when the next one arrives.)
    func test_theEventsAPieceCompletes_areHandedOnAtOnce() throws {
        let put = Self.event("put", "/", "1"), patch = Self.event("patch", "/", #"{"b":2}"#)
        let wire = Self.wire([put, patch]), cut = Self.wire([put]).count + 10  // inside the patch's `event:` line
        let (now, later) = try parse(wire, cutAt: cut)
        if now.isEmpty, later == [put, patch] {
            throw fail("""
                Fed a put and the first bytes of a patch in one piece, parse(_:) handed on nothing, and the put only \
                with the rest of the patch: an event must be handed on by the piece that completes it, not when a piece \
                happens to end at a line end or a blank line (the network cuts pieces anywhere: the app would show each \
                change only when the next one arrives). Read every complete line, keep only the unfinished one. See \(Self.parse.reference).
                """)
        }
        try check(now, [put], "Fed a put and the first bytes of a patch in one piece (the events that piece completes)")
        try check(later, [patch], "Fed the rest of the patch after a piece that held a put and its first bytes")
    }

    /// The same, with the piece ending inside a character of the next event: the line that holds the cut is unfinished
    /// anyway, so the cut character holds back nothing before it (a whole buffer decoded at once, and nil while a
    /// character is cut, waits for the next piece to hand on the put).
    func test_theEventsAPieceCompletes_areHandedOnAtOnce_evenWhenItEndsInsideACharacter() throws {
        let put = Self.event("put", "/", "1"), patch = Self.event("patch", "/m", #"{"text":"Café"}"#)
        let wire = Self.wire([put, patch])
        let cut = try XCTUnwrap(wire.firstIndex(of: 0xC3), "setup: the first byte of the é") + 1  // between the é's two bytes
        let (now, later) = try parse(wire, cutAt: cut)
        if now.isEmpty, later == [put, patch] {
            throw fail("""
                Fed a put and the first bytes of a patch in one piece, cut inside the é of the patch's data, parse(_:) \
                handed on nothing, and the put only with the rest of the patch: the put's lines were whole, only the \
                unfinished line held half a character. Decode each complete line on its own (its bytes up to \\n), not \
                the whole buffer at once — a buffer that is not yet valid UTF-8 must not hold back the events before the \
                cut. See \(Self.parse.reference).
                """)
        }
        try check(now, [put], "Fed a put and the first bytes of a patch in one piece, cut inside a character (the events that piece completes)")
        try check(later, [patch], "Fed the rest of the patch after a piece that held a put and its first bytes, cut inside a character")
    }

    /// An empty `data:` line first or last in an event is a line of the data too (WHATWG: "", then the \n that
    /// joins it): `data:` and `data: b` are "\nb", `data: a` and `data:` are "a\n". (A join that skips the separator
    /// while the text is empty, or trims every \n off the ends, loses them; the test above has the empty line inside.)
    func test_anEmptyDataLine_firstOrLast_isKeptToo() throws {
        let wire = Data("event: put\ndata:\ndata: b\n\nevent: patch\ndata: a\ndata:\n\n".utf8)
        let got = try parse([wire])
        let expected = [ServerSentEvent(name: "put", data: "\nb"), ServerSentEvent(name: "patch", data: "a\n")]
        if got != expected, got.count == 2, got[0].name == "put", got[1].name == "patch",
           got[0].data == "b" || got[1].data == "a" {
            throw fail("""
                Fed an event whose data lines are `data:` then `data: b`, and one whose are `data: a` then `data:`, \
                parse(_:) handed on the data \(got[0].data.debugDescription) and \(got[1].data.debugDescription); \
                expected "\\nb" and "a\\n": an empty `data:` line is an empty line of the data wherever it comes, first \
                and last too. Join the lines with \\n (`joined(separator: "\\n")`, which puts one between every two, \
                empty ones too), or append each value and a \\n and drop only the one last \\n (`removeLast()`, not \
                trimmingCharacters(in: .newlines), which trims every \\n at either end). See \(Self.parse.reference).
                """)
        }
        try check(got, expected, "Fed an event whose data lines are `data:` then `data: b`, then one whose are `data: a` then `data:`")
    }

    /// Each `event:` line sets the event's name, a second one too: the last one counts (WHATWG: the event type
    /// buffer is set again). An event with two `event:` lines is rare, but a parser that keeps the first one reads it
    /// as another event than the server sent.
    func test_aSecondEventLine_setsTheNameAgain() throws {
        let wire = Data("event: patch\nevent: put\ndata: {\"path\":\"/\",\"data\":1}\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got.count == 1, got[0].data == put.data, got[0].name == "patch" {
            throw fail("""
                Fed an event with two `event:` lines, `event: patch` and then `event: put`, parse(_:) named it "patch": \
                the first name was kept. Each `event:` line sets the name — a second one sets it again, so the last one \
                counts (`name = value`, or `.last` of the values collected, not `.first`). See \(Self.parse.reference).
                """)
        }
        try check(got, [put], "Fed an event with two `event:` lines, `event: patch` then `event: put` (the last one counts)")
    }

    /// Many SSE servers open a stream with a block of only `retry: <ms>` (the reconnection time) or `id: <id>`: fields
    /// that are not the event's name or data. Such a block has no name and no data — it hands on nothing, as a block of
    /// only a comment does.
    func test_aBlockOfOnlyOtherFields_handsOnNothing() throws {
        let wire = Data("retry: 3000\n\nid: 7\n\nevent: put\ndata: {\"path\":\"/\",\"data\":1}\n\n".utf8)
        let got = try parse([wire])
        let put = Self.event("put", "/", "1")
        if got.count > 1, got.first == ServerSentEvent(name: "", data: "") {
            throw fail("""
                Fed a block of only `retry: 3000`, one of only `id: 7`, and then a put, parse(_:) handed on \
                \(got.map(\.description)): an empty event for a block without a name or data. `retry:` and `id:` lines are \
                read (or skipped), but they make no event: hand on nothing for a block with no `event:` and no `data:` \
                line. See \(Self.parse.reference).
                """)
        }
        try check(got, [put], "Fed a block of only `retry: 3000`, one of only `id: 7`, then a put")
    }
}
