import XCTest
import ChatCaveEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP Basic on every request; what the recorded session cannot show (a URL with credentials in it only reaches
/// the URLProtocol transport: over a socket, clients move them into a header or drop them).
final class AuthenticationTests: XCTestCase {
    func test_credentialsInTheURL_areRefused() throws {
        let emulator = ChatCaveEmulator()
        var components = URLComponents(url: emulator.baseURL.appendingPathComponent("rooms"), resolvingAgainstBaseURL: false)!
        components.user = "ada"
        components.password = "lovelace"
        let fetched = try XCTUnwrap(fetch(URLRequest(url: components.url!), on: emulator.session))
        XCTAssertEqual(fetched.response?.statusCode, 401)
        XCTAssertNil(fetched.response?.value(forHTTPHeaderField: "WWW-Authenticate"))
    }

    func test_everyResource_needsCredentials() throws {
        let emulator = ChatCaveEmulator()
        emulator.seedRoom(named: "Swift", by: "ada", chatters: ["ada"])
        for (method, path) in [("GET", "rooms"), ("POST", "rooms"), ("GET", "rooms/1"), ("DELETE", "rooms/1"),
                               ("GET", "rooms/1/chatters"), ("PUT", "rooms/1/chatters/ada"), ("DELETE", "rooms/1/chatters/ada"),
                               ("GET", "rooms/1/messages"), ("POST", "rooms/1/messages"), ("GET", "nowhere")] {
            var request = URLRequest(url: emulator.baseURL.appendingPathComponent(path))
            request.httpMethod = method
            let fetched = fetch(request, on: emulator.session)
            XCTAssertEqual(fetched?.response?.statusCode, 401, "\(method) /\(path) without credentials")
        }
        XCTAssertEqual(emulator.rooms.count, 1, "Expected refused requests to change nothing")
    }
}
