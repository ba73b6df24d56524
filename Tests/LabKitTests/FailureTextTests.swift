import Foundation
import XCTest
@testable import LabTestSupport

/// Every failure starts with the test's own message, whichever assertion made it (issue 20: some began with
/// "XCTAssertTrue failed - ", others with "failed - ").
final class FailureTextTests: XCTestCase {
    func test_theAssertionsName_goes_theMessageComesFirst() {
        XCTAssertEqual(FailureText.plain("XCTAssertTrue failed - The thread gained a message."), "The thread gained a message.")
        XCTAssertEqual(FailureText.plain("failed - not started yet: f — see §1.3"), "not started yet: f — see §1.3")
        XCTAssertEqual(FailureText.plain("XCTAssertNotNil failed - No key."), "No key.")
    }

    func test_comparedValues_followTheMessage() {
        XCTAssertEqual(FailureText.plain(#"XCTAssertEqual failed: ("3") is not equal to ("4") - Expected four rooms."#),
                       #"Expected four rooms. [("3") is not equal to ("4")]"#)
        XCTAssertEqual(FailureText.plain(#"XCTAssertEqual failed: ("a - b") is not equal to ("c") - Names differ."#),
                       #"Names differ. [("a - b") is not equal to ("c")]"#, "a dash inside a value is not the end of the values")
        XCTAssertEqual(FailureText.plain(#"XCTAssertNil failed: "x" - Expected no error."#), #"Expected no error. ["x"]"#)
    }

    func test_otherTexts_areLeftAlone() {
        XCTAssertEqual(FailureText.plain("setup: the fetch failed - because"), "setup: the fetch failed - because")
        XCTAssertEqual(FailureText.plain(#"XCTAssertEqual failed: ("1") is not equal to ("2") - "#), #"("1") is not equal to ("2")"#,
                       "with no message, the values are the message")
    }
}
