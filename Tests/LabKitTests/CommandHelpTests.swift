import Foundation
import XCTest
@testable import LabKit

/// `lab <command> --help` prints that command's usage, not all of `lab --help` (issue 20).
final class CommandHelpTests: XCTestCase {
    func help(_ arguments: String...) -> String {
        var printed = ""
        _ = LabCommandLine.run(arguments) { printed += $0 + "\n" }
        return printed
    }

    func test_serveHelp_isServesUsageOnly() {
        let text = help("serve", "--help")
        XCTAssertTrue(text.contains("lab serve [--port 9000]"), text)
        XCTAssertTrue(text.contains("live updates with Accept: text/event-stream"), "the usage's continuation lines are missing: \(text)")
        XCTAssertFalse(text.contains("lab grade"), "serve --help printed other commands: \(text)")
        XCTAssertTrue(text.contains("`lab --help` lists every command"), text)
    }

    func test_everyCommandsHelp_namesThatCommand_andNoOther() {
        for command in ["check", "hint", "watch", "grade", "generate", "new-lesson", "mutants", "lint", "solutions-copy"] {
            let text = help(command, "-h")
            XCTAssertTrue(text.contains("lab \(command)"), "\(command) --help does not show its usage: \(text)")
            let others = LabCommandLine.commands.filter { $0 != command && $0 != "--help" && !$0.hasPrefix(command) && !command.hasPrefix($0) }
            for other in others where text.contains("  lab \(other) ") || text.contains("  lab \(other)\n") {
                XCTFail("\(command) --help shows `lab \(other)` too: \(text)")
            }
        }
    }

    func test_lonelyHelp_isEverything() {
        XCTAssertTrue(help("--help").contains("INSTRUCTORS"))
    }
}
