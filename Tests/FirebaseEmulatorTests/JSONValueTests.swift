import XCTest
import FirebaseEmulator

final class JSONValueTests: XCTestCase {
    func test_parse_allKindsOfValues() throws {
        let value = try JSONValue(data: Data(#"{"a": [1, 2.5, -3e2], "b": true, "c": null, "d": "x\n\u00e9\ud83d\ude00"}"#.utf8))
        XCTAssertEqual(value, ["a": [1, 2.5, -300], "b": true, "c": nil, "d": "x\né😀"], "Expected every JSON kind parsed")
    }

    func test_parse_topLevelScalarsAndNull() throws {
        XCTAssertEqual(try JSONValue(data: Data("null".utf8)), .null, "Expected top-level null")
        XCTAssertEqual(try JSONValue(data: Data(" 42 ".utf8)), 42, "Expected a top-level number")
        XCTAssertEqual(try JSONValue(data: Data(#""hi""#.utf8)), "hi", "Expected a top-level string")
        XCTAssertEqual(try JSONValue(data: Data("5.55405872056162E8".utf8)), .number(555_405_872.056162), "Expected Java-style exponent")
    }

    func test_parse_rejectsInvalidJSON_withPosition() {
        for text in ["", "{", "{\"a\" 1}", "[1,]", "01", "tru", "{\"a\":1} x", "\"\u{01}\"", "NaN", "1.", "\"\\ud800\""] {
            XCTAssertThrowsError(try JSONValue(data: Data(text.utf8)), "Expected \(text.debugDescription) to be rejected")
        }
        XCTAssertThrowsError(try JSONValue(data: Data("{\n  \"a\": ]".utf8))) { error in
            let parseError = error as? JSONParseError
            XCTAssertEqual(parseError?.line, 2, "Expected the error on line 2")
            XCTAssertEqual(parseError?.column, 8, "Expected the error at column 8")
        }
    }

    func test_jsonData_isCompactWithSortedKeys() {
        let value: JSONValue = ["b": [1, "two"], "a": ["z": nil, "y": false]]
        XCTAssertEqual(String(decoding: value.jsonData, as: UTF8.self), #"{"a":{"y":false,"z":null},"b":[1,"two"]}"#,
                       "Expected compact JSON with sorted keys")
        XCTAssertEqual(value.description, #"{"a":{"y":false,"z":null},"b":[1,"two"]}"#, "Expected description to be compact JSON")
    }

    func test_prettyText_usesFirebaseStyle() {
        let value: JSONValue = ["error": "Permission denied"]
        XCTAssertEqual(value.prettyText, "{\n  \"error\" : \"Permission denied\"\n}", "Expected Firebase's pretty layout")
        XCTAssertEqual(JSONValue.array([1, ["a": true]]).prettyText, "[\n  1,\n  {\n    \"a\" : true\n  }\n]",
                       "Expected nested pretty layout")
    }

    func test_stringEscaping_roundTrips() throws {
        let value: JSONValue = .string("quote \" backslash \\ slash / tab \t control \u{1F} é")
        XCTAssertEqual(value.description, #""quote \" backslash \\ slash / tab \t control \u001f é""#, "Expected JSON escapes")
        XCTAssertEqual(try JSONValue(data: value.jsonData), value, "Expected the string to survive a round trip")
    }

    func test_numbers_integersPlainOthersJavaStyle() {
        XCTAssertEqual(JSONValue.number(1_533_713_072_088).description, "1533713072088", "Expected integers without exponent")
        XCTAssertEqual(JSONValue.number(-0.0).description, "0", "Expected -0 as 0")
        XCTAssertEqual(JSONValue.number(555_405_872.056162).description, "5.55405872056162E8",
                       "Expected the sample export's spelling of a Swift Date")
        XCTAssertEqual(JSONValue.number(2.5).description, "2.5", "Expected plain decimals between 1e-3 and 1e7")
        XCTAssertEqual(JSONValue.number(0.001).description, "0.001", "Expected 0.001 plain")
        XCTAssertEqual(JSONValue.number(0.0001).description, "1.0E-4", "Expected small numbers with E")
        XCTAssertEqual(JSONValue.number(-1.5e300).description, "-1.5E300", "Expected large numbers with E")
        XCTAssertEqual(JSONValue.number(1e20).description, "1.0E20", "Expected integers above 2^53 in Java style")
        for number in [0.1, 1.0 / 3, 123_456.789, 6.02214076e23, Double.leastNonzeroMagnitude, -2.2250738585072014e-308] {
            XCTAssertEqual(try JSONValue(data: JSONValue.number(number).jsonData), .number(number), "Expected \(number) to round-trip")
        }
    }

    func test_accessors_andSubscript() {
        let value: JSONValue = ["name": "x", "list": [1], "n": 3, "flag": true]
        XCTAssertEqual(value["name"].stringValue, "x", "Expected stringValue")
        XCTAssertEqual(value["list"].arrayValue, [1], "Expected arrayValue")
        XCTAssertEqual(value["n"].numberValue, 3, "Expected numberValue")
        XCTAssertEqual(value["flag"].boolValue, true, "Expected boolValue")
        XCTAssertEqual(value["missing"], .null, "Expected .null for a missing key")
        XCTAssertEqual(value["name"]["deeper"], .null, "Expected .null below a non-object")
        XCTAssertNil(value["name"].numberValue, "Expected no numberValue for a string")
        XCTAssertNotNil(value.objectValue, "Expected objectValue for an object")
    }

    func test_codable_roundTripsThroughJSONEncoderAndDecoder() throws {
        let value: JSONValue = ["a": [true, 1.5, nil, "s"], "b": ["c": 0]]
        let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        XCTAssertEqual(decoded, value, "Expected Codable round trip; true must stay a Bool, 0 a number")
    }

    func test_initEncoding_readsWhatACodableModelSends() throws {
        struct Message: Encodable { let sender: String; let timestamp: Date }
        let value = try JSONValue(encoding: Message(sender: "Spencer", timestamp: Date(timeIntervalSinceReferenceDate: 555_405_872.056162)))
        XCTAssertEqual(value, ["sender": "Spencer", "timestamp": .number(555_405_872.056162)],
                       "Expected the default JSONEncoder's Date (seconds since 2001)")
    }
}
