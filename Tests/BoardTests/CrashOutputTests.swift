@testable import BoardKit
import XCTest

/// A crash leaves the board at once, from a signal handler: what the learner's code printed before it (often the
/// clue, a debugging `print`) is written out with the crash note, not lost (issue 20).
final class CrashOutputTests: XCTestCase {
    func test_whatTheLearnersCodePrinted_isReadyForTheCrashNote_newestLinesKept() {
        OutputCapture.take(Data("loading threads\n".utf8))
        OutputCapture.take(Data("thread count: 0\nabout to unwrap".utf8))
        let note = OutputCapture.printedBeforeCrash.text
        XCTAssertTrue(note.contains("Your code printed (the last lines before the crash):"), note)
        XCTAssertTrue(note.hasSuffix("thread count: 0\nabout to unwrap\n"), "the newest line, even unfinished, comes last: \(note)")

        OutputCapture.take(Data(String(repeating: String(repeating: "é", count: 400) + " end\n", count: 30).utf8))
        let long = OutputCapture.printedBeforeCrash.text
        XCTAssertLessThanOrEqual(long.utf8.count, 4_096)
        XCTAssertTrue(long.hasSuffix("é end\n"), "the end is kept, not the start")
        XCTAssertTrue(long.hasPrefix("\nYour code printed"), "the heading stays: \(long.prefix(80))")
        XCTAssertFalse(long.contains("\u{FFFD}"), "cut at a character's start")
    }
}
