import Foundation
import XCTest
@testable import LabKit

/// The kit's own tests pass under `swift test --parallel`, where every test is a process of its own and runs its
/// class's setUp: a test that grades must do it in a grading copy no other test class uses, holding the kit's lock
/// (`AttackClass.grade` does both), or copies get graded with each other's files. These check the rule and the lock
/// it stands on; they are fast.
final class ParallelSafetyTests: FolderTestCase {
    /// What makes or runs a grading copy, or runs a lesson's tests, in the kit: allowed in AttackClass.swift only.
    static let gradingCalls = ["GradingWorkspace(", "Workspace(kit:", ".lessonRun(", "runAroundBrokenLessons(", "GradeCommand.run(",
                               "LearnerCommands.check(", "LearnerCommands.progress(", "LearnerCommands.watch(", "MutantsCommand.run("]

    func test_testsGradeOnlyThroughAttackClass_eachClassInACopyOfItsOwn() throws {
        let tests = try KitRoot.find().appendingPathComponent("Tests")
        var copies: [String: [String]] = [:]  // copy name → the files that grade in it
        for path in try regularFiles(under: tests) where path.hasSuffix(".swift") {
            let name = (path as NSString).lastPathComponent
            guard name != "AttackClass.swift", name != "ParallelSafetyTests.swift" else { continue }
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            for call in Self.gradingCalls where text.contains(call) {
                XCTFail("Tests/\(path) calls \(call) itself: under --parallel it would share a copy, or the kit, with another test process. Grade through AttackClass.grade(_:copy:) (a copy of the class's own, under the kit's lock).")
            }
            for copy in Self.copyNames(in: text) { copies[copy, default: []].append(path) }
        }
        for (copy, files) in copies where files.count > 1 {
            XCTFail("the grading copy .lab/\(copy) is used by \(files.joined(separator: " and ")): give each test class a copy of its own")
        }
        XCTAssertFalse(copies.isEmpty, "no AttackClass.grade(_:copy:) call was found: has the helper been renamed? Update this test.")
    }

    /// The names in `AttackClass.grade(…, copy: "<name>")` calls.
    static func copyNames(in text: String) -> [String] {
        text.components(separatedBy: "AttackClass.grade(").dropFirst().compactMap { call in
            guard let start = call.range(of: "copy: \""), let end = call[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return String(call[start.upperBound..<end])
        }
    }

    /// `--parallel` runs tests in separate processes: the lock must hold against another process, not only another
    /// thread. `flock(1)` (util-linux) stands in for the other test process.
    func test_kitLock_isHeldAgainstAnotherProcess() throws {
        let tool = ["/usr/bin/flock", "/bin/flock"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try XCTSkipIf(tool == nil, "no flock(1) on this machine (macOS has none) to play the other process")
        let flock = tool!
        try write("lessons.json", #"{"lessons": []}"#)
        let kit = try Kit(root: folder)
        let lockFile = kit.stateFolder.appendingPathComponent("lock").path
        func otherProcessGetsTheLock() throws -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flock)
            process.arguments = ["--nonblock", lockFile, "true"]
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        let whileHeld = try KitLock.during(kit, say: { _ in }) { try otherProcessGetsTheLock() }
        XCTAssertFalse(whileHeld, "another process took the kit's lock while a `lab` command held it")
        XCTAssertTrue(try otherProcessGetsTheLock(), "the kit's lock was still held after the command ended")
    }
}
