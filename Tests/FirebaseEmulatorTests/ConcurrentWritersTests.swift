import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// Many clients writing at once over the socket server lose no write: the database ends holding exactly what was sent.
final class ConcurrentWritersTests: XCTestCase {
    func test_clientsTimesPUTsAndPOSTs_allLand() throws {
        let emulator = FirebaseEmulator()
        let server = try serve(emulator)
        let clients = 8, writes = 40
        let failures = LockedList()
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            guard let connection = LoopbackConnection(port: server.port) else {
                failures.append("client \(client) could not connect")
                return
            }
            for index in 0..<writes {
                connection.send("PUT", "/puts/c\(client)/i\(index).json", body: Data("\(index)".utf8))
                connection.send("POST", "/posts/c\(client).json", body: Data(#"{"i":\#(index)}"#.utf8))
                for method in ["PUT", "POST"] {
                    let status = (try? connection.readResponse().status) ?? 0
                    if status != 200 { failures.append("client \(client) \(method) \(index) answered \(status)") }
                }
            }
        }
        XCTAssertEqual(failures.items, [], "Expected every write to be answered 200")
        for client in 0..<clients {
            let puts = emulator.value(at: "/puts/c\(client)")
            XCTAssertEqual(puts, .object(Dictionary(uniqueKeysWithValues: (0..<writes).map { ("i\($0)", JSONValue.number(Double($0))) })),
                           "Expected client \(client)'s \(writes) PUTs, each at its own key")
            let posted = emulator.value(at: "/posts/c\(client)").objectValue ?? [:]
            XCTAssertEqual(posted.values.compactMap { $0["i"].numberValue }.sorted(), (0..<writes).map(Double.init),
                           "Expected client \(client)'s \(writes) POSTs, each under its own push ID")
        }
        XCTAssertEqual(emulator.requests.count, clients * writes * 2, "Expected every request in the log once")
    }
}

/// Strings appended from several threads.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ item: String) { lock.lock(); stored.append(item); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
