import BoardKit
import Foundation
import XCTest

/// The keyboard and the command line.
final class BoardInputTests: XCTestCase {
    func test_keys_decodeArrowsEnterEscapeAndUTF8() {
        XCTAssertEqual(Key.decode(Array("\u{1B}[A\u{1B}[Bq\r".utf8)), [.up, .down, .character("q"), .enter])
        XCTAssertEqual(Key.decode([0x1B]), [.escape])
        XCTAssertEqual(Key.decode(Array("é📚\u{7F}".utf8)), [.character("é"), .character("📚"), .backspace])
        XCTAssertEqual(Key.decode(Array("\u{1B}[5~\u{1B}[6~".utf8)), [.pageUp, .pageDown])
    }

    func test_options_scriptCommands() throws {
        XCTAssertEqual(try BoardOptions.parse(["--list"], environment: [:]).command, .list)
        let post = try BoardOptions.parse(["--post", "REST APIs", "--sender", "A", "--text", "Hi"], environment: [:])
        XCTAssertEqual(post.command, .post(thread: "REST APIs", text: "Hi"))
        XCTAssertEqual(post.sender, "A")
        XCTAssertEqual(try BoardOptions.parse([], environment: ["USER": "kim"]).sender, "kim")
        XCTAssertThrowsError(try BoardOptions.parse(["--post", "x"], environment: [:]))
        XCTAssertThrowsError(try BoardOptions.parse(["--list", "--new-thread", "T"], environment: [:]))
        XCTAssertThrowsError(try BoardOptions.parse(["--frobnicate"], environment: [:]))
    }

    func test_options_signIn() throws {
        let options = try BoardOptions.parse(["--email", "ada@example.com", "--password", "pw"], environment: [:])
        XCTAssertEqual(options.email, "ada@example.com")
        XCTAssertEqual(options.password, "pw")
        XCTAssertEqual(options.command, .interactive)
        XCTAssertNil(try BoardOptions.parse([], environment: [:]).email, "no email: the screen asks")
        XCTAssertThrowsError(try BoardOptions.parse(["--password", "pw"], environment: [:]))
        XCTAssertThrowsError(try BoardOptions.parse(["--url", "http://x/", "--email", "a@b.c"], environment: [:]))
        XCTAssertTrue(BoardOptions.usage.contains("ada@example.com, password analytical-engine"), "the sample account is in --help")
    }

    func test_url_isAnyHTTPServer_withATrailingSlash() throws {
        let options = try BoardOptions.parse(["--url", "http://127.0.0.1:9000", "--list"], environment: [:])
        XCTAssertEqual(options.server, .url(URL(string: "http://127.0.0.1:9000/")!))
        XCTAssertThrowsError(try BoardOptions.parse(["--url", "ftp://x/"], environment: [:]))
        XCTAssertThrowsError(try BoardOptions.parse(["--url", "http://x/", "--latency", "2"], environment: [:]))
    }
}
