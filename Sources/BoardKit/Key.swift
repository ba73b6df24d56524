/// A key press, decoded from what a terminal in raw mode sends.
public enum Key: Equatable {
    case up, down, left, right, pageUp, pageDown
    case enter, escape, backspace, tab
    case character(Character)

    /// The keys in one read of standard input. A lone ESC is the Escape key; ESC followed by more is a sequence.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                let (key, length) = escapeSequence(Array(bytes[(index + 2)...]))
                key.map { keys.append($0) }
                index += 2 + length
                continue
            }
            switch byte {
            case 0x1B: keys.append(.escape)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                // One UTF-8 character: its lead byte says how long it is.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(bytes.count, index + length)
                if let text = String(bytes: bytes[index..<end], encoding: .utf8), let character = text.first {
                    keys.append(.character(character))
                }
                index = end
                continue
            default: break  // other control bytes and stray continuation bytes
            }
            index += 1
        }
        return keys
    }

    /// After `ESC [` (or `ESC O`): the key and how many bytes it took.
    private static func escapeSequence(_ rest: [UInt8]) -> (Key?, Int) {
        guard let end = rest.firstIndex(where: { (0x40...0x7E).contains($0) }) else { return (nil, rest.count) }
        let parameter = String(decoding: rest[..<end], as: UTF8.self)
        switch (rest[end], parameter) {
        case (UInt8(ascii: "A"), _): return (.up, end + 1)
        case (UInt8(ascii: "B"), _): return (.down, end + 1)
        case (UInt8(ascii: "C"), _): return (.right, end + 1)
        case (UInt8(ascii: "D"), _): return (.left, end + 1)
        case (UInt8(ascii: "~"), "5"): return (.pageUp, end + 1)
        case (UInt8(ascii: "~"), "6"): return (.pageDown, end + 1)
        default: return (nil, end + 1)
        }
    }
}
