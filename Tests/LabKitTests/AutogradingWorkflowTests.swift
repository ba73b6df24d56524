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

    /// The workflow, autograder.py and `lab grade --help` send the instructor to "README § Autograding", which a
    /// README edit had removed: every "README § <section>" the kit writes must name a heading (or a bold paragraph) of README.md.
    func test_everyReadmeSectionTheKitPointsTo_isInTheReadme() throws {
        let root = try KitRoot.find()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let titles = readme.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("#") { return line.drop(while: { $0 == "#" || $0 == " " }).description }
            if line.hasPrefix("**"), let end = line.dropFirst(2).range(of: "**") { return String(line.dropFirst(2)[..<end.lowerBound]) }
            return nil
        }
        let pattern = try NSRegularExpression(pattern: "README(?:\\.md)? § ?([A-Z][A-Za-z]*(?: [a-z][A-Za-z]*)*)")
        var checked = 0
        for folder in ["Sources", ".github", ".ci", "Fixtures", "Tests/LabKitTests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let path = walker.nextObject() as? String {
                guard let text = try? String(contentsOf: base.appendingPathComponent(path), encoding: .utf8) else { continue }
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let name = (text as NSString).substring(with: match.range(at: 1))
                    checked += 1
                    XCTAssertTrue(titles.contains { $0.hasPrefix(name) }, "\(folder)/\(path) points to README § \(name), which README.md has no heading for")
                }
            }
        }
        XCTAssertGreaterThan(checked, 5, "no README § reference found: the pattern is wrong")
    }
}
