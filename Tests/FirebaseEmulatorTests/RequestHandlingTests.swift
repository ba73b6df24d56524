import XCTest
import FirebaseEmulator

/// The REST semantics through the synchronous core, `handle(_:)`.
final class RequestHandlingTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_533_713_072.088)
    private let thread = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"

    private func makeEmulator(_ database: JSONValue = .null) -> FirebaseEmulator {
        let now = self.now
        return FirebaseEmulator(database: database, clock: { now }, randomness: .seeded(1))
    }

    func test_get_emptyRoot_isExactlyNull() {
        let emulator = makeEmulator()
        let response = emulator.handle(request("GET", "/.json", on: emulator))
        XCTAssertEqual(response.statusCode, 200, "Expected 200")
        XCTAssertEqual(response.bodyText, "null", "Expected the 4 bytes null")
    }

    func test_successHeaders() {
        let emulator = makeEmulator()
        let headers = emulator.handle(request("GET", "/.json", on: emulator)).headers
        XCTAssertEqual(headers["Content-Type"], "application/json; charset=utf-8", "Expected Firebase's Content-Type")
        XCTAssertEqual(headers["Access-Control-Allow-Origin"], "*", "Expected CORS header")
        XCTAssertEqual(headers["Cache-Control"], "no-cache", "Expected no-cache")
        XCTAssertNil(headers["WWW-Authenticate"], "Expected no WWW-Authenticate, ever")
    }

    func test_trailingSlashBeforeJSON_isAccepted() {
        let emulator = makeEmulator(["users": ["jack": ["name": "Jack"]]])
        let response = emulator.handle(request("GET", "/users/jack/.json", on: emulator))
        XCTAssertEqual(response.bodyJSON, ["name": "Jack"], "Expected /users/jack/.json to read users/jack")
        XCTAssertEqual(emulator.requests.last?.path, "/users/jack", "Expected the logged path without .json")
        XCTAssertEqual(emulator.requests.last?.hasJSONSuffix, true, "Expected hasJSONSuffix")
    }

    func test_percentEncodedPath_isDecoded() {
        let emulator = makeEmulator()
        _ = emulator.handle(request("PUT", "/caf%C3%A9/a%20b.json", on: emulator, body: 1))
        XCTAssertEqual(emulator.database, ["café": ["a b": 1]], "Expected percent-decoded keys")
        XCTAssertEqual(emulator.requests.last?.path, "/café/a b", "Expected the decoded path in the log")
    }

    func test_missingJSONSuffix_is403PlainText_andNothingChanges() {
        let emulator = makeEmulator()
        let response = emulator.handle(request("PUT", "/users", on: emulator, body: ["a": 1]))
        XCTAssertEqual(response.statusCode, 403, "Expected 403 (firetest's choice)")
        XCTAssertEqual(response.bodyText, "append .json to your request URI to use the REST API.", "Expected Firebase's text")
        XCTAssertEqual(emulator.database, .null, "Expected nothing written")
        XCTAssertEqual(emulator.requests.last?.hasJSONSuffix, false, "Expected the log to show the missing suffix")
    }

    func test_put_echoesAndStores() {
        let emulator = makeEmulator()
        let body: JSONValue = ["identifier": .string(thread), "title": "REST APIs"]
        let response = emulator.handle(request("PUT", "/\(thread).json", on: emulator, body: body))
        XCTAssertEqual(response.statusCode, 200, "Expected 200")
        XCTAssertEqual(response.bodyJSON, body, "Expected the data echoed")
        XCTAssertEqual(emulator.value(at: thread), body, "Expected the data stored at the thread's key")
    }

    func test_putNull_removes() {
        let emulator = makeEmulator(["a": 1, "b": 2])
        let response = emulator.handle(request("PUT", "/a.json", on: emulator, body: .null))
        XCTAssertEqual(response.bodyText, "null", "Expected null echoed")
        XCTAssertEqual(emulator.database, ["b": 2], "Expected a removed")
    }

    func test_post_storesUnderNewPushID_andAnswersItsName() throws {
        let emulator = FirebaseEmulator(clock: { self.now }, randomness: .characters("eL4bwG1qpwYB"))
        let message: JSONValue = ["sender": "Spencer", "text": "Hi"]
        let response = emulator.handle(request("POST", "/\(thread)/messages.json", on: emulator, body: message))
        XCTAssertEqual(response.bodyJSON, ["name": "-LJNQ2zNeL4bwG1qpwYB"], "Expected the push ID as name")
        XCTAssertEqual(emulator.value(at: "\(thread)/messages/-LJNQ2zNeL4bwG1qpwYB"), message, "Expected the message stored")
        let second = emulator.handle(request("POST", "/\(thread)/messages.json", on: emulator, body: message))
        let secondName = try XCTUnwrap(second.bodyJSON?["name"].stringValue, "Expected a name")
        XCTAssertGreaterThan(secondName, "-LJNQ2zNeL4bwG1qpwYB", "Expected the second ID to sort after the first")
        XCTAssertEqual(emulator.value(at: "\(thread)/messages").objectValue?.count, 2, "Expected two messages keyed by push ID")
    }

    func test_patch_updatesNamedChildren_multiPath_andNullDeletes() {
        let emulator = makeEmulator(["u": ["first": "Jack", "last": "Sparrow", "age": 40, "pets": ["cat": "Tom"]]])
        let body: JSONValue = ["last": "Jones", "age": nil, "pets/dog": "Rex"]
        let response = emulator.handle(request("PATCH", "/u.json", on: emulator, body: body))
        XCTAssertEqual(response.bodyJSON, body, "Expected the request body echoed")
        XCTAssertEqual(emulator.value(at: "u"), ["first": "Jack", "last": "Jones", "pets": ["cat": "Tom", "dog": "Rex"]],
                       "Expected named children replaced, others kept, null deleted, a/b written deep")
    }

    func test_patch_nonObjectBody_isRefused() {
        let emulator = makeEmulator(["a": 1])
        let response = emulator.handle(request("PATCH", "/.json", on: emulator, body: [1, 2]))
        XCTAssertEqual(response.statusCode, 400, "Expected PATCH to need an object")
        XCTAssertEqual(emulator.database, ["a": 1], "Expected nothing changed")
    }

    func test_delete_answersNull() {
        let emulator = makeEmulator(["a": ["b": 1]])
        let response = emulator.handle(request("DELETE", "/a.json", on: emulator))
        XCTAssertEqual(response.statusCode, 200, "Expected 200")
        XCTAssertEqual(response.bodyText, "null", "Expected null")
        XCTAssertEqual(emulator.database, .null, "Expected the data gone")
    }

    func test_printSilent_is204Empty_andStillWrites() {
        for method in ["PUT", "POST", "PATCH", "GET"] {
            let emulator = makeEmulator(["x": 0])
            let response = emulator.handle(request(method, "/x.json?print=silent", on: emulator, body: method == "PATCH" ? ["y": 1] : 1))
            XCTAssertEqual(response.statusCode, 204, "Expected 204 for \(method) with print=silent")
            XCTAssertTrue(response.body.isEmpty, "Expected no body for \(method) with print=silent")
            if method != "GET" {
                XCTAssertNotEqual(emulator.database, ["x": 0], "Expected \(method) with print=silent to still write")
            }
        }
    }

    func test_answersWritesSilently_isPrintSilentForWritesOnly() {
        for method in ["PUT", "POST", "PATCH", "DELETE", "GET"] {
            let emulator = makeEmulator(["x": 0])
            emulator.withService { $0.answersWritesSilently = true }
            let response = emulator.handle(request(method, "/x.json", on: emulator, body: method == "PATCH" ? ["y": 1] : 1))
            XCTAssertEqual(response.statusCode, method == "GET" ? 200 : 204, "Expected \(method) answered as with print=silent only when it writes")
            if method != "GET" {
                XCTAssertTrue(response.body.isEmpty, "Expected no body for \(method)")
                XCTAssertNotEqual(emulator.database, ["x": 0], "Expected \(method) to still write")
            }
        }
    }

    func test_printPretty() {
        let emulator = makeEmulator(["a": ["b": 1]])
        let response = emulator.handle(request("GET", "/.json?print=pretty", on: emulator))
        XCTAssertEqual(response.bodyText, "{\n  \"a\" : {\n    \"b\" : 1\n  }\n}\n", "Expected pretty output")
    }

    func test_methodOverride_headerAndQuery() {
        let emulator = makeEmulator(["a": 1, "b": 2, "c": 3])
        _ = emulator.handle(request("POST", "/a.json", on: emulator, headers: ["X-HTTP-Method-Override": "DELETE"]))
        _ = emulator.handle(request("POST", "/b.json?x-http-method-override=PUT", on: emulator, body: 20))
        _ = emulator.handle(request("POST", "/c.json", on: emulator, body: ["d": 4], headers: ["x-http-method-override": "patch"]))
        XCTAssertEqual(emulator.database, ["b": 20, "c": ["d": 4]], "Expected DELETE, PUT and PATCH by override")
        XCTAssertEqual(emulator.requests.map(\.method), ["DELETE", "PUT", "PATCH"], "Expected effective methods in the log")
        XCTAssertEqual(emulator.requests.map(\.httpMethod), ["POST", "POST", "POST"], "Expected the sent method in the log")
    }

    func test_head_isGetWithoutBody() {
        let emulator = makeEmulator(["a": 1])
        let response = emulator.handle(request("HEAD", "/a.json", on: emulator))
        XCTAssertEqual(response.statusCode, 200, "Expected 200")
        XCTAssertTrue(response.body.isEmpty, "Expected no body")
    }

    func test_unknownMethod_is405() {
        let emulator = makeEmulator()
        for method in ["TRACE", "FOO"] {
            let response = emulator.handle(request(method, "/.json", on: emulator))
            XCTAssertEqual(response.statusCode, 405, "Expected 405 for \(method)")
            XCTAssertEqual(response.bodyJSON, ["error": .string("Method not allowed: \(method)")], "Expected a Firebase-style error")
        }
    }

    func test_serverValues_timestampAndIncrement() {
        let emulator = makeEmulator(["count": 5])
        _ = emulator.handle(request("PATCH", "/.json", on: emulator, body: [
            "seen": [".sv": "timestamp"], "count": [".sv": ["increment": 2]], "fresh": [".sv": ["increment": 1.5]],
        ]))
        XCTAssertEqual(emulator.database, ["seen": 1_533_713_072_088, "count": 7, "fresh": 1.5],
                       "Expected the clock's milliseconds and increments applied")
    }

    func test_unknownServerValue_is400() {
        let emulator = makeEmulator()
        for body: JSONValue in [[".sv": "now"], ["a": [".sv": "timestamp", "b": 1]], [".sv": ["increment": "1"]]] {
            let response = emulator.handle(request("PUT", "/x.json", on: emulator, body: body))
            XCTAssertEqual(response.statusCode, 400, "Expected 400 for \(body)")
        }
        XCTAssertEqual(emulator.database, .null, "Expected nothing written")
    }

    /// The sum was stored as infinity: the PUT answered `null`, reads showed `null`, and `shallow` still listed the key.
    func test_anIncrementPastADoublesRange_is400_andChangesNothing() {
        let emulator = makeEmulator(["big": 1.7e308])
        let response = emulator.handle(request("PUT", "/big.json", on: emulator, body: [".sv": ["increment": 1.7e308]]))
        XCTAssertEqual(response.statusCode, 400, "Expected 400 for an increment whose sum is beyond a Double")
        XCTAssertEqual(response.bodyJSON, ["error": .string("Invalid data; the increment's result is beyond the range of a number.")])
        XCTAssertEqual(emulator.database, ["big": 1.7e308], "Expected the stored number unchanged")
    }

    func test_shallow_replacesChildrenByTrue() {
        let emulator = makeEmulator(["a": ["b": ["c": 1]], "d": 2])
        let response = emulator.handle(request("GET", "/.json?shallow=true", on: emulator))
        XCTAssertEqual(response.bodyJSON, ["a": true, "d": true], "Expected each child as true")
    }

    func test_requestLog_recordsEverything() throws {
        let emulator = makeEmulator()
        _ = emulator.handle(request("PUT", "/a.json?print=silent&auth=token", on: emulator, body: ["t": "x"],
                                    headers: ["Content-Type": "application/json"]))
        let logged = try XCTUnwrap(emulator.requests.first, "Expected one logged request")
        XCTAssertEqual(logged.method, "PUT", "Expected the method")
        XCTAssertEqual(logged.path, "/a", "Expected the path without .json")
        XCTAssertEqual(logged.query, ["print": "silent", "auth": "token"], "Expected the query")
        XCTAssertEqual(logged.header("content-type"), "application/json", "Expected headers, case-insensitive")
        XCTAssertEqual(logged.bodyJSON, ["t": "x"], "Expected the body as JSON")
        XCTAssertEqual(logged.response.statusCode, 204, "Expected the response logged")
        XCTAssertEqual(logged.summary, #"PUT /a.json?print=silent&auth=token  body: {"t":"x"}  -> 204"#, "Expected a one-line summary")
        emulator.clearRequests()
        XCTAssertTrue(emulator.requests.isEmpty, "Expected clearRequests to empty the log")
    }

    func test_rootPath_isSlash() {
        let emulator = makeEmulator()
        _ = emulator.handle(request("GET", "/.json", on: emulator))
        XCTAssertEqual(emulator.requests.first?.path, "/", "Expected / for the root")
    }
}
