import XCTest
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Emulators do not see each other's requests, and nothing ever leaves the process.
final class IsolationTests: XCTestCase {
    func test_twoEmulators_areIsolated() throws {
        let a = FirebaseEmulator(), b = FirebaseEmulator()
        _ = try XCTUnwrap(run(request("PUT", "/who.json", on: a, body: "a"), on: a.session))
        _ = try XCTUnwrap(run(request("PUT", "/who.json", on: b, body: "b"), on: a.session))  // b's host through a's session
        XCTAssertEqual(a.database, ["who": "a"], "Expected a to hold only its own write")
        XCTAssertEqual(b.database, ["who": "b"], "Expected the request routed by host to b")
        XCTAssertEqual(a.requests.count, 1, "Expected one request in a's log")
        XCTAssertEqual(b.requests.count, 1, "Expected one request in b's log")
    }

    func test_strayHost_failsWithCannotFindHost_andIsRecorded() throws {
        FirebaseEmulator.resetStrayRequests()
        let emulator = FirebaseEmulator()
        let url = URL(string: "https://real-project.firebaseio.com/threads.json")!
        let outcome = try XCTUnwrap(run(URLRequest(url: url), on: emulator.session))
        XCTAssertEqual(outcome.urlError?.code, .cannotFindHost, "Expected URLError.cannotFindHost for an unknown host")
        XCTAssertTrue(emulator.requests.isEmpty, "Expected the emulator not to log another host's request")
        let stray = FirebaseEmulator.strayRequests.filter { $0.url == url }
        XCTAssertEqual(stray.count, 1, "Expected the request recorded as stray")
        XCTAssertEqual(stray.first?.path, "/threads", "Expected the stray's path")
        FirebaseEmulator.resetStrayRequests()
        XCTAssertTrue(FirebaseEmulator.strayRequests.filter { $0.url == url }.isEmpty, "Expected reset to clear strays")
    }

    func test_invalidate_makesTheHostStray() throws {
        let emulator = FirebaseEmulator()
        let session = emulator.session
        let urlRequest = request("GET", "/.json", on: emulator)
        emulator.invalidate()
        let outcome = try XCTUnwrap(run(urlRequest, on: session))
        XCTAssertEqual(outcome.urlError?.code, .cannotFindHost, "Expected an invalidated emulator's host to be unknown")
        XCTAssertTrue(emulator.requests.isEmpty, "Expected nothing logged after invalidate")
    }

    func test_deinit_unregisters() throws {
        var emulator: FirebaseEmulator? = FirebaseEmulator()
        let session = emulator!.session
        let urlRequest = request("GET", "/.json", on: emulator!)
        emulator = nil
        let outcome = try XCTUnwrap(run(urlRequest, on: session))
        XCTAssertEqual(outcome.urlError?.code, .cannotFindHost, "Expected a released emulator's host to be unknown")
    }

    func test_nonHTTPScheme_isNotClaimed() {
        XCTAssertFalse(EmulatorURLProtocol.canInit(with: URLRequest(url: URL(string: "file:///tmp/x")!)),
                       "Expected only http(s) to be claimed")
        XCTAssertTrue(EmulatorURLProtocol.canInit(with: URLRequest(url: URL(string: "http://example.invalid/")!)),
                      "Expected http to be claimed")
    }
}
