/// Thrown by the helpers right after they record a failure, so the test stops there instead of piling up
/// follow-on failures that only repeat the first (XCTest on Linux ignores `continueAfterFailure = false`).
/// `LabTestCase` keeps the "threw error" record this causes out of the report.
public struct TestStopped: Error, CustomStringConvertible {
    static let marker = "[lab: test stopped at its first failure]"
    public init() {}
    public var description: String { Self.marker }
}
