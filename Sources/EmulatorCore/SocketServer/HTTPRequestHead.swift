import Foundation

/// A request line and its headers, parsed strictly enough to refuse what is not HTTP/1.x.
struct HTTPRequestHead {
    let method: String
    /// As sent: origin form (`/a.json?x=1`) or absolute form (`http://host/a.json`).
    let target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    let minorVersion: Int
    /// In order, names as sent; look them up with `value(_:)`.
    let fields: [(name: String, value: String)]

    /// Why a head was refused, and with which status.
    struct Refusal: Error {
        let status: Int
        let reason: String
    }

    /// Parses the bytes before the blank line (CRLF or bare LF line ends).
    init(_ bytes: ArraySlice<UInt8>, maximumFieldCount: Int) throws {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, let text = String(bytes: requestLine, encoding: .utf8) else {
            throw Refusal(status: 400, reason: "the request line is not text")
        }
        // A bare CR or a NUL inside a line is where parsers disagree (RFC 9112 §2.2): refused, never passed on.
        guard !requestLine.contains(where: Self.isControlByte) else {
            throw Refusal(status: 400, reason: "the request line contains a control character (a bare CR, a NUL)")
        }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy(Self.isTokenByte), !parts[1].isEmpty else {
            throw Refusal(status: 400, reason: "the request line is not `METHOD target HTTP/1.1`")
        }
        guard parts[2].hasPrefix("HTTP/") else { throw Refusal(status: 400, reason: "the request line names no HTTP version") }
        switch parts[2] {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default: throw Refusal(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served, not \(parts[2])")
        }
        method = String(parts[0])
        target = String(parts[1])

        guard lines.count - 1 <= maximumFieldCount else {
            throw Refusal(status: 431, reason: "more than \(maximumFieldCount) header fields")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy(Self.isTokenByte),
                let value = String(bytes: line[(colon + 1)...], encoding: .utf8)
            else {
                throw Refusal(status: 400, reason: "a header line is not `Name: value`")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            // RFC 9110 §5.5: CR, LF and NUL are never part of a field value. A bare CR passed on could end a line
            // in a response that reflects the value (a CORS preflight's Access-Control-Allow-Headers).
            guard !line[(colon + 1)...].contains(where: { Self.isControlByte($0) && $0 != UInt8(ascii: "\t") }) else {
                throw Refusal(status: 400, reason: "the header \(name) contains a control character (a bare CR, a NUL)")
            }
            fields.append((name, value.trimmingCharacters(in: .whitespaces)))
        }
        self.fields = fields
    }

    /// Every value of a field, by case-insensitive name.
    func values(_ name: String) -> [String] {
        fields.filter { HeaderName.equal($0.name, name) }.map(\.value)
    }

    /// The field's values joined as HTTP allows (`a, b`); nil when absent.
    func value(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    /// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes unless told to keep it.
    var wantsKeepAlive: Bool {
        let tokens = (value("Connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return minorVersion == 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    /// The fields as one dictionary, repeated names joined: what a `ServiceRequest` carries.
    var headerDictionary: [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let existing = headers.keys.first { HeaderName.equal($0, field.name) }
            if let existing = existing {
                headers[existing]! += ", " + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        return headers
    }

    /// ASCII control characters (tab included: callers that allow it say so) and DEL.
    private static func isControlByte(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    /// RFC 9110 token characters: what a method and a header name may contain.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
