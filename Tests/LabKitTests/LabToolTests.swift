import Foundation
import XCTest
@testable import LabKit
import LabMetadata

final class LabToolTests: XCTestCase {
    func test_buildErrorsAreMadeRelative_withoutColumns_andMappedToLessons() {
        let root = URL(fileURLWithPath: "/kit")
        let output = """
            /kit/Exercises/Lesson2/MessageThread.swift:12:5: error: cannot find 'x' in scope
            /kit/Exercises/Lesson2/MessageThread.swift:12:5: error: cannot find 'x' in scope
            /kit/Exercises/Lesson3/A.swift:1:1: error: expected declaration
            warning: something else
            """
        let errors = BuildErrors.find(in: output, root: root)
        XCTAssertEqual(errors, ["Exercises/Lesson2/MessageThread.swift:12: error: cannot find 'x' in scope",
                                "Exercises/Lesson3/A.swift:1: error: expected declaration"])
        XCTAssertEqual(BuildErrors.lessons(in: errors), ["Lesson2", "Lesson3"])
    }

    func test_classReportCSV_quotesNotes_andLeavesUngradableRowsEmpty() {
        let catalog = LessonCatalog(lessons: [.init(name: "Lesson1", title: "One", chapter: "1", exercises: [])])
        let report = ClassReport(catalog: catalog, rows: [
            .init(learner: "ada", results: LabResults(tests: [], catalog: catalog), notes: []),
            .init(learner: "eve", results: nil, notes: ["not a lab checkout, sorry"]),
        ])
        XCTAssertEqual(report.csv, "learner,Lesson1,total,max,notes\nada,,0,0,\neve,,,,\"not a lab checkout, sorry\"\n")
        XCTAssertTrue(report.markdown.contains("| eve | - | - | not a lab checkout, sorry |"), report.markdown)
        XCTAssertEqual(ClassReport.uniqueName("ada", among: ["ada", "ada-2"]), "ada-3")
    }

    func test_hintsComeOneAtATime_inOrder_andCheckShowsTheLastSeen() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(#"{"lessons": []}"#.utf8).write(to: root.appendingPathComponent("lessons.json"))
        let kit = try Kit(root: root)
        let exercise = LessonCatalog.Exercise(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["one", "two"])
        var book = HintBook(kit: kit)
        XCTAssertEqual(book.current(for: exercise)?.text, "one")
        XCTAssertEqual(try book.next(for: exercise)?.text, "two", "check already showed the first hint")
        XCTAssertNil(try book.next(for: exercise), "no hint after the last")
        var reopened = HintBook(kit: kit)
        XCTAssertEqual(reopened.current(for: exercise)?.number, 2, "hints seen are remembered in .lab/")
    }

    func test_unknownCommandsAndLessonsAnswerWithTheValidOnes() {
        var printed: [String] = []
        XCTAssertEqual(LabCommandLine.run(["frobnicate"]) { printed.append($0) }, 2)
        XCTAssertTrue(printed.joined().contains("Commands: progress, check, hint"), printed.joined())
        printed = []
        XCTAssertEqual(LabCommandLine.run(["check"]) { printed.append($0) }, 2)
        XCTAssertTrue(printed.joined().contains("Valid lessons: Lesson1"), printed.joined())
        printed = []
        XCTAssertEqual(LabCommandLine.run(["check", "Lesson99"]) { printed.append($0) }, 2)
        XCTAssertTrue(printed.joined().contains("unknown lesson 'Lesson99'"), printed.joined())
        XCTAssertEqual(LabCommandLine.run(["--help"]) { _ in }, 0)
    }
}
