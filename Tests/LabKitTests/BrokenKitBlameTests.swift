import Foundation
import XCTest
@testable import LabKit

/// `lab check` blames the kit, not the learner, for a fixture the kit cannot read (issue 19).
final class BrokenKitBlameTests: XCTestCase {
    func test_aFixtureTheKitCannotRead_isTheKits() {
        XCTAssertTrue(CheckReport.blamesTheKit(#"threw error "fixture Fixtures/databases/x.json is not valid JSON: Expected a string key""#))
        XCTAssertTrue(CheckReport.blamesTheKit("fixture Fixtures/exchanges/y.json not found (in that folder: a.json)"))
        XCTAssertTrue(CheckReport.blamesTheKit("fixture Fixtures/z.json does not decode as Thread: keyNotFound"))
    }

    func test_theLearnersOwnMistakes_areNot() {
        XCTAssertFalse(CheckReport.blamesTheKit("The stored message should be exactly the message you sent"))
        XCTAssertFalse(CheckReport.blamesTheKit(nil))
        XCTAssertFalse(CheckReport.blamesTheKit("your body does not decode as the fixture Fixtures/ says"))
    }
}
