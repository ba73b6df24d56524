import Foundation

/// Shapes a failure message so that its first line is the diagnosis, readable at a glance (`FirstLine.limit`):
/// long data on that line — a URL, a JSON body, compared values in brackets, a long quoted string — is shortened
/// there and given in full below; prose past the limit moves to the next line at a sentence's end, its data whole
/// unless they are long (`movedDataLimit`). A message that already fits is left as it is. Used on the tests' own failures (`LabTestCase`) and on the grader's (`LessonRun`).
public enum DiagnosisLine {
    /// Data shorter than this stays where it is.
    static let longData = 48
    /// How much of each datum the lines below keep.
    public static let keptData = 1_000

    public static func shape(_ message: String) -> String {
        let firstEnd = message.firstIndex(of: "\n") ?? message.endIndex
        let first = String(message[..<firstEnd]), rest = String(message[firstEnd...])
        guard first.count > FirstLine.limit else { return message }
        let pieces = self.pieces(of: first)
        var line = pieces.map(\.shown).joined()
        var headPieces = pieces, movedPieces: [Piece] = []
        if line.count > FirstLine.limit {
            // Cut where the shortened line ends a sentence; a cut inside a shortened datum moves to its start.
            let cut = line.distance(from: line.startIndex, to: sentenceEnd(in: line) ?? wordEnd(in: line))
            var offset = 0
            headPieces = []
            for piece in pieces {
                let end = offset + piece.shown.count
                if end <= cut {
                    headPieces.append(piece)
                } else if offset < cut && piece.original == nil {
                    let inHead = cut - offset
                    headPieces.append(Piece(shown: String(piece.shown.prefix(inHead)), original: nil))
                    movedPieces.append(Piece(shown: String(piece.shown.dropFirst(inHead)), original: nil))
                } else {
                    movedPieces.append(piece)
                }
                offset = end
            }
            line = headPieces.map(\.shown).joined()
        }
        var data: [String] = []
        func keep(_ datum: String) { if !data.contains(datum) { data.append(datum) } }
        headPieces.compactMap(\.original).forEach(keep)
        // The prose moved to the next line is read as prose: a datum in it of modest size stays whole there (a
        // shortened `{"email": …, "password":…}` in advice would drop its last field); a long one is shortened as on
        // the first line and given in full below.
        var moved = ""
        for piece in movedPieces {
            if let original = piece.original, original.count <= movedDataLimit {
                moved += original
            } else {
                if let original = piece.original { keep(original) }
                moved += piece.shown
            }
        }
        moved = moved.trimmingCharacters(in: .whitespaces)
        var lines = [line]
        // A moved part that is nothing but one shortened datum (the compared values in brackets, say) says nothing
        // the `in full:` line below does not: it would read as `[("["-P5Qd…]`.
        let onlyAShortenedDatum = movedPieces.filter { !$0.shown.trimmingCharacters(in: .whitespaces).isEmpty }.count == 1
            && movedPieces.contains { ($0.original?.count ?? 0) > movedDataLimit }
        if !moved.isEmpty && !onlyAShortenedDatum { lines.append(moved) }
        lines += data.map { "  in full: " + ($0.count > keptData ? $0.prefix(keptData) + "…" : $0) }
        return lines.joined(separator: "\n") + rest
    }

    /// The longest datum that prose moved below the first line keeps whole.
    static let movedDataLimit = 160

    /// A run of the first line: prose (`original` nil), or a long datum shortened to `shown`, whole in `original`.
    struct Piece {
        let shown: String
        let original: String?
    }

    /// The first line as prose and long data, each datum shortened (see `shortened`).
    static func pieces(of line: String) -> [Piece] {
        let characters = Array(line)
        var pieces: [Piece] = [], prose = "", index = 0
        while index < characters.count {
            if let end = datumEnd(characters, from: index) {
                let datum = String(characters[index..<end])
                if end - index > longData {
                    if !prose.isEmpty { pieces.append(Piece(shown: prose, original: nil)); prose = "" }
                    let closing = "{[\"".contains(characters[index]) ? String(characters[end - 1]) : ""
                    pieces.append(Piece(shown: datum.prefix(longData / 2) + "…" + closing, original: datum))
                } else {
                    // A short datum stays whole, and the scan goes on after it: read again from its second character,
                    // its closing quote would open a "string" of the prose that follows (`"\r\n" is ONE Character,
                    // so splitting on "\n"` made one of ` is ONE Character, so splitting on `).
                    prose += datum
                }
                index = end
            } else {
                prose.append(characters[index])
                index += 1
            }
        }
        if !prose.isEmpty { pieces.append(Piece(shown: prose, original: nil)) }
        return pieces
    }

    /// Where a datum starting at `start` ends (exclusive): a balanced `{…}`/`[…]` (quotes respected), a quoted
    /// string, or a URL; nil when none starts there.
    static func datumEnd(_ characters: [Character], from start: Int) -> Int? {
        let first = characters[start]
        if first == "{" || first == "[" { return balancedEnd(characters, from: start) }
        if first == "\"" {
            var index = start + 1
            while index < characters.count {
                if characters[index] == "\\" { index += 2; continue }
                if characters[index] == "\"" { return index + 1 }
                index += 1
            }
            return nil
        }
        let rest = String(characters[start..<min(characters.count, start + 8)])
        guard rest.hasPrefix("http://") || rest.hasPrefix("https://") else { return nil }
        var index = start
        while index < characters.count, !characters[index].isWhitespace, !")]".contains(characters[index]) { index += 1 }
        // A sentence's full stop after a URL is not part of it.
        while index > start, ".,;".contains(characters[index - 1]) { index -= 1 }
        return index
    }

    private static func balancedEnd(_ characters: [Character], from start: Int) -> Int? {
        var depth = 0, inString = false, index = start
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\" { index += 1 } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    /// After the last ". ", "; " or ": " that ends within the limit (and past a quarter of it), or nil.
    /// A separator inside parentheses is passed over while one outside them will do: cut at the "; " of "(the
    /// database received 1: GET … -> 401 …; 0 refreshes)", the first line ended inside the parenthesis it opened.
    private static func sentenceEnd(in line: String) -> String.Index? {
        // One character more than the limit: a ". " whose full stop is the limit's last character ends a line that fits.
        let head = line.prefix(FirstLine.limit + 1)
        var depth = 0, outside: [String.Index: Bool] = [:], opened: String.Index?
        for index in head.indices {
            outside[index] = depth == 0
            if head[index] == "(" {
                if depth == 0 { opened = index }
                depth += 1
            } else if head[index] == ")" {
                depth = max(0, depth - 1)
            }
        }
        for insideToo in [false, true] {
            // No sentence ends outside the parenthesis the limit falls in: end the line before that parenthesis.
            if insideToo, depth > 0, let open = opened, open > head.startIndex, head[head.index(before: open)] == " ",
               head.distance(from: head.startIndex, to: open) > FirstLine.limit / 4 {
                return head.index(before: open)
            }
            for separator in [". ", "; ", " — ", ": "] {
                var searchEnd = head.endIndex
                while let found = head.range(of: separator, options: .backwards, range: head.startIndex..<searchEnd),
                      head.distance(from: head.startIndex, to: found.lowerBound) > FirstLine.limit / 4 {
                    if insideToo || outside[found.lowerBound] == true {
                        return separator == " — " ? found.lowerBound : line.index(before: found.upperBound)
                    }
                    searchEnd = found.lowerBound
                }
            }
        }
        return nil
    }

    /// After the last space within the limit; the limit itself when there is none.
    private static func wordEnd(in line: String) -> String.Index {
        let head = line.prefix(FirstLine.limit)
        return head.lastIndex(of: " ") ?? head.endIndex
    }
}
