import Foundation

/// The bytes of a response's status line and headers.
enum HTTPResponseHead {
    /// `framing`: how the body's end is known, which decides Content-Length and Transfer-Encoding.
    enum Framing {
        /// The headers' Content-Length (set from the body when missing).
        case contentLength(Int)
        /// Chunks as they come (a stream over HTTP/1.1).
        case chunked
        /// The end of the connection (a stream to an HTTP/1.0 client).
        case untilClose
    }

    static func bytes(status: Int, headers: [String: String], framing: Framing, keepAlive: Bool) -> Data {
        var text = "HTTP/1.1 \(status) \(reason(for: status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where !isFraming(name) {
            text += "\(name): \(value)\r\n"
        }
        switch framing {
        case .contentLength(let count): text += "Content-Length: \(count)\r\n"
        case .chunked: text += "Transfer-Encoding: chunked\r\n"
        case .untilClose: break
        }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        return Data(text.utf8)
    }

    /// The server decides these itself, whatever the service put in its headers.
    private static func isFraming(_ name: String) -> Bool {
        ["content-length", "transfer-encoding", "connection"].contains(name.lowercased())
    }

    /// A piece of a chunked body.
    static func chunk(_ data: Data) -> Data {
        var bytes = chunkHeader(data.count)
        bytes.append(data)
        bytes.append(contentsOf: [13, 10])
        return bytes
    }

    /// The size line before a chunk's bytes (which are followed by CRLF).
    static func chunkHeader(_ count: Int) -> Data {
        Data((String(count, radix: 16) + "\r\n").utf8)
    }

    static let lastChunk = Data("0\r\n\r\n".utf8)

    static func reason(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 412: return "Precondition Failed"
        case 413: return "Payload Too Large"
        case 417: return "Expectation Failed"
        case 423: return "Locked"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
