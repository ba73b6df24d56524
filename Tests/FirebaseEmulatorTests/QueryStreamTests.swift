import XCTest
import FirebaseEmulator
import EmulatorTestSupport

/// A stream of a query [REF "Streaming": https://firebase.google.com/docs/reference/rest/database, and RETR
/// "Filtering Data"]: the first `put` is the query's result; later events keep the client's view equal to it.
final class QueryStreamTests: XCTestCase {
    func test_aQueryStream_sendsTheWindow_thenWhatEntersAndLeavesIt() throws {
        let emulator = FirebaseEmulator(database: ["scores": ["a": 10, "b": 20, "c": 30]])
        emulator.queryIndexes = try QueryIndexes(rules: ["rules": ["scores": [".indexOn": ".value"]]])
        let server = try serve(emulator)
        let connection = try connect(to: server)
        connection.send("GET", "/scores.json?orderBy=%22$value%22&limitToLast=2", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(try connection.readHead().status, 200, "setup: expected the query's stream to open")
        let events = EventStreamReader(connection)
        XCTAssertEqual(try events.next().data, #"{"path":"/","data":{"b":20,"c":30}}"#,
                       "Expected the first put to be the query's result, not the whole location")
        let writer = try connect(to: server)
        try write("PUT", "/scores/d.json", 40, on: writer)
        var view: [String: JSONValue] = ["b": 20, "c": 30]
        for _ in 0..<2 {  // d enters, b leaves: one put each, in either order
            let event = try JSONValue(data: Data(try events.next().data.utf8))
            let key = String(event["path"].stringValue?.dropFirst() ?? "")
            if event["data"] == .null { view.removeValue(forKey: key) } else { view[key] = event["data"] }
        }
        XCTAssertEqual(view, ["c": 30, "d": 40], "Expected the client's view to equal the query's new result")
        try write("PUT", "/scores/a.json", 11, on: writer)
        XCTAssertThrowsError(try events.next(timeout: 0.3), "Expected no event for a change outside the window")
    }
}
