import XCTest
import EmulatorCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tiny service in the shape the kit's other services take (`/counter`: GET reads, POST adds one), to show that
/// the core serves any `EmulatedService` with the same log, faults and refusals.
struct CounterService: EmulatedService {
    static let hostDomain = "counter.invalid"
    var count = 0
    var listeners: [EventStream] = []

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        guard request.path == "/counter" else { return .response(errorResponse(status: 404, message: "no such resource")) }
        if request.header("Accept") == "text/event-stream" {
            let stream = EventStream(headers: ["Content-Type": "text/event-stream"])
            stream.send(Data("\(count)\n".utf8))
            listeners.append(stream)
            return .stream(stream)
        }
        if request.method == "POST" {
            count += 1
            listeners.removeAll { $0.isCancelled }
            for listener in listeners { listener.send(Data("\(count)\n".utf8)) }
        }
        return .response(.raw(status: 200, headers: jsonHeaders, body: JSONValue.number(Double(count)).jsonData))
    }
}

final class ServiceOnTheCoreTests: XCTestCase {
    private func request(_ method: String, _ path: String, on emulator: Emulator<CounterService>,
                         headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: emulator.baseURL.appendingPathComponent(path))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func test_aService_isAnsweredAndLogged() {
        let emulator = Emulator(CounterService())
        XCTAssertTrue(emulator.baseURL.host?.hasSuffix(".counter.invalid") == true, "Expected a host in the service's domain")
        XCTAssertEqual(emulator.handle(request("POST", "counter", on: emulator)).bodyJSON, 1, "Expected the POST to count")
        XCTAssertEqual(emulator.handle(request("GET", "counter", on: emulator)).bodyJSON, 1, "Expected the GET to read")
        XCTAssertEqual(emulator.requests.map(\.method), ["POST", "GET"], "Expected both requests in the log")
        XCTAssertEqual(emulator.withService { $0.count }, 1, "Expected the state to be readable between requests")
    }

    func test_anInjectedHTTPError_usesTheServicesErrorBody() {
        let emulator = Emulator(CounterService())
        emulator.inject(.httpError(status: 503, message: "down"))
        let response = emulator.handle(request("POST", "counter", on: emulator))
        XCTAssertEqual(response.statusCode, 503, "Expected the injected status")
        XCTAssertEqual(response.bodyJSON, ["error": "down"], "Expected the default error body")
        XCTAssertEqual(emulator.withService { $0.count }, 0, "Expected a faulted request not to reach the service")
    }

    func test_aStream_isRefusedInProcess_withAMessageNamingTheSocketServer() {
        let emulator = Emulator(CounterService())
        let response = emulator.handle(request("GET", "counter", on: emulator, headers: ["Accept": "text/event-stream"]))
        XCTAssertEqual(response.statusCode, 406, "Expected streaming to be refused in-process")
        XCTAssertTrue(response.bodyText?.contains("EmulatorServer") == true, "Expected the refusal to say where streams work: \(response.bodyText ?? "")")
        XCTAssertTrue(emulator.withService { $0.listeners.allSatisfy(\.isCancelled) }, "Expected the refused stream to be cancelled")
    }
}

extension ServiceOnTheCoreTests {
    func test_aLogLimit_keepsTheLatestRequests_andBoundsMemory() {
        let emulator = Emulator(CounterService())
        emulator.keepsLatestRequests = 10
        for _ in 0..<35 { _ = emulator.handle(URLRequest(url: emulator.baseURL.appendingPathComponent("counter"))) }
        XCTAssertTrue((10..<20).contains(emulator.requests.count), "Expected between 10 and 19 requests kept, got \(emulator.requests.count)")
    }

    /// A count alone let `lab serve` keep 1000+ answers of any size: 300 GETs of an 8 MB database grew it to 2.4 GB.
    func test_aLogByteLimit_forgetsTheOldestBodies_andKeepsTheLatest() {
        let emulator = Emulator(CounterService())
        emulator.keepsLatestRequests = 1000
        emulator.keepsLatestRequestBytes = 3500
        for index in 0..<20 {
            var post = request("POST", "counter", on: emulator)
            post.httpBody = Data(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: 1000)
            _ = emulator.handle(post)
        }
        let kept = emulator.requests
        let bytes = kept.reduce(0) { $0 + ($1.body?.count ?? 0) + $1.response.body.count }
        XCTAssertLessThanOrEqual(bytes, 3500, "Expected the log's bodies to stay within 3500 bytes; \(kept.count) requests hold \(bytes)")
        XCTAssertEqual(kept.count, 3, "Expected the 3 latest requests (1000-byte bodies) to fit in 3500 bytes")
        XCTAssertEqual(kept.last?.body?.first, UInt8(ascii: "a") + 19, "Expected the latest request to be kept")

        var huge = request("POST", "counter", on: emulator)
        huge.httpBody = Data(count: 10_000)
        _ = emulator.handle(huge)
        XCTAssertEqual(emulator.requests.count, 1, "Expected a request larger than the bound to be kept alone (the latest is always kept)")
        emulator.clearRequests()
        _ = emulator.handle(request("GET", "counter", on: emulator))
        XCTAssertEqual(emulator.requests.count, 1, "Expected clearRequests() to reset what the bound counts")
    }
}
