import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-memory Firebase Realtime Database with the real REST semantics, served through a URLSession.
///
/// Give learner code `baseURL` and `session`; then assert on `requests` and `database`. Like SwiftNIO's
/// EmbeddedChannel, `handle(_:)` drives the same core synchronously without URLSession.
/// Thread-safe: requests arrive on URLSession's queues while tests read the log and the tree.
public final class FirebaseEmulator {
    /// Unique per instance: `https://lab-<8 hex>.firebaseio.invalid/`.
    public let baseURL: URL
    /// Ephemeral, with `EmulatorURLProtocol` as its only protocol: every request it makes stays in-process.
    public let session: URLSession

    private let host: String
    private let lock = NSLock()
    private var state: EmulatorState
    private var log: [RecordedRequest] = []
    private var faults: [Fault] = []
    private var delay: TimeInterval = 0

    public init(
        database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
        randomness: PushIDGenerator.Randomness = .system
    ) {
        host = Registry.shared.reserveHost()
        baseURL = URL(string: "https://\(host)/")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [EmulatorURLProtocol.self]
        session = URLSession(configuration: configuration)
        state = EmulatorState(
            tree: DataTree(database), pushIDs: PushIDGenerator(clock: clock, randomness: randomness), clock: clock)
        Registry.shared.attach(self, to: host)
    }

    /// Starts from a Firebase JSON export (the console's "Export JSON"), e.g. Fixtures/databases/*.json.
    public convenience init(
        databaseExport url: URL, clock: @escaping () -> Date = { Date() },
        randomness: PushIDGenerator.Randomness = .system
    ) throws {
        self.init(database: try DatabaseExportError.load(url), clock: clock, randomness: randomness)
    }

    deinit { Registry.shared.remove(host: host) }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: The data

    /// The whole tree as `GET /.json` returns it (arrays reconstructed); `.null` when empty.
    public var database: JSONValue { locked { state.tree.read(at: []) } }

    /// The value at a path like "/a/b" or "a/b", as a GET would return it; `.null` when missing.
    public func value(at path: String) -> JSONValue {
        let segments = path.split(separator: "/").map(String.init)
        return locked { state.tree.read(at: segments) }
    }

    /// Replaces the whole tree (arrays, nulls and empty objects are stored the way a PUT would store them).
    public func load(_ database: JSONValue) {
        locked { state.tree = DataTree(database) }
    }

    // MARK: The log and faults

    /// Every request this instance received, in order, faulted ones included.
    public var requests: [RecordedRequest] { locked { log } }

    /// Forgets the log, e.g. after a test's setup requests.
    public func clearRequests() {
        locked { log.removeAll() }
    }

    /// Queues a fault for the next request that has none yet: one fault per request, in order.
    public func inject(_ fault: Fault) {
        locked { faults.append(fault) }
    }

    /// Faults injected but not yet used.
    public var pendingFaults: [Fault] { locked { faults } }

    /// Delay before every response served through `session` (not `handle(_:)`). Cancelling a task cuts it short.
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
        process(IncomingRequest(request)).response
    }

    /// Answers one request and logs it, under the lock: requests are served one at a time, like a transaction.
    func process(_ request: IncomingRequest) -> (response: EmulatorResponse, latency: TimeInterval) {
        locked {
            let response: EmulatorResponse
            if faults.isEmpty {
                response = RequestHandler.respond(to: request, state: &state)
            } else {
                response = faults.removeFirst().response
            }
            log.append(RecordedRequest(request, response: response))
            return (response, delay)
        }
    }

    /// Unregisters the host: later requests to it are stray. Also done on deinit.
    public func invalidate() {
        Registry.shared.remove(host: host)
    }

    // MARK: Stray requests

    /// Requests that reached `EmulatorURLProtocol` for a host with no live emulator (say, learner code built
    /// its own URL to the real Firebase host while using our session). Each failed with
    /// `URLError(.cannotFindHost)` and never went to the network.
    public static var strayRequests: [RecordedRequest] { Registry.shared.strayRequests }

    public static func resetStrayRequests() {
        Registry.shared.resetStrayRequests()
    }
}

/// A database export that cannot be loaded, naming the file and the problem.
public struct DatabaseExportError: Error, CustomStringConvertible, LocalizedError {
    public let file: URL
    public let reason: String

    public var description: String { "Cannot load the database export \(file.path): \(reason)" }
    public var errorDescription: String? { description }

    static func load(_ url: URL) throws -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DatabaseExportError(file: url, reason: "the file cannot be read (\(error.localizedDescription))")
        }
        do {
            return try JSONValue(data: data)
        } catch {
            throw DatabaseExportError(file: url, reason: "it is not valid JSON: \(error)")
        }
    }
}
