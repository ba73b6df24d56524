import XCTest
@testable import LabKit
import EmulatorTestSupport

/// `lab serve`: its options, the sample database by default, the lines it prints, and a port in use.
final class ServeCommandTests: XCTestCase {
    private static let kitRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func test_options_defaultsAndEachOption() throws {
        XCTAssertEqual(try ServeCommand.Options.parse([]).port, 9000, "Expected Firebase's emulator port by default")
        let options = try ServeCommand.Options.parse(["--port", "0", "--database", "db.json", "--latency", "250", "--keep-alive", "2"])
        XCTAssertEqual(options.port, 0, "Expected --port")
        XCTAssertEqual(options.database, "db.json", "Expected --database")
        XCTAssertEqual(options.latencyMilliseconds, 250, "Expected --latency in ms")
        XCTAssertEqual(options.keepAliveSeconds, 2, "Expected --keep-alive in s")
    }

    func test_options_mistakesAreUsageErrors() {
        for (arguments, expected) in [(["--port", "x"], "--port must be a number"), (["--prot", "1"], "Did you mean --port?"),
                                      (["--latency"], "--latency needs a value"), (["--empty", "--database", "a"], "not both")] {
            XCTAssertThrowsError(try ServeCommand.Options.parse(arguments), "Expected \(arguments) to be refused") { error in
                XCTAssertTrue("\(error)".contains(expected), "Expected \(arguments) to say \(expected), got \(error)")
            }
        }
    }

    func test_start_servesTheSampleDatabase_andPrintsHowToTryIt() throws {
        var lines: [String] = []
        var options = ServeCommand.Options()
        options.port = 0
        let server = try ServeCommand.start(options, kitRoot: Self.kitRoot) { lines.append($0) }
        defer { server.stop() }
        let banner = lines.joined(separator: "\n")
        XCTAssertTrue(banner.contains("http://127.0.0.1:\(server.port)/"), "Expected the URL in:\n\(banner)")
        XCTAssertTrue(banner.contains("curl"), "Expected a curl line to try in:\n\(banner)")
        let connection = try XCTUnwrap(LoopbackConnection(port: server.port), "setup: could not connect")
        connection.send("GET", "/.json")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200, "Expected the emulator to answer")
        XCTAssertTrue(response.bodyText.contains("695398C4-498C-40A8-AA76-CB2B20DFD9FA"), "Expected the sample database by default")
    }

    func test_start_servesSignInBeside_andPrintsItsURL() throws {
        var lines: [String] = []
        var options = ServeCommand.Options()
        options.port = 0
        options.empty = true
        let servers = try ServeCommand.start(options, kitRoot: nil) { lines.append($0) }
        defer { servers.stop() }
        let banner = lines.joined(separator: "\n")
        XCTAssertTrue(banner.contains("http://127.0.0.1:\(servers.auth.port)/identitytoolkit.googleapis.com/v1/accounts:signUp"),
                      "Expected the sign-up URL in:\n\(banner)")
        let connection = try XCTUnwrap(LoopbackConnection(port: servers.auth.port), "setup: could not connect")
        connection.send("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any", body: Data(#"{"email":"a@b.c","password":"secret1"}"#.utf8))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200, "Expected the Auth emulator's sign-up on its own port: \(response.bodyText)")
    }

    func test_rules_aBadRuleStopsTheServer_withItsLine_andGoodRulesDeny() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.rules.json")
        try Data("{\n  \"rules\": {\n    \".read\": \"auth.id == null\" , \".write\": \"nope\"\n  }\n}".utf8).write(to: bad)
        XCTAssertThrowsError(try ServeCommand.start(try ServeCommand.Options.parse(["--port", "0", "--empty", "--rules", bad.path]), kitRoot: nil) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("line 3, rules/.write") && "\(error)".contains("Unknown variable 'nope'"),
                          "Expected the refusal to name the line, the rule and the reason, got \(error)")
        }
        let good = folder.appendingPathComponent("database.rules.json")
        try Data(#"{"rules": {".read": true}}"#.utf8).write(to: good)
        var lines: [String] = []
        let servers = try ServeCommand.start(try ServeCommand.Options.parse(["--port", "0", "--empty", "--rules", good.path]), kitRoot: nil) { lines.append($0) }
        defer { servers.stop() }
        XCTAssertTrue(lines.joined().contains("Rules:     \(good.path)"), "Expected the rules named in the banner")
        let connection = try XCTUnwrap(LoopbackConnection(port: servers.port), "setup: could not connect")
        connection.send("PUT", "/a.json", body: Data("1".utf8))
        XCTAssertEqual(try connection.readResponse().status, 401, "Expected the rules in force: no .write, so 401")
    }

    func test_aPortInUse_isAOneLineErrorNamingIt() throws {
        var options = ServeCommand.Options()
        options.port = 0
        options.empty = true
        let first = try ServeCommand.start(options, kitRoot: nil) { _ in }
        defer { first.stop() }
        var output: [String] = []
        let status = try ServeCommand.run(["--port", String(first.port), "--empty"]) { output.append($0) }
        XCTAssertEqual(status, 1, "Expected a failure status")
        XCTAssertEqual(output, ["lab serve: port \(first.port) is already in use (another `lab serve`?); pick another with --port"],
                       "Expected one line naming the port")
    }

    func test_rules_giveTheQueriesTheirIndexes_andABadFileIsAUsageError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("database.rules.json")
        try Data(#"{"rules": {".read": true, "scores": {".indexOn": ".value"}}}"#.utf8).write(to: rules)
        var options = try ServeCommand.Options.parse(["--port", "0", "--empty", "--rules", rules.path])
        XCTAssertEqual(options.rules, rules.path, "Expected --rules")
        let server = try ServeCommand.start(options, kitRoot: nil) { _ in }
        defer { server.stop() }
        let connection = try XCTUnwrap(LoopbackConnection(port: server.port), "setup: could not connect")
        connection.send("GET", "/scores.json?orderBy=%22$value%22&limitToFirst=1")
        XCTAssertEqual(try connection.readResponse().status, 200, "Expected the rules' .value index to allow orderBy \"$value\"")
        options.rules = folder.appendingPathComponent("missing.json").path
        XCTAssertThrowsError(try ServeCommand.start(options, kitRoot: nil) { _ in }, "Expected a missing rules file refused") { error in
            XCTAssertTrue("\(error)".contains("--rules"), "Expected the error to name --rules, got \(error)")
        }
    }
}
