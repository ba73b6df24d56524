import XCTest
import ChatCaveEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a data task ended with.
struct Fetched {
    let data: Data?
    let response: HTTPURLResponse?
    let error: Error?
}

extension XCTestCase {
    /// Runs `request` on `session` and waits (up to 2 s) for its completion; nil when it never came.
    func fetch(_ request: URLRequest, on session: URLSession) -> Fetched? {
        let fetched = Locked<Fetched?>(nil)
        session.dataTask(with: request) { data, response, error in
            fetched.value = Fetched(data: data, response: response as? HTTPURLResponse, error: error)
        }.resume()
        _ = eventually { fetched.value != nil }
        return fetched.value
    }

    /// `emulator` served on a free port of 127.0.0.1, stopped when the test ends.
    func serve(_ emulator: ChatCaveEmulator) throws -> EmulatorServer {
        let server = EmulatorServer(serving: emulator)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }
}
