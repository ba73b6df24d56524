import Foundation

/// Shapes a failure message so that its first line is the diagnosis, readable at a glance (`FirstLine.limit`):
/// long data on that line — a URL, a JSON body, compared values in brackets, a long quoted string — is shortened
/// there and given in full below; prose past the limit moves to the next line at a sentence's end. A message that
/// already fits is left as it is. Used on the tests' own failures (`LabTestCase`) and on the grader's (`LessonRun`).
public enum DiagnosisLine {
    /// Data shorter than this stays where it is.
    static let longData = 48
    /// How much of each datum the lines below keep.
    static let keptData = 1_000

    public static func shape(_ message: String) -> String {
        let firstEnd = message.firstIndex(of: "\n") ?? message.endIndex
        let first = String(message[..<firstEnd]), rest = String(message[firstEnd...])
        guard first.count > FirstLine.limit else { return message }
        var data: [String] = []
        var line = shortened(first, keeping: &data)
        var moved = ""
        if line.count > FirstLine.limit {
            let cut = sentenceEnd(in: line) ?? wordEnd(in: line)
            moved = line[cut...].trimmingCharacters(in: .whitespaces)
            line = String(line[..<cut])
        }
        var lines = [line]
        if !moved.isEmpty { lines.append(moved) }
        lines += data.map { "  in full: " + ($0.count > keptData ? $0.prefix(keptData) + "…" : $0) }
        return lines.joined(separator: "\n") + rest
    }

    /// `line` with each long datum cut to its start and "…"; the data, whole, appended to `data`.
    static func shortened(_ line: String, keeping data: inout [String]) -> String {
        let characters = Array(line)
        var result = "", index = 0
        while index < characters.count {
            if let end = datumEnd(characters, from: index) {
                let datum = String(characters[index..<end])
                if end - index > longData {
                    // The same datum twice (what was sent, and what the call gave back) is given in full once.
                    if !data.contains(datum) { data.append(datum) }
                    let closing = "{[\"".contains(characters[index]) ? String(characters[end - 1]) : ""
                    result += datum.prefix(longData / 2) + "…" + closing
                } else {
                    // A short datum stays whole, and the scan goes on after it: read again from its second character,
                    // its closing quote would open a "string" of the prose that follows (`"\r\n" is ONE Character,
                    // so splitting on "\n"` made one of ` is ONE Character, so splitting on `).
                    result += datum
                }
                index = end
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
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
    private static func sentenceEnd(in line: String) -> String.Index? {
        let head = line.prefix(FirstLine.limit)
        for separator in [". ", "; ", " — ", ": "] {
            if let found = head.range(of: separator, options: .backwards),
               head.distance(from: head.startIndex, to: found.lowerBound) > FirstLine.limit / 4 {
                return separator == " — " ? found.lowerBound : line.index(before: found.upperBound)
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
