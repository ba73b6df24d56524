import Foundation

/// One client connection, served on its own thread: its requests in order, kept alive, until the client leaves,
/// a limit is hit, or the server stops. Refusals are HTTP errors (400, 408, 413, 431, …) followed by a close.
final class HTTPConnection {
    let socket: Socket
    private let input: ConnectionInput
    private let emulator: RequestProcessing
    private let limits: ServerLimits
    /// Shared by the server's connections; `reservedBodyBytes` is this connection's part, for the current request.
    private let bodyBudget: BodyBudget
    private var reservedBodyBytes = 0
    /// `127.0.0.1:<port>`: the host of request URLs when the client sent no usable Host header.
    private let fallbackHost: String
    private let observer: ((ServedRequest) -> Void)?
    private let lock = NSLock()
    private var stopping = false
    private var closed = false
    private var stream: EventStream?
    private let stopSignal = DispatchSemaphore(value: 0)

    init(socket: Socket, emulator: RequestProcessing, limits: ServerLimits, bodyBudget: BodyBudget, fallbackHost: String,
         observer: ((ServedRequest) -> Void)?) {
        self.bodyBudget = bodyBudget
        self.socket = socket
        self.input = ConnectionInput(socket: socket)
        self.emulator = emulator
        self.limits = limits
        self.fallbackHost = fallbackHost
        self.observer = observer
        socket.setSendTimeout(limits.sendTimeout)
    }

    /// Serves until the connection ends, then closes the socket.
    func run() {
        while !isStopping, serveOneRequest() {}
        lock.lock()
        closed = true  // under the lock: `stop()` must never shut down a descriptor number reused by a new socket
        socket.close()
        lock.unlock()
    }

    /// From another thread: wakes the connection wherever it waits (read, write, stream, latency) and ends it.
    func stop() {
        lock.lock()
        stopping = true
        let current = stream
        if !closed { socket.shutdownBoth() }
        lock.unlock()
        current?.cancel()
        stopSignal.signal()
    }

    /// Shuts the socket down (unless already closed) so a blocked write returns at once.
    private func dropClient() {
        lock.lock()
        if !closed { socket.shutdownBoth() }
        lock.unlock()
    }

    /// One piece of a stream; a large one is framed around, not copied into a new buffer per client.
    private func send(_ piece: Data, chunked: Bool) -> Bool {
        guard chunked else { return socket.sendAll(piece) }
        guard piece.count > 64 << 10 else { return socket.sendAll(HTTPResponseHead.chunk(piece)) }
        return socket.sendAll(HTTPResponseHead.chunkHeader(piece.count)) && socket.sendAll(piece)
            && socket.sendAll(Data([13, 10]))
    }

    private func releaseReservedBody() {
        bodyBudget.release(reservedBodyBytes)
        reservedBodyBytes = 0
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    // MARK: One request

    /// Reads, answers and reports one request; true when the connection stays open for another.
    private func serveOneRequest() -> Bool {
        guard input.awaitRequest(idle: limits.idleTimeout) else { return false }
        defer { releaseReservedBody() }  // a request abandoned mid-body
        let started = DispatchTime.now()
        let deadline = Deadline.after(limits.requestTimeout)
        let head: HTTPRequestHead
        let body: Data?
        do {
            let bytes = try input.readHead(limit: limits.maximumHeaderBytes, until: deadline)
            head = try HTTPRequestHead(bytes, maximumFieldCount: limits.maximumHeaderCount)
            body = try readBody(of: head, until: deadline)
        } catch let refusal as HTTPRequestHead.Refusal {
            return refuse(refusal, started: started)
        } catch ConnectionInput.Failure.tooLarge {
            return refuse(.init(status: 431, reason: "the request line and headers exceed \(limits.maximumHeaderBytes) bytes"), started: started)
        } catch ConnectionInput.Failure.timedOut {
            return refuse(.init(status: 408, reason: "the request did not arrive within \(limits.requestTimeout) s"), started: started)
        } catch ConnectionInput.Failure.overBudget {
            return refuse(overBudget, started: started)
        } catch ConnectionInput.Failure.malformed {
            return refuse(.init(status: 400, reason: "the chunked body is malformed"), started: started)
        } catch {
            return false  // the client left mid-request: nobody to answer
        }
        let url: URL
        do {
            url = try self.url(of: head)
        } catch let refusal as HTTPRequestHead.Refusal {
            return refuse(refusal, started: started)
        } catch {
            return false  // unreachable: only refusals are thrown
        }
        let request = ServiceRequest(method: head.method, url: url, headers: head.headerDictionary, body: body)
        let processed = emulator.process(request, over: .socket)
        // The emulator has taken the body: give its bytes back before answering, so a client that has read the
        // answer finds the budget free (releasing after the write raced the next request: 503 instead of 200).
        releaseReservedBody()
        if !awaitDelivery(of: processed) {
            if case .stream(let stream) = processed.reply { stream.cancel() }
            emulator.noteCancelled(processed.number)
            return false  // stopped while waiting
        }
        let keepAlive = head.wantsKeepAlive
        switch processed.reply {
        case .response(let response):
            guard response.transportError == nil else {  // an injected transport fault: no HTTP response at all
                report(head, status: 0, started: started)
                return false
            }
            // The body's own length frames it; a HEAD answer has no body and keeps the length a GET would have.
            let isHead = head.method == "HEAD"
            let length = isHead ? Int(ServiceRequest.header("Content-Length", in: response.headers) ?? "") ?? 0 : response.body.count
            var bytes = HTTPResponseHead.bytes(status: response.statusCode, headers: response.headers,
                                               framing: .contentLength(length), keepAlive: keepAlive)
            if !isHead { bytes.append(response.body) }
            report(head, status: response.statusCode, started: started)  // before: a client that got its answer sees the line
            guard socket.sendAll(bytes) else {
                emulator.noteCancelled(processed.number)  // the client left before its answer
                return false
            }
            return keepAlive
        case .stream(let stream):
            return serve(stream, to: head, keepAlive: keepAlive, started: started)
        }
    }

    /// Waits while the emulator holds answers, then for the latency; false when the server stopped meanwhile, or the
    /// client left while its answer was held (checked every 50 ms, so a test sees the request abandoned). Under
    /// latency alone the answer is sent regardless: a client that only half-closed still reads it.
    private func awaitDelivery(of processed: Processed) -> Bool {
        if let gate = processed.gate {
            let opened = DispatchSemaphore(value: 0)
            gate.whenOpen { opened.signal() }
            while opened.wait(timeout: .now() + 0.05) == .timedOut {
                if isStopping || socket.peerHasClosed { return false }
            }
        }
        return processed.latency <= 0 || stopSignal.wait(timeout: .now() + processed.latency) != .success
    }

    /// The body as framed by Transfer-Encoding or Content-Length, after `100 Continue` when the client waits for it.
    private func readBody(of head: HTTPRequestHead, until deadline: Deadline) throws -> Data? {
        let lengths = head.values("Content-Length")
        let transferEncoding = head.value("Transfer-Encoding")
        if transferEncoding != nil && !lengths.isEmpty {
            throw HTTPRequestHead.Refusal(status: 400, reason: "both Transfer-Encoding and Content-Length were sent")
        }
        var length = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), first.utf8.allSatisfy({ (48...57).contains($0) }), first.count <= 18,
                let value = Int(first)
            else { throw HTTPRequestHead.Refusal(status: 400, reason: "Content-Length is not one number") }
            length = value
        }
        if let encoding = transferEncoding, encoding.lowercased() != "chunked" {
            throw HTTPRequestHead.Refusal(status: 501, reason: "only the chunked transfer coding is understood, not \(encoding)")
        }
        guard length <= limits.maximumBodyBytes else {
            throw HTTPRequestHead.Refusal(status: 413, reason: "the body exceeds \(limits.maximumBodyBytes) bytes")
        }
        guard bodyBudget.reserve(length) else { throw overBudget }
        reservedBodyBytes += length
        let hasBody = transferEncoding != nil || length > 0
        if let expectation = head.value("Expect") {
            guard expectation.lowercased() == "100-continue" else {
                throw HTTPRequestHead.Refusal(status: 417, reason: "only `Expect: 100-continue` is understood")
            }
            if hasBody && head.minorVersion == 1 && !input.hasBufferedBytes {
                _ = socket.sendAll(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
        }
        if transferEncoding != nil {
            do {
                return try input.readChunkedBody(limit: limits.maximumBodyBytes, until: deadline) { [self] size in
                    guard bodyBudget.reserve(size) else { return false }
                    reservedBodyBytes += size
                    return true
                }
            } catch ConnectionInput.Failure.tooLarge {
                throw HTTPRequestHead.Refusal(status: 413, reason: "the chunked body exceeds \(limits.maximumBodyBytes) bytes")
            }
        }
        return length > 0 ? try input.readBytes(length, until: deadline) : nil
    }

    private var overBudget: HTTPRequestHead.Refusal {
        .init(status: 503, reason: "the server is already receiving \(limits.maximumBufferedBodyBytes) bytes of other request bodies; send it again in a moment")
    }

    /// `http://<Host><target>`; the absolute form as sent; a refusal for anything else (`*`, garbage, a Host that
    /// is not `host[:port]`, which pasted before the path would move it: `Host: x/threads` or `Host: x?shallow=true`).
    private func url(of head: HTTPRequestHead) throws -> URL {
        let notATarget = HTTPRequestHead.Refusal(status: 400, reason: "the request target is not a path (or an absolute URL)")
        if head.target.hasPrefix("http://") || head.target.hasPrefix("https://") {
            guard let url = URL(string: head.target) else { throw notATarget }
            return url
        }
        guard head.target.hasPrefix("/") else { throw notATarget }
        let hosts = head.values("Host")
        // RFC 9112 §3.2: more than one Host, or one that is not a valid host, is answered 400.
        guard hosts.count <= 1 else { throw HTTPRequestHead.Refusal(status: 400, reason: "the request has more than one Host header") }
        var host = fallbackHost  // no Host (or an empty one, as HTTP/1.0 clients send): this server's own
        if let sent = hosts.first, !sent.isEmpty {
            guard Self.isHostAndPort(sent) else {
                throw HTTPRequestHead.Refusal(status: 400, reason: "the Host header is not `host` or `host:port`")
            }
            host = sent
        }
        guard let url = URL(string: "http://\(host)\(head.target)") else { throw notATarget }
        return url
    }

    /// A name or IPv4 address with an optional port, or a bracketed IPv6 address (`[::1]:9000`): nothing that ends
    /// the authority (`/`, `?`, `#`) or adds user info (`@`).
    static func isHostAndPort(_ text: String) -> Bool {
        var name = Substring(text)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let address = name[name.index(after: name.startIndex)..<close]
            guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
            name = name[name.index(after: close)...]
            guard name.isEmpty || name.hasPrefix(":") else { return false }
            return name.dropFirst().allSatisfy { ("0"..."9").contains($0) }
        }
        if let colon = name.lastIndex(of: ":") {
            guard name[name.index(after: colon)...].allSatisfy({ ("0"..."9").contains($0) }) else { return false }
            name = name[..<colon]
        }
        return !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-._~!$&'()*+,;=%".unicodeScalars.contains(scalar))
        }
    }

    /// Answers with `refusal`'s status and reason as plain text, then closes.
    private func refuse(_ refusal: HTTPRequestHead.Refusal, started: DispatchTime) -> Bool {
        releaseReservedBody()  // the body is dropped, not kept: free its bytes before lingering
        let body = Data("\(HTTPResponseHead.reason(for: refusal.status)): \(refusal.reason).\n".utf8)
        var bytes = HTTPResponseHead.bytes(
            status: refusal.status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            framing: .contentLength(body.count), keepAlive: false)
        bytes.append(body)
        observer?(ServedRequest(method: "-", target: "(\(refusal.reason))", status: refusal.status,
                                milliseconds: Self.milliseconds(since: started), isStream: false))
        if socket.sendAll(bytes) {
            // Lingering close: FIN now, then read and drop what the client still sends, until it closes or the
            // linger time ends. Closing with its body unread would reset the connection, and a client that writes
            // its whole body before reading would see the reset instead of this answer.
            socket.shutdownWrite()
            input.discard(until: .after(limits.lingerTimeout))
        }
        return false
    }

    private func report(_ head: HTTPRequestHead, status: Int, started: DispatchTime, isStream: Bool = false) {
        observer?(ServedRequest(method: head.method, target: head.target, status: status,
                                milliseconds: Self.milliseconds(since: started), isStream: isStream))
    }

    private static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    // MARK: Streams

    /// Writes the stream's pieces as they come (chunked over HTTP/1.1), the idle event when quiet, until the
    /// service finishes it, the client leaves or the server stops.
    private func serve(_ stream: EventStream, to head: HTTPRequestHead, keepAlive: Bool, started: DispatchTime) -> Bool {
        lock.lock()
        self.stream = stream
        let stopped = stopping
        lock.unlock()
        defer {
            lock.lock()
            self.stream = nil
            lock.unlock()
        }
        if stopped { stream.cancel() }
        stream.whenCancelled { [weak self] in self?.dropClient() }  // over its memory budget: drop the client now
        let chunked = head.minorVersion == 1
        let headBytes = HTTPResponseHead.bytes(status: stream.statusCode, headers: stream.headers,
                                               framing: chunked ? .chunked : .untilClose, keepAlive: chunked && keepAlive)
        report(head, status: stream.statusCode, started: started, isStream: true)
        guard socket.sendAll(headBytes) else {
            stream.cancel()
            return false
        }
        var lastWrite = DispatchTime.now()
        while true {
            let quiet = Double(DispatchTime.now().uptimeNanoseconds - lastWrite.uptimeNanoseconds) / 1e9
            // Wake at least twice a second to notice a client that left while nothing was sent.
            switch stream.next(timeout: min(max(0, stream.idleInterval - quiet), 0.5)) {
            case .piece(let piece):
                guard send(piece, chunked: chunked) else {
                    stream.cancel()
                    return false
                }
                lastWrite = DispatchTime.now()
            case .idle:
                if socket.peerHasClosed {
                    stream.cancel()
                    return false
                }
                let quietNow = Double(DispatchTime.now().uptimeNanoseconds - lastWrite.uptimeNanoseconds) / 1e9
                if let idle = stream.idleEvent, quietNow + 0.001 >= stream.idleInterval {
                    guard socket.sendAll(chunked ? HTTPResponseHead.chunk(idle) : idle) else {
                        stream.cancel()
                        return false
                    }
                    lastWrite = DispatchTime.now()
                }
            case .end:
                guard !isStopping, !stream.isCancelled, chunked else { return false }
                return socket.sendAll(HTTPResponseHead.lastChunk) && keepAlive
            }
        }
    }
}
