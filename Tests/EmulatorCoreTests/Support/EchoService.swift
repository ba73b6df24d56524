import XCTest
import EmulatorCore
import EmulatorTestSupport

/// A service that shows what reached it, for testing the transports: any request is answered with its method,
/// path and body; `GET /stream` opens a stream, `POST /broadcast` sends its body to every stream, `POST /finish`
/// ends them.
struct EchoService: EmulatedService {
    static let hostDomain = "echo.invalid"
    var streams: [EventStream] = []
    var idleInterval: TimeInterval = 30

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        switch (request.method, request.path) {
        case ("GET", "/stream"):
            let stream = EventStream(headers: ["Content-Type": "text/event-stream"], idleEvent: Data("idle\n".utf8),
                                     idleInterval: idleInterval)
            streams.append(stream)
            return .stream(stream)
        case ("POST", "/broadcast"):
            streams.removeAll { $0.isCancelled }
            for stream in streams { stream.send(request.body ?? Data()) }
        case ("POST", "/finish"):
            streams.forEach { $0.finish() }
            streams.removeAll()
        default:
            break
        }
        let echo: JSONValue = [
            "method": .string(request.method), "path": .string(request.path),
            "body": .string(String(decoding: request.body ?? Data(), as: UTF8.self)),
        ]
        return .response(.raw(status: 200, headers: jsonHeaders, body: echo.jsonData))
    }
}

extension XCTestCase {
    /// An echo emulator served on a free port, stopped when the test ends.
    func startEchoServer(limits: ServerLimits = ServerLimits(), file: StaticString = #filePath, line: UInt = #line) throws
        -> (Emulator<EchoService>, EmulatorServer) {
        let emulator = Emulator(EchoService())
        let server = EmulatorServer(serving: emulator, limits: limits)
        try server.start()
        addTeardownBlock { server.stop() }
        return (emulator, server)
    }

    /// A connection to `server`, or a failure that says so.
    func connect(to server: EmulatorServer, file: StaticString = #filePath, line: UInt = #line) throws -> LoopbackConnection {
        try XCTUnwrap(LoopbackConnection(port: server.port), "setup: could not connect to 127.0.0.1:\(server.port)", file: file, line: line)
    }

    /// The echo's JSON body.
    func echo(_ response: LoopbackConnection.Response) -> JSONValue? { try? JSONValue(data: response.body) }
}

/// A value written on one thread (a completion, a connection) and read on the test's.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
