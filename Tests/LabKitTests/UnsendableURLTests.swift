import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabTestSupport

/// `UnsendableURL` names the cause of URLError -1000/-1002 from the URL the error names, for every lesson.
final class UnsendableURLTests: XCTestCase {
    private func refusal(_ text: String?, _ code: URLError.Code = .unsupportedURL) -> URLError {
        guard let text = text, let url = URL(string: text) else { return URLError(code) }
        return URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url])
    }

    private func explanation(_ text: String?, _ code: URLError.Code = .unsupportedURL) -> String {
        UnsendableURL.explanation(of: refusal(text, code)) ?? "nil"
    }

    func test_eachCause_isNamed() {
        XCTAssertTrue(explanation(nil, .badURL).contains("your own code made this URLError"), "no URL: the learner's guard")
        XCTAssertTrue(explanation("https%3A%2F%2Fexample.com%2Fx.json").contains("percent-encoded"), "a URL encoded whole")
        XCTAssertTrue(explanation("accounts:signUp").contains(#"reads "accounts:" as the URL's scheme"#), "a colon read as a scheme")
        XCTAssertTrue(explanation("abc.json").contains("no scheme and host"), "the path alone")
        XCTAssertTrue(explanation("file:///work/https:/example.com/x.json").contains("URL(fileURLWithPath:)"), "a file URL")
    }

    func test_otherErrors_areNotExplained() {
        XCTAssertNil(UnsendableURL.explanation(of: URLError(.timedOut)), "a time-out is no URL that could not be sent")
        XCTAssertNil(UnsendableURL.explanation(of: CocoaError(.fileNoSuchFile)), "nor is an error that is no URLError")
    }

    func test_aLessonsOwnWords_andMask_areUsed() {
        let error = refusal("accounts:signUp?key=SECRET")
        let text = UnsendableURL.explanation(of: error, showing: { $0.replacingOccurrences(of: "SECRET", with: "<the key>") },
                                             colonFix: "Use the lesson's own base URL.") ?? "nil"
        XCTAssertTrue(text.contains("accounts:signUp?key=<the key>"), "Expected the URL shown masked: \(text)")
        XCTAssertFalse(text.contains("SECRET"), "Expected the key hidden: \(text)")
        XCTAssertTrue(text.hasSuffix("Use the lesson's own base URL."), "Expected the lesson's words for the colon: \(text)")
    }
}
