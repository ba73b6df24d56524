import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Registered for `URLSession.shared`: catches a request sent through it instead of the injected session, records
/// it so the test can say so, and fails it at once — it never reaches the network.
/// (On Linux a registered class reaches `URLSession.shared` only if registered before the first session is made, so
/// `LabTestCase` installs it in its class `setUp`.)
final class SessionTripwire: URLProtocol {
    private static let lock = NSLock()
    private static var installed = false
    private static var caught: [URLRequest] = []

    static func install() {
        lock.lock(); defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        _ = URLProtocol.registerClass(SessionTripwire.self)
    }

    /// Requests that went through a session other than an emulator's, since the last `reset()`.
    static var requests: [URLRequest] {
        lock.lock(); defer { lock.unlock() }
        return caught
    }

    static func reset() {
        lock.lock(); defer { lock.unlock() }
        caught.removeAll()
    }

    override class func canInit(with request: URLRequest) -> Bool {
        ["http", "https"].contains(request.url?.scheme?.lowercased() ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        Self.lock.lock()
        Self.caught.append(request)
        Self.lock.unlock()
        client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
    }

    override func stopLoading() {}
}

extension LabTestCase {
    /// Requests sent through `URLSession.shared` in this test, for suites whose server is not a `FirebaseEmulator`.
    public static var requestsThroughSharedSession: [URLRequest] { SessionTripwire.requests }
}
