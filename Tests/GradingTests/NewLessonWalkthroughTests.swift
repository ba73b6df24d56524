import Foundation
import XCTest
@testable import LabKit
import LabMetadata
import KitTestSupport

/// README § Adding a lesson, walked through in a copy of the kit: `lab new-lesson` adds the next lesson (Lesson9), `lab lint` is clean,
/// and the new lesson's example test passes against its solution (`LAB_SOLUTIONS=1`) and fails as "not started"
/// against its stub — what `.ci/run` checks of every lesson. Slow, like the grading tests: it builds the copy
/// (`LAB_LESSONS=Lesson9`: that lesson, its tests and what they need; a few minutes the first time), kept in
/// `.lab/new-lesson-walkthrough/` so that later runs rebuild only the new lesson.
final class NewLessonWalkthroughTests: XCTestCase {
    func test_addedLesson_passesAgainstItsSolution_andIsNotStartedAgainstItsStub() throws {
        let root = try KitRoot.find()
        let copy = try ScratchKit.copy(to: root.appendingPathComponent(".lab/new-lesson-walkthrough"), building: true)
        let (lesson, chapter) = try ScratchKit.nextLesson()
        var said: [String] = []
        XCTAssertEqual(try NewLessonCommand.run([lesson, "--title", "Paging"], root: copy) { said.append($0) }, 0, said.joined(separator: "\n"))
        XCTAssertEqual(try LintCommand.findProblems(in: copy), [], "lab lint after new-lesson")

        let solutions = try swiftTest(lesson, in: copy, solutions: true)
        XCTAssertEqual(solutions.status, 0, "against its solution:\n\(solutions.output.suffix(3000))")
        XCTAssertTrue(solutions.output.contains("Executed 1 test, with 0 failures"), String(solutions.output.suffix(3000)))

        let stubs = try swiftTest(lesson, in: copy, solutions: false)
        XCTAssertNotEqual(stubs.status, 0, "a test that passes against a stub grades nothing")
        XCTAssertTrue(stubs.output.contains("not started yet: fetchGreeting(completion:) — see LESSONS.md §\(chapter).1"),
                      "against its stub, not \"not started\":\n\(stubs.output.suffix(3000))")
    }

    /// `swift test --filter <lesson>Tests` in `kit`, building that lesson only; its exit status and output.
    func swiftTest(_ lesson: String, in kit: URL, solutions: Bool) throws -> (status: Int32, output: String) {
        let log = kit.appendingPathComponent(".build-walkthrough-\(solutions ? "solutions" : "stubs").log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "test", "--disable-swift-testing", "--filter", "\(lesson)Tests"]
        process.currentDirectoryURL = kit
        var environment = ProcessInfo.processInfo.environment
        environment["LAB_RESULTS"] = nil
        environment["LAB_SOLUTIONS"] = solutions ? "1" : nil
        environment["LAB_LESSONS"] = lesson
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
