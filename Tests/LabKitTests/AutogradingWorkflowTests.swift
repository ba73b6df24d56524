import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// The workflow an instructor copies (.github/classroom/autograding.yml) grades every lesson of lessons.json, one
/// step each, and hands every step's result to the reporter: a lesson added to the kit and not to the workflow
/// would silently be worth nothing.
final class AutogradingWorkflowTests: XCTestCase {
    func test_workflow_hasAStepPerLesson_andTheReporterReadsThemAll() throws {
        let root = try KitRoot.find()
        let catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
        let text = try String(contentsOf: root.appendingPathComponent(".github/classroom/autograding.yml"), encoding: .utf8)
        XCTAssertTrue(text.contains("name: Autograding Tests\n"), "the reporter needs the workflow named Autograding Tests")
        XCTAssertTrue(text.contains("  run-autograding-tests:\n"), "the reporter needs the job named run-autograding-tests")
        let workflow = AutogradingWorkflow(text: text)
        for lesson in catalog.lessons {
            XCTAssertEqual(workflow.problems(for: lesson.name), [], "\(lesson.name) is not graded by the workflow")
        }
        let runners = catalog.lessons.map { AutogradingWorkflow.id(of: $0.name) }
        XCTAssertTrue(text.contains("runners: \(runners.joined(separator: ","))\n"), "the reporter's runners are not \(runners), in course order")
    }
}
