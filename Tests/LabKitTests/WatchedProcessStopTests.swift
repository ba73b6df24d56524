import Foundation
import XCTest
@testable import LabKit

/// How `lab` stops a child it gave up on: SwiftPM and swiftc get SIGINT first (on SIGKILL they would leave their
/// compiler jobs, which lead process groups of their own, running and writing into .build), anything else SIGKILL at once.
final class WatchedProcessStopTests: XCTestCase {
    let script = "trap 'echo stopped-gently; exit 0' INT; echo started; while :; do sleep 0.05; done"

    func test_swiftPM_isStoppedGently_otherCommandsAreNot() {
        XCTAssertTrue(ChildProcesses.stopsGently(["swift", "build", "--build-tests"]))
        XCTAssertFalse(ChildProcesses.stopsGently(["swift", "test", "--skip-build"]), "a test run compiles nothing: a hung test gets no grace")
        XCTAssertFalse(ChildProcesses.stopsGently(["/bin/sh", "-c", "swift build"]))
        XCTAssertTrue(ChildProcesses.stopsGently(["swiftc", "-emit-executable"]))
        XCTAssertFalse(ChildProcesses.stopsGently(["unshare", "--user", "swift"]))
    }

    func test_aGentleChildPastItsLimit_getsSIGINTFirst_andEndsOnItsOwn() throws {
        let began = Date()
        let outcome = try WatchedProcess.run(["/bin/sh", "-c", script], in: URL(fileURLWithPath: "/tmp"), limit: 1, gently: true)
        XCTAssertEqual(outcome.killed, "over 1 s")
        XCTAssertTrue(outcome.output.contains("stopped-gently"), "no SIGINT reached it: \(outcome.output)")
        XCTAssertLessThan(Date().timeIntervalSince(began), 1 + ChildProcesses.gentleGrace, "it ended on SIGINT: no wait for the grace")
    }

    func test_aGentleChildThatIgnoresSIGINT_getsSIGKILLAfterTheGrace() throws {
        let began = Date()
        let outcome = try WatchedProcess.run(["/bin/sh", "-c", "trap '' INT; while :; do sleep 0.05; done"],
                                             in: URL(fileURLWithPath: "/tmp"), limit: 1, gently: true)
        XCTAssertEqual(outcome.killed, "over 1 s")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(began), 1 + ChildProcesses.gentleGrace)
    }

    func test_anyOtherChildPastItsLimit_getsSIGKILLAtOnce() throws {
        let outcome = try WatchedProcess.run(["/bin/sh", "-c", script], in: URL(fileURLWithPath: "/tmp"), limit: 1, gently: false)
        XCTAssertEqual(outcome.killed, "over 1 s")
        XCTAssertTrue(outcome.output.contains("started"), outcome.output)
        XCTAssertFalse(outcome.output.contains("stopped-gently"), outcome.output)
    }
}
