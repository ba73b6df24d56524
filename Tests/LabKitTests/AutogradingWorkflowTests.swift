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
        // actions/checkout takes an empty `repository:` as the workflow's own repository (src/input-helper.ts:
        // `core.getInput('repository') || github.context.repo`): with LAB_KIT_REPOSITORY unset, the learner's own
        // repository was checked out as the kit and graded with the learner's own tests. A step refuses it first.
        let guardStep = try XCTUnwrap(text.range(of: "if: vars.LAB_KIT_REPOSITORY == '' || vars.LAB_KIT_REPOSITORY == github.repository\n"),
                                      "no step refuses an unset LAB_KIT_REPOSITORY")
        let kitCheckout = try XCTUnwrap(text.range(of: "repository: ${{ vars.LAB_KIT_REPOSITORY }}"))
        XCTAssertLessThan(guardStep.lowerBound, kitCheckout.lowerBound, "the check must come before the kit's checkout")
        XCTAssertTrue(text[guardStep.upperBound...].hasPrefix("        run: |\n") && text.contains("          exit 1\n"), "the check must fail the job")
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

    /// autograder.py refused an instructor who did as it says — put the kit's URL in the file — in place of the
    /// placeholder URL: it compared the URL with the placeholder's variable, which that edit had changed too, and
    /// said "LAB_KIT_REPOSITORY is not set". Run here with the placeholder replaced by a path that does not exist:
    /// it must try to clone that, and, unedited, say what to put where.
    func test_autograderPy_takesTheURLWrittenInPlaceOfThePlaceholder() throws {
        let root = try KitRoot.find()
        let script = try String(contentsOf: root.appendingPathComponent(".github/classroom/autograder.py"), encoding: .utf8)
        let placeholder = "https://github.com/OWNER/REST-LAB-KIT.git"
        XCTAssertTrue(script.contains(placeholder), "the placeholder changed: update this test")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("autograder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ text: String) throws -> (status: Int32, said: String) {
            let file = folder.appendingPathComponent("autograder.py")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", file.path]
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["LAB_KIT_REPOSITORY"] = nil
            process.environment = environment
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let probe = try run("import sys\nsys.exit(0)\n")
        guard probe.status == 0 else { throw XCTSkip("no python3 here: \(probe.said)") }
        let mine = folder.appendingPathComponent("no-such-kit").path
        let edited = try run(script.replacingOccurrences(of: placeholder, with: mine))
        XCTAssertNotEqual(edited.status, 0)
        XCTAssertTrue(edited.said.contains("could not clone the kit from \(mine)"), edited.said)
        let unedited = try run(script)
        XCTAssertNotEqual(unedited.status, 0)
        XCTAssertTrue(unedited.said.contains("put your kit's git URL in this file (KIT, in place of the placeholder) or in LAB_KIT_REPOSITORY"), unedited.said)
    }
}
