import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// When new rules no longer allow a stream's read, it gets `cancel` with data null and ends
/// [REF "Streaming": https://firebase.google.com/docs/reference/rest/database#section-streaming].
final class StreamCancelTests: XCTestCase {
    private let open = #"{"rules": {".read": true, ".write": true}}"#
    private let closed = #"{"rules": {".read": "auth != null", ".write": true}}"#

    private func openStream(_ target: String, on server: EmulatorServer) throws -> EventStreamReader {
        let connection = try connect(to: server)
        connection.send("GET", target, headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try connection.readHead().status, 200, "setup: expected the stream of \(target) to open")
        let events = EventStreamReader(connection)
        XCTAssertEqual(try events.next().name, "put", "setup: expected the first put")
        return events
    }

    func test_rulesThatNoLongerAllowTheRead_cancelTheStream_othersKeepIt() throws {
        let emulator = try self.emulator(rules: open)
        let server = try serve(emulator)
        let signedOut = try openStream("/.json", on: server)
        let user = try openStream("/.json?auth=\(idToken(uid: "ada"))", on: server)
        let owner = try openStream("/.json?auth=owner", on: server)

        try emulator.setRules(closed)
        let ending = try signedOut.next(timeout: 4)
        XCTAssertEqual(ending.name, "cancel", "Expected cancel when the rules stop the read. See \(RulesDocs.streaming)")
        XCTAssertEqual(ending.data, "null", "Expected null as cancel's data. See \(RulesDocs.streaming)")
        XCTAssertThrowsError(try signedOut.next(timeout: 1), "Expected the stream to end after cancel")

        try write("PUT", "/a.json", 1, on: try connect(to: server))
        XCTAssertEqual(try user.next(timeout: 4).name, "put", "Expected a signed-in reader's stream kept")
        XCTAssertEqual(try owner.next(timeout: 4).name, "put", "Expected the owner's stream kept")
    }

    func test_rulesPutOverREST_cancelTheStreamsOfTheirNamespace() throws {
        let emulator = FirebaseEmulator()
        let server = try serve(emulator)
        let named = try openStream("/.json?ns=db", on: server)
        let other = try openStream("/.json", on: server)
        let admin = try connect(to: server)
        admin.send("PUT", "/.settings/rules.json?ns=db", body: Data(closed.utf8), headers: ["Authorization": "Bearer owner"])
        XCTAssertEqual(try admin.readResponse().status, 200, "setup: expected the rules loaded")
        XCTAssertEqual(try named.next(timeout: 4).name, "cancel", "Expected cancel on ns=db. See \(RulesDocs.streaming)")
        try write("PUT", "/a.json", 1, on: admin)
        XCTAssertEqual(try other.next(timeout: 4).name, "put", "Expected the default database's stream kept")
    }
}
