/// Terminal columns, so that titles with emoji or CJK ("📚 Reading list") still fit 80 columns.
enum TextWidth {
    /// 2 for wide characters (emoji, CJK), 0 for control characters, 1 otherwise.
    static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    static func columns(of text: String) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` cut to `width` columns, with "…" where it was cut; control characters dropped.
    static func fit(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        let total = columns(of: text)
        for character in text {
            let wide = columns(of: character)
            if wide == 0 { continue }
            if total > width, used + wide > width - 1 { return result + "…" }
            result.append(character)
            used += wide
        }
        return result
    }

    /// `text` fitted to `width` and padded with spaces to exactly `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        let fitted = fit(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - columns(of: fitted)))
    }

    /// `left` and `right` on one line of `width` columns; `left` gives way.
    static func spread(_ left: String, _ right: String, width: Int) -> String {
        let rightWidth = min(columns(of: right), width)
        return pad(left, to: width - rightWidth - (rightWidth > 0 ? 1 : 0)) + (rightWidth > 0 ? " " : "") + fit(right, to: rightWidth)
    }

    /// Word-wrapped lines of at most `width` columns; a word longer than a line is cut into pieces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                while columns(of: word) > width {
                    if !line.isEmpty { lines.append(line); line = "" }
                    var piece = ""
                    while let next = word.first, columns(of: piece) + columns(of: next) <= width {
                        piece.append(word.removeFirst())
                    }
                    if piece.isEmpty { piece.append(word.removeFirst()) }
                    lines.append(piece)
                }
                if word.isEmpty { continue }
                if line.isEmpty {
                    line = word
                } else if columns(of: line) + 1 + columns(of: word) <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = word
                }
            }
            lines.append(line)
        }
        return lines
    }
}
