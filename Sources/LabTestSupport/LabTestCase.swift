import Foundation
import XCTest
import LabSupport
import FirebaseEmulator
import LabMetadata

/// The base class of every graded test. It
/// - reports a test that ran a stub as "not started yet: <function> — see LESSONS.md §N.M" (and fails it, even when
///   its assertions happened to hold), in place of the confusing failures a stub causes further down;
/// - drops the noise of a test stopped by `TestStopped`;
/// - re-checks, when the test ends, that no completion handler was called a second time late;
/// - installs the tripwire that catches requests sent through a session other than the injected one;
/// - lets a task the learner's code left running reach its own test's emulator before the next test (`RunningTasks`);
/// - records the test's result in the `LAB_RESULTS` file, when that is set.
open class LabTestCase: XCTestCase {
    /// Failures recorded by this test so far (after rewriting).
    private var failureCount = 0
    private var notStartedReported = false
    /// The first failure message this test recorded, for results files.
    public private(set) var firstFailure: String?
    /// Checks to run when the test ends (late second calls of a completion handler).
    var checksAtEnd: [() -> Void] = []

    override open class func setUp() {
        super.setUp()
        SessionTripwire.install()
    }

    override open func setUp() {
        super.setUp()
        ResultsRecorder.starting(self)
        StubLog.reset()
        SessionTripwire.reset()
        FirebaseEmulator.resetStrayRequests()
        // Teardown blocks run before tearDown(), where a lesson's test case releases its emulators.
        addTeardownBlock { RunningTasks.letArrive(within: 1) }
    }

    override open func tearDown() {
        checksAtEnd.forEach { $0() }
        checksAtEnd = []
        if failureCount == 0, let stub = StubLog.recorded.first {
            failAtTheTest(Self.notStartedMessage(stub))
        }
        let outcome: TestResult.Outcome = failureCount == 0 ? .passed : StubLog.recorded.isEmpty ? .failed : .notStarted
        ResultsRecorder.record(self, outcome: outcome, message: firstFailure)
        super.tearDown()
    }

    static func notStartedMessage(_ stub: NotImplemented) -> String {
        "\(stub) (the function still runs its stub: replace the `NotImplemented` line with your code)"
    }

    /// The text to record for a failure, or nil to drop it.
    private func rewrite(_ description: String) -> String? {
        if description.contains(TestStopped.marker) && failureCount > 0 { return nil }
        if let stub = StubLog.recorded.first {
            if notStartedReported { return nil }
            notStartedReported = true
            return note(Self.notStartedMessage(stub))
        }
        return note(DiagnosisLine.shape(FailureText.plain(description)))
    }

    private func note(_ message: String) -> String {
        failureCount += 1
        if firstFailure == nil { firstFailure = message }
        return message
    }

    #if canImport(ObjectiveC)
    override open func record(_ issue: XCTIssue) {
        let stopped = issue.associatedError is TestStopped
        guard let text = rewrite(stopped ? TestStopped.marker : issue.compactDescription) else { return }
        var issue = issue
        issue.compactDescription = text
        super.record(issue)
    }
    #else
    override open func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard let text = rewrite(description) else { return }
        super.recordFailure(withDescription: text, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif

    /// Records a failure at the test method's own line (found in its source), or here when it cannot be found.
    private func failAtTheTest(_ message: String) {
        guard let (file, line) = TestLocation.of(self) else { return XCTFail(message) }
        #if canImport(ObjectiveC)
        let location = XCTSourceCodeLocation(filePath: file, lineNumber: line)
        record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
        recordFailure(withDescription: message, inFile: file, atLine: line, expected: true)
        #endif
    }

    /// Stops the test as "not started yet" when a stub ran (for helpers of a lesson's own, e.g. waiting for an async call).
    public func stopIfAStubRan(file: StaticString = #filePath, line: UInt = #line) throws {
        if let stub = StubLog.recorded.first { throw fail(Self.notStartedMessage(stub), file: file, line: line) }
    }

    /// Records `message` as a failure and returns the error that stops the test: `throw fail("…")`.
    public func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) -> TestStopped {
        XCTFail(message, file: file, line: line)
        return TestStopped()
    }
}
