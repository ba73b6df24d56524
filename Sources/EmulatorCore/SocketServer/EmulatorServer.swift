#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Serves an emulator over HTTP/1.1 on a real port (127.0.0.1 by default), for curl, browsers, a learner's own app
/// and live streams: the same service, log and faults as its in-process `session`.
///
/// Plain BSD sockets, no dependencies: one thread per connection (bounded by `limits.maximumConnections`), keep-alive,
/// Content-Length and chunked request bodies, `Expect: 100-continue`, streamed responses, and a time-out or a size
/// limit on everything a client controls. `stop()` closes the listener and every connection and waits for their
/// threads, so tests can start and stop many servers. Call it: the server's threads keep it alive until then.
public final class EmulatorServer {
    public let host: String
    public let limits: ServerLimits
    /// Called on a connection's thread after each answer: `lab serve` prints `ServedRequest.line`.
    public var onRequest: ((ServedRequest) -> Void)?

    private let emulator: RequestProcessing
    private let requestedPort: UInt16
    private let lock = NSLock()
    private var boundPort: UInt16 = 0
    private var listener: Socket?
    private var wakePipe: [Int32] = [-1, -1]
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var isStopped = false
    private let threads = DispatchGroup()
    private let bodyBudget: BodyBudget

    /// `port` 0 picks a free port: read it from `port` after `start()`.
    public init<Service>(serving emulator: Emulator<Service>, host: String = "127.0.0.1", port: UInt16 = 0,
                         limits: ServerLimits = ServerLimits()) {
        self.emulator = emulator
        self.host = host
        self.requestedPort = port
        self.limits = limits
        bodyBudget = BodyBudget(limit: limits.maximumBufferedBodyBytes)
    }

    /// The port it listens on (after `start()`).
    public var port: UInt16 {
        lock.lock()
        defer { lock.unlock() }
        return boundPort
    }

    /// `http://127.0.0.1:<port>/`.
    public var baseURL: URL { URL(string: "http://\(host):\(port)/")! }

    /// Why the server could not start, in one line.
    public enum StartError: Error, CustomStringConvertible {
        case portInUse(UInt16)
        case cannotListen(String)

        public var description: String {
            switch self {
            case .portInUse(let port): return "port \(port) is already in use (another `lab serve`?); pick another with --port"
            case .cannotListen(let reason): return "cannot listen: \(reason)"
            }
        }
    }

    /// Binds and starts accepting on a thread of its own; returns once the port is open.
    public func start() throws {
        let (socket, port): (Socket, UInt16)
        do {
            (socket, port) = try Socket.makeListener(host: host, port: requestedPort)
        } catch Socket.ListenError.addressInUse(let port) {
            throw StartError.portInUse(port)
        } catch Socket.ListenError.failed(let call, let code) {
            throw StartError.cannotListen("\(call) failed: \(String(cString: strerror(code)))")
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            socket.close()
            throw StartError.cannotListen("pipe failed: \(String(cString: strerror(errno)))")
        }
        lock.lock()
        listener = socket
        boundPort = port
        wakePipe = fds
        lock.unlock()
        startThread { [self] in acceptLoop(socket, wake: fds[0]) }
    }

    /// Closes the listener and every connection (streams included), and waits for their threads to end.
    public func stop() {
        lock.lock()
        guard !isStopped, let listener = listener else {
            isStopped = true
            lock.unlock()
            return
        }
        isStopped = true
        let open = Array(connections.values)
        let wake = wakePipe
        lock.unlock()

        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        for connection in open { connection.stop() }
        _ = threads.wait(timeout: .now() + 5)
        listener.close()
        _ = close(wake[0])
        _ = close(wake[1])
    }

    private func startThread(_ body: @escaping () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func acceptLoop(_ listener: Socket, wake: Int32) {
        var entries = [pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&entries, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || entries[1].revents != 0 { return }
            guard entries[0].revents != 0 else { continue }
            guard let socket = listener.accept() else {
                // Out of file descriptors: the pending connection stays readable; pause rather than spin on it.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                continue
            }
            admit(socket)
        }
    }

    /// Serves `socket` on its own thread, or answers 503 when the server is full or stopping.
    private func admit(_ socket: Socket) {
        if let bytes = limits.sendBufferBytes { socket.setSendBuffer(bytes) }
        let connection = HTTPConnection(socket: socket, emulator: emulator, limits: limits, bodyBudget: bodyBudget,
                                        fallbackHost: "\(host):\(port)", observer: onRequest)
        let id = ObjectIdentifier(connection)
        lock.lock()
        let admitted = !isStopped && connections.count < limits.maximumConnections
        if admitted { connections[id] = connection }
        lock.unlock()
        guard admitted else {
            let body = "Service Unavailable: the server has \(limits.maximumConnections) open connections.\n"
            _ = socket.sendAll(HTTPResponseHead.bytes(status: 503, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                                      framing: .contentLength(body.utf8.count), keepAlive: false) + Data(body.utf8))
            socket.close()
            return
        }
        startThread { [self] in
            connection.run()
            lock.lock()
            connections[id] = nil
            lock.unlock()
        }
    }
}
