#if canImport(EmulatorCore)
import EmulatorCore  // absent when .ci/bench-server compiles these files with the socket files into one program
#endif
import Foundation

/// One client connection to a local `EmulatorServer`, for the kit's tests and benchmark: sends raw bytes, reads
/// responses and event streams, every read with a deadline so a test can fail but never hang. 127.0.0.1 only.
public final class LoopbackConnection {
    private let socket: Socket
    private let input: ConnectionInput
    private var closed = false

    /// nil when nothing listens on `port`. `receiveBuffer` (bytes) makes a client that does not read fill up sooner.
    public init?(port: UInt16, receiveBuffer: Int32? = nil) {
        guard let socket = Socket.connect(toLoopbackPort: port, receiveBuffer: receiveBuffer) else { return nil }
        self.socket = socket
        input = ConnectionInput(socket: socket)
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        socket.close()
    }

    /// False when the server has closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool { socket.sendAll(Data(text.utf8)) }

    @discardableResult
    public func send(_ data: Data) -> Bool { socket.sendAll(data) }

    /// Sends a request with a Content-Length body (none when `body` is nil).
    @discardableResult
    public func send(_ method: String, _ target: String, body: Data? = nil, headers: [String: String] = [:]) -> Bool {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body = body { head += "Content-Length: \(body.count)\r\n" }
        var bytes = Data((head + "\r\n").utf8)
        if let body = body { bytes.append(body) }
        return send(bytes)
    }

    /// A response's status line and headers.
    public struct Head {
        public let status: Int
        /// Names lowercased.
        public let headers: [String: String]
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// A whole response.
    public struct Response {
        public let head: Head
        public let body: Data
        public var status: Int { head.status }
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why reading a response failed.
    public enum ReadError: Error, CustomStringConvertible {
        case closed
        /// The stream's last chunk came: the server ended it on purpose.
        case streamEnded
        /// Reading failed locally (errno); EBADF means other code in this process closed the descriptor.
        case readFailed(Int32)
        case timedOut(TimeInterval)
        case malformed(String)

        public var description: String {
            switch self {
            case .closed: return "the server closed the connection"
            case .streamEnded: return "the server ended the stream (its last chunk came)"
            case .readFailed(let code): return "reading failed: \(String(cString: strerror(code)))"
            case .timedOut(let seconds): return "no complete answer within \(seconds) s"
            case .malformed(let what): return "malformed response: \(what)"
            }
        }
    }

    /// The next response's status line and headers.
    public func readHead(timeout: TimeInterval = 2) throws -> Head {
        let deadline = Deadline.after(timeout)
        let bytes = try reading(timeout) { try input.readHead(limit: 64 * 1024, until: deadline) }
        // Split bytes, not a String: "\r\n" is one Character, so a String never splits at its "\n".
        let lines = bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw ReadError.malformed("status line \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw ReadError.malformed("header line \(line)") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Head(status: status, headers: headers)
    }

    /// The next whole response (skipping `100 Continue`); `method`: HEAD answers carry no body.
    public func readResponse(timeout: TimeInterval = 2, method: String = "GET") throws -> Response {
        let deadline = Deadline.after(timeout)
        var head = try readHead(timeout: timeout)
        while head.status == 100 { head = try readHead(timeout: timeout) }
        if method == "HEAD" || head.status == 204 || head.status == 304 { return Response(head: head, body: Data()) }
        if head.header("Transfer-Encoding")?.lowercased() == "chunked" {
            return Response(head: head, body: try reading(timeout) { try input.readChunkedBody(limit: 1 << 30, until: deadline) })
        }
        if let length = head.header("Content-Length").flatMap(Int.init) {
            return Response(head: head, body: try reading(timeout) { try input.readBytes(length, until: deadline) })
        }
        return Response(head: head, body: try readUntilClose(timeout: timeout))
    }

    /// Everything until the server closes.
    public func readUntilClose(timeout: TimeInterval = 2) throws -> Data {
        let deadline = Deadline.after(timeout)
        var data = Data()
        while true {
            do {
                data.append(try input.readBytes(1, until: deadline))
            } catch ConnectionInput.Failure.closed {
                return data
            } catch ConnectionInput.Failure.readFailed(let code) {
                throw ReadError.readFailed(code)
            } catch {
                throw ReadError.timedOut(timeout)
            }
        }
    }

    /// True when the server closes the connection within `timeout` (bytes it sends first are skipped).
    public func serverCloses(within timeout: TimeInterval) -> Bool {
        (try? readUntilClose(timeout: timeout)) != nil
    }

    /// The next piece of a chunked body: nil at its end.
    public func readChunk(timeout: TimeInterval = 2) throws -> Data? {
        let deadline = Deadline.after(timeout)
        return try reading(timeout) {
            let sizeLine = try input.readLine(limit: 1024, until: deadline)
            guard let size = Int(sizeLine.trimmingCharacters(in: .whitespaces), radix: 16) else { throw ConnectionInput.Failure.malformed }
            if size == 0 {
                _ = try input.readLine(limit: 2, until: deadline)
                return nil
            }
            let data = try input.readBytes(size, until: deadline)
            _ = try input.readLine(limit: 2, until: deadline)
            return data
        }
    }

    private func reading<T>(_ timeout: TimeInterval, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch ConnectionInput.Failure.closed {
            throw ReadError.closed
        } catch ConnectionInput.Failure.readFailed(let code) {
            throw ReadError.readFailed(code)
        } catch ConnectionInput.Failure.timedOut {
            throw ReadError.timedOut(timeout)
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError.malformed("\(error)")
        }
    }
}
