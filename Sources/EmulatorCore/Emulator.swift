import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One emulated service with everything the transports share: a unique host and the `session` that reaches it
/// in-process, the request log, injected faults and latency. An `EmulatorServer` serves the same instance on a
/// port, with the same log and faults. Thread-safe: requests arrive on URLSession's queues and socket threads while
/// tests read the log and the state.
///
/// Like SwiftNIO's EmbeddedChannel, `handle(_:)` drives the same core synchronously without URLSession.
/// For cancellation tests, `holdResponses()` keeps answers in flight until `releaseHeldResponses()`, and a request
/// whose client cancelled (or left) before its answer was delivered is logged with `wasCancelled`.
public final class Emulator<Service: EmulatedService> {
    /// Unique per instance: `https://lab-<8 hex>.<Service.hostDomain>/`.
    public let baseURL: URL
    /// Ephemeral, with `EmulatorURLProtocol` as its only protocol: every request it makes stays in-process.
    public let session: URLSession

    let host: String
    private let lock = NSLock()
    private var service: Service
    private var log: [RecordedRequest] = []
    /// Injected faults in order, each with the latency its answer overrides the emulator's with (nil: the usual).
    private var faults: [(fault: Fault, latency: TimeInterval?)] = []
    private var delay: TimeInterval = 0
    private var logLimit: Int?
    private var logByteLimit: Int?
    /// The request and response bodies the log holds, in bytes.
    private var loggedBytes = 0
    /// Numbers the log's entries, so a transport can mark one as cancelled after the log was trimmed.
    private var received = 0
    /// Set while answers are held (`holdResponses()`).
    private var gate: ResponseGate?

    public init(_ service: Service) {
        self.service = service
        host = HostRegistry.shared.reserveHost(in: Service.hostDomain)
        baseURL = URL(string: "https://\(host)/")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [EmulatorURLProtocol.self]
        // No cache: nothing the emulator answers is cached anyway, and on Linux the cache lookup sends a new task
        // through a background queue first, where a cancel right after `resume()` can crash corelibs' URLSession
        // ("a task that is not in the registry").
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        HostRegistry.shared.attach(self, to: host)
    }

    deinit { HostRegistry.shared.remove(host: host) }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Reads or changes the service's state between requests, e.g. to seed it or to assert on it.
    public func withService<T>(_ body: (inout Service) throws -> T) rethrows -> T {
        try locked { try body(&service) }
    }

    // MARK: The log and faults

    /// Every request this instance received, over either transport, in order, faulted ones included.
    public var requests: [RecordedRequest] { locked { log } }

    /// Forgets the log, e.g. after a test's setup requests.
    public func clearRequests() {
        locked {
            log.removeAll()
            loggedBytes = 0
        }
    }

    /// Queues a fault for the next request that has none yet: one fault per request, in order. With `latency`, the
    /// faulted answer waits that long instead of `latency`'s usual value: 0 with a longer usual latency sends the
    /// failure before the answers to requests sent beside it, so a client that cancels those on the failure (an
    /// `async let` left behind a `throw`) cancels them while they wait. A cancel that meets the cancelled task's own
    /// answer being delivered deadlocks `URLSession.data(for:)` on Linux up to Swift 6.3.2 (swift-corelibs-foundation
    /// #5412, fixed in 6.4): a correct client would then fail by the platform's luck.
    public func inject(_ fault: Fault, latency: TimeInterval? = nil) {
        locked { faults.append((fault, latency.map { max(0, $0) })) }
    }

    /// Drops the faults no request has taken yet (a test that injected a few for a client that may try again).
    public func clearFaults() {
        locked { faults.removeAll() }
    }

    /// Keep at least this many of the latest requests and forget older ones (nil, the default: keep all, as tests
    /// need). A long-running server (`lab serve`) sets it so memory stays bounded.
    public var keepsLatestRequests: Int? {
        get { locked { logLimit } }
        set { locked { logLimit = newValue.map { max(1, $0) } } }
    }

    /// Forget the oldest requests while the log's request and response bodies together exceed this many bytes (nil,
    /// the default: no bound); the latest request is always kept. A count alone does not bound a long-running
    /// server's memory: 1000 polls of an 8 MB database would keep 8 GB of answers.
    public var keepsLatestRequestBytes: Int? {
        get { locked { logByteLimit } }
        set {
            locked {
                logByteLimit = newValue.map { max(0, $0) }
                trimLog()
            }
        }
    }

    private static func size(of entry: RecordedRequest) -> Int {
        (entry.body?.count ?? 0) + entry.response.body.count
    }

    /// Applies both limits (under the lock).
    private func trimLog() {
        var dropped = 0
        if let limit = logLimit, log.count >= 2 * limit { dropped = log.count - limit }  // amortised: rarely
        var bytes = loggedBytes - log.prefix(dropped).reduce(0) { $0 + Self.size(of: $1) }
        if let byteLimit = logByteLimit {
            while bytes > byteLimit && dropped < log.count - 1 {
                bytes -= Self.size(of: log[dropped])
                dropped += 1
            }
        }
        if dropped > 0 { log.removeFirst(dropped) }
        loggedBytes = bytes
    }

    /// From now on, answers (to requests over either transport) wait until `releaseHeldResponses()`: a test can keep a
    /// request in flight — and cancel it — with no timing luck. The service has already answered (and changed its
    /// state); only the delivery waits.
    public func holdResponses() {
        locked { gate = gate ?? ResponseGate() }
    }

    /// Delivers every held answer (those not cancelled meanwhile) and stops holding.
    public func releaseHeldResponses() {
        holdOnlyTheResponsesSoFar().release()
    }

    /// Stops holding, but only for later requests: the answers held so far wait until the returned value's
    /// `release()`. One request stays in flight while others go through — an answer that must arrive after theirs.
    public func holdOnlyTheResponsesSoFar() -> HeldResponses {
        HeldResponses(gate: locked { () -> ResponseGate? in
            defer { gate = nil }
            return gate
        })
    }

    /// Faults injected but not yet used.
    public var pendingFaults: [Fault] { locked { faults.map(\.fault) } }

    /// Delay before every response served through `session` or a socket (not `handle(_:)`). Cancelling a task cuts
    /// it short.
    public var latency: TimeInterval {
        get { locked { delay } }
        set { locked { delay = max(0, newValue) } }
    }

    // MARK: Serving

    /// The synchronous core: answers `request` as the URLProtocol would, logs it and consumes a fault.
    /// Two things only the URLProtocol can express are reported here instead: a transport fault comes back as
    /// `statusCode == 0` with `transportError` set (the URLProtocol fails the task with it), and `latency` is
    /// not applied (the URLProtocol waits before delivering).
    public func handle(_ request: URLRequest) -> EmulatorResponse {
        process(ServiceRequest(request), over: .inProcess).reply.logged  // streams are refused in-process
    }

    /// Unregisters the host: later requests to it are stray. Also done on deinit.
    public func invalidate() {
        HostRegistry.shared.remove(host: host)
    }

    // MARK: Stray requests

    /// Requests that reached `EmulatorURLProtocol` for a host with no live emulator (say, learner code built
    /// its own URL to the real host while using our session). Each failed with `URLError(.cannotFindHost)` and never
    /// went to the network.
    public static var strayRequests: [RecordedRequest] { HostRegistry.shared.strayRequests }

    public static func resetStrayRequests() {
        HostRegistry.shared.resetStrayRequests()
    }

    // MARK: Sessions still in use

    /// How many emulators (of any service) were created so far: a mark for `sessions(createdAfter:)`.
    public static var createdCount: Int { HostRegistry.shared.reservedCount }

    /// The sessions of emulators (of any service) created after `mark` and not yet invalidated or released — where a
    /// task the learner's code left running may still be on its way.
    public static func sessions(createdAfter mark: Int) -> [URLSession] {
        HostRegistry.shared.sessions(reservedAfter: mark)
    }
}

/// How a transport reaches an emulator without knowing its service.
protocol RequestProcessing: AnyObject {
    var session: URLSession { get }
    func process(_ request: ServiceRequest, over transport: Transport) -> Processed
    /// The client went away before the answer to request `number` was delivered.
    func noteCancelled(_ number: Int)
}

/// The two ways a request arrives; only a socket can carry a stream.
enum Transport {
    case inProcess
    case socket
}

/// A service's answer with the latency to apply before delivering it, and the gate that holds it (if any).
struct Processed {
    let reply: ServiceReply
    let latency: TimeInterval
    let gate: ResponseGate?
    /// The log entry's number, for `noteCancelled`.
    let number: Int
}

extension Emulator: RequestProcessing {
    /// Answers one request and logs it, under the lock: requests are served one at a time, like a transaction.
    func process(_ request: ServiceRequest, over transport: Transport) -> Processed {
        locked {
            var reply: ServiceReply
            var latency = delay
            if faults.isEmpty {
                reply = service.respond(to: request)
            } else {
                let (fault, faultLatency) = faults.removeFirst()
                reply = .response(fault.response(from: service))
                latency = faultLatency ?? delay
            }
            if case .stream(let stream) = reply, transport == .inProcess {
                stream.cancel()
                reply = .response(service.errorResponse(status: 406, message: Self.streamingRefusal))
            }
            received += 1
            let entry = RecordedRequest(request, response: reply.logged, number: received)
            log.append(entry)
            loggedBytes += Self.size(of: entry)
            trimLog()
            return Processed(reply: reply, latency: latency, gate: gate, number: received)
        }
    }

    func noteCancelled(_ number: Int) {
        locked {
            if let index = log.lastIndex(where: { $0.number == number }) { log[index].wasCancelled = true }
        }
    }

    static var streamingRefusal: String {
        "A live stream (Accept: text/event-stream) cannot be delivered through `session`: a URLProtocol delivers "
            + "a response in one piece (on Linux only its last chunk arrives). Serve the emulator on a port with "
            + "EmulatorServer (or run `swift run lab serve`) and stream from there."
    }
}

extension ServiceReply {
    /// What the log keeps: the answer, or a stream's status and headers.
    var logged: EmulatorResponse {
        switch self {
        case .response(let response): return response
        case .stream(let stream): return EmulatorResponse(statusCode: stream.statusCode, headers: stream.headers)
        }
    }
}
