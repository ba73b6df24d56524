import Foundation

/// The bytes a connection has received and not yet consumed, read from the socket on demand with deadlines.
/// Bytes past one request stay for the next (pipelining). `package`: the kit's test client reads responses with it.
package final class ConnectionInput {
    private let socket: Socket
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    package init(socket: Socket) { self.socket = socket }

    /// How a read ended when it did not get what it wanted.
    package enum Failure: Error {
        /// The peer closed, reset or the server is stopping.
        case closed
        /// The read itself failed with this errno (EBADF: the descriptor was closed by other code in this process).
        case readFailed(Int32)
        case timedOut
        /// More bytes than the limit allows.
        case tooLarge
        /// Not valid framing (a bad chunk size line, say).
        case malformed
        /// A chunk the caller's `admit` refused (the server's shared body budget is spent).
        case overBudget
    }

    private var available: Int { buffer.count - start }

    /// Reads once more from the socket, waiting until `deadline`.
    private func fill(until deadline: Deadline) throws {
        guard socket.waitReadable(until: deadline) else { throw Failure.timedOut }
        let count = chunk.withUnsafeMutableBytes { socket.receive(into: $0) }
        if count < 0 && errno != ECONNRESET { throw Failure.readFailed(errno) }
        guard count > 0 else { throw Failure.closed }
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// Whether bytes of a next request are waiting, without reading.
    package var hasBufferedBytes: Bool { available > 0 }

    /// Waits up to `idle` for the first byte of a request; false when none came (or the peer closed).
    /// Empty lines before a request are skipped, as RFC 9112 §2.2 asks: a client may send a CRLF after a body.
    package func awaitRequest(idle: TimeInterval) -> Bool {
        let deadline = Deadline.after(idle)
        while true {
            while start < buffer.count && (buffer[start] == 13 || buffer[start] == 10) { start += 1 }
            if available > 0 { return true }
            do {
                try fill(until: deadline)
            } catch {
                return false
            }
        }
    }

    /// Reads and throws away what the peer sends until it closes or `deadline` passes: after a refusal, so a
    /// client still sending its body reads the answer rather than a reset (a close with unread bytes resets).
    package func discard(until deadline: Deadline) {
        while socket.waitReadable(until: deadline) {
            let count = chunk.withUnsafeMutableBytes { socket.receive(into: $0) }
            if count <= 0 { return }
        }
    }

    /// The bytes up to a blank line (consumed, blank line included), at most `limit` of them.
    package func readHead(limit: Int, until deadline: Deadline) throws -> ArraySlice<UInt8> {
        var searched = 0  // bytes after `start` already searched (fill may move `start`)
        while true {
            if let end = Self.endOfHead(in: buffer, from: start + searched) {
                let head = buffer[start..<end.headEnd]
                guard head.count <= limit else { throw Failure.tooLarge }
                start = end.afterBlankLine
                return head
            }
            guard available <= limit else { throw Failure.tooLarge }
            searched = max(0, available - 3)
            try fill(until: deadline)
        }
    }

    /// Where the head ends (before the blank line) and where the body begins; CRLF CRLF or LF LF.
    private static func endOfHead(in bytes: [UInt8], from index: Int) -> (headEnd: Int, afterBlankLine: Int)? {
        var i = index
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count && bytes[i + 1] == 10 { return (i + 1, i + 2) }
                if i + 2 < bytes.count && bytes[i + 1] == 13 && bytes[i + 2] == 10 { return (i + 1, i + 3) }
            }
            i += 1
        }
        return nil
    }

    /// Exactly `count` bytes.
    package func readBytes(_ count: Int, until deadline: Deadline) throws -> Data {
        while available < count { try fill(until: deadline) }
        let data = Data(buffer[start..<(start + count)])
        start += count
        if start == buffer.count && buffer.capacity > 1 << 20 {
            // A large body was read: give its memory back now, not when the (kept-alive) client sends again.
            buffer = []
            start = 0
        }
        return data
    }

    /// One line without its line end, at most `limit` bytes.
    package func readLine(limit: Int, until deadline: Deadline) throws -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                var line = buffer[start..<newline]
                if line.last == 13 { line = line.dropLast() }
                start = newline + 1
                return String(decoding: line, as: UTF8.self)
            }
            guard available <= limit else { throw Failure.malformed }
            try fill(until: deadline)
        }
    }

    /// A chunked body (RFC 9112 §7.1): chunks until a zero-size one, then trailer lines, which are ignored.
    /// `admit` is asked before each chunk is read, with its size.
    package func readChunkedBody(limit: Int, until deadline: Deadline, admit: (Int) -> Bool = { _ in true }) throws -> Data {
        var body = Data()
        while true {
            let sizeLine = try readLine(limit: 1024, until: deadline)
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            // Hex digits only: `Int(_:radix:)` would also take a sign (`+1`, `-0`), which the grammar has not.
            guard !sizeText.isEmpty, sizeText.count <= 16, sizeText.allSatisfy(\.isHexDigit),
                let size = Int(sizeText, radix: 16) else {
                throw Failure.malformed
            }
            if size == 0 { break }
            // Not `body.count + size`: a size line of 16 hex digits (up to Int.max) would overflow that sum and trap.
            guard size <= limit - body.count else { throw Failure.tooLarge }
            guard admit(size) else { throw Failure.overBudget }
            body.append(try readBytes(size, until: deadline))
            guard try readLine(limit: 2, until: deadline).isEmpty else { throw Failure.malformed }
        }
        while !(try readLine(limit: 8 * 1024, until: deadline)).isEmpty {}  // trailers
        return body
    }
}
