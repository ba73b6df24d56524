import Foundation

/// Text made safe for an HTML page (and for an attribute in double or single quotes): every `&`, `<`, `>`, `"` and
/// `'` becomes an entity, and control characters that neither HTML nor XML allow become U+FFFD. Everything a learner
/// wrote — a folder name, a failure message quoting their code's output — goes through it, so none of it can become
/// markup. The page is also well-formed XML, which is how the kit's tests read it.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let forbidden = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF
                output.unicodeScalars.append(forbidden ? "\u{FFFD}" : scalar)
            }
        }
        return output
    }
}
