import XCTest
import FirebaseEmulator

/// Conditional requests [REF "Conditional Requests": https://firebase.google.com/docs/reference/rest/database;
/// https://firebase.blog/posts/2017/07/introducing-conditional-rest-requests].
final class ConditionalRequestTests: XCTestCase {
    static let docs = "https://firebase.google.com/docs/reference/rest/database#section-conditional-requests"

    private func etag(of path: String, on emulator: FirebaseEmulator) throws -> String {
        let response = emulator.handle(request("GET", path, on: emulator, headers: ["X-Firebase-ETag": "true"]))
        return try XCTUnwrap(response.headers["ETag"], "setup: expected an ETag header (\(Self.docs))")
    }

    func test_getWithXFirebaseETag_answersAnETagHeader() throws {
        let emulator = FirebaseEmulator(database: ["posts": ["a": 1]])
        let tag = try etag(of: "/posts.json", on: emulator)
        XCTAssertFalse(tag.isEmpty, "Expected a non-empty ETag (\(Self.docs))")
        XCTAssertNil(emulator.handle(request("GET", "/posts.json", on: emulator)).headers["ETag"],
                     "Expected no ETag unless asked for with X-Firebase-ETag: true")
        XCTAssertEqual(try etag(of: "/nothing.json", on: emulator), "null_etag", "Expected null_etag for an empty location (\(Self.docs))")
    }

    func test_putWithTheCurrentETag_writes() throws {
        let emulator = FirebaseEmulator(database: ["counter": 1])
        let tag = try etag(of: "/counter.json", on: emulator)
        let response = emulator.handle(request("PUT", "/counter.json", on: emulator, body: 2, headers: ["if-match": tag]))
        XCTAssertEqual(response.statusCode, 200, "Expected the write with a matching if-match (\(Self.docs))")
        XCTAssertEqual(emulator.value(at: "counter"), 2, "Expected the value written")
    }

    func test_putWithAStaleETag_is412_withTheCurrentValueAndETag() throws {
        let emulator = FirebaseEmulator(database: ["counter": 1])
        let stale = try etag(of: "/counter.json", on: emulator)
        _ = emulator.handle(request("PUT", "/counter.json", on: emulator, body: 5))
        let current = try etag(of: "/counter.json", on: emulator)
        let response = emulator.handle(request("PUT", "/counter.json", on: emulator, body: 2, headers: ["if-match": stale]))
        XCTAssertEqual(response.statusCode, 412, "Expected 412 Precondition Failed (\(Self.docs))")
        XCTAssertEqual(response.bodyJSON, 5, "Expected the current value as the body (\(Self.docs))")
        XCTAssertEqual(response.headers["ETag"], current, "Expected the current ETag in the header (\(Self.docs))")
        XCTAssertEqual(emulator.value(at: "counter"), 5, "Expected nothing written")
    }

    func test_nullETag_matchesOnlyAnEmptyLocation() {
        let emulator = FirebaseEmulator(database: ["taken": true])
        let create = emulator.handle(request("PUT", "/free.json", on: emulator, body: 1, headers: ["if-match": "null_etag"]))
        XCTAssertEqual(create.statusCode, 200, "Expected null_etag to match a missing value (\(Self.docs))")
        let clash = emulator.handle(request("PUT", "/taken.json", on: emulator, body: 1, headers: ["if-match": "null_etag"]))
        XCTAssertEqual(clash.statusCode, 412, "Expected null_etag to fail on an existing value (\(Self.docs))")
        XCTAssertEqual(emulator.value(at: "taken"), true, "Expected the existing value kept")
    }

    func test_deleteWithAStaleETag_is412() throws {
        let emulator = FirebaseEmulator(database: ["a": 1])
        let response = emulator.handle(request("DELETE", "/a.json", on: emulator, headers: ["if-match": "null_etag"]))
        XCTAssertEqual(response.statusCode, 412, "Expected a conditional DELETE refused when the ETag is stale (\(Self.docs))")
        let tag = try etag(of: "/a.json", on: emulator)
        XCTAssertEqual(emulator.handle(request("DELETE", "/a.json", on: emulator, headers: ["if-match": tag])).statusCode, 200,
                       "Expected the DELETE with the current ETag to succeed")
        XCTAssertEqual(emulator.database, .null, "Expected the value deleted")
    }

    func test_getWithIfNoneMatch_isNotModified() throws {
        let emulator = FirebaseEmulator(database: ["a": 1])
        let tag = try etag(of: "/a.json", on: emulator)
        XCTAssertEqual(emulator.handle(request("GET", "/a.json", on: emulator, headers: ["if-none-match": tag])).statusCode, 304,
                       "Expected 304 when the ETag still matches (firebase-admin-python's live tests)")
    }
}
