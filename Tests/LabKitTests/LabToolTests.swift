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

    func test_buildErrorNotes_comeFromBothDiagnosticStyles_withTheirLines() {
        let root = URL(fileURLWithPath: "/kit")
        // Swift 6's style: the notes are markers in the error's source excerpt, under the line they are about; a note
        // in another file (Swift's own Decodable) gets a header and an excerpt of its own.
        let excerpts = """
            /kit/Exercises/Lesson2/MessageThread.swift:37:9: error: return from initializer without initializing all stored properties
            29 |         public let text: String
               |                    `- note: 'self.text' not initialized
            30 |         public let sender: String
               |                    `- note: 'self.sender' not initialized
            36 |             _ = NotImplemented("x", section: "2.2")
            37 |         }
               |         `- error: return from initializer without initializing all stored properties
            38 |     }

            /kit/Exercises/Lesson3/MessageThread.swift:10:20: error: type 'MessageThread' does not conform to protocol 'Decodable'
             8 | public final class MessageThread: Codable {
               |                    `- error: type 'MessageThread' does not conform to protocol 'Decodable'
            Swift.Decodable.init:2:5: note: protocol requires initializer 'init(from:)' with type 'Decodable'
            1 | protocol Decodable {
            2 | init(from decoder: any Decoder) throws}
              |     `- note: protocol requires initializer 'init(from:)' with type 'Decodable'
            /kit/Exercises/Lesson3/MessageThread.swift:12:9: warning: variable 'x' was never used
            12 |         var x = 1
               |             `- note: consider replacing with '_'
            [3/5] Emitting module Lesson3
            """
        let notes = BuildErrors.notes(in: excerpts, root: root)
        XCTAssertEqual(notes["Exercises/Lesson2/MessageThread.swift:37: error: return from initializer without initializing all stored properties"],
                       ["note (line 29): 'self.text' not initialized", "note (line 30): 'self.sender' not initialized"])
        XCTAssertEqual(notes["Exercises/Lesson3/MessageThread.swift:10: error: type 'MessageThread' does not conform to protocol 'Decodable'"],
                       ["note: protocol requires initializer 'init(from:)' with type 'Decodable'"])
        // The older style: one line per note, after its error.
        let lines = """
            /kit/Exercises/Lesson2/MessageThread.swift:37:9: error: return from initializer without initializing all stored properties
            /kit/Exercises/Lesson2/MessageThread.swift:29:20: note: 'self.text' not initialized
            /kit/Exercises/Lesson2/MessageThread.swift:11:1: error: expected declaration
            """
        XCTAssertEqual(BuildErrors.notes(in: lines, root: root),
                       ["Exercises/Lesson2/MessageThread.swift:37: error: return from initializer without initializing all stored properties":
                           ["note (line 29): 'self.text' not initialized"]])
    }

    func test_buildErrorAdvice_namesWhatTheCompilerWordsForSomeoneElse() {
        let advice = BuildErrors.advice(for: [
            "Exercises/Lesson1/HTTPMethod.swift:1: error: no such module 'UIKit'",
            "Exercises/Lesson1/Other.swift:1: error: no such module 'UIKit'",
            "Exercises/Lesson4/X.swift:3: error: no such module 'FirebaseDatabase'",
            "Exercises/Lesson1/Y.swift:2: error: cannot find type 'URLRequest' in scope",
            "Exercises/Lesson1/Z.swift:9: error: cannot find 'x' in scope",
        ])
        XCTAssertEqual(advice.count, 3, "\(advice)")
        XCTAssertTrue(advice[0].contains("remove `import UIKit`"), advice[0])
        XCTAssertTrue(advice[1].contains("no Firebase SDK"), advice[1])
        XCTAssertTrue(advice[2].contains("FoundationNetworking") && advice[2].contains("§0.6"), advice[2])
        XCTAssertEqual(BuildErrors.advice(for: ["Exercises/Lesson1/Z.swift:9: error: cannot find 'x' in scope"]), [])
    }

    func test_changedSignatures_nameTheDeclarationTheTestsCall_andTheLearners() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ text: String, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("""
            public final class C {
                public init(baseURL: URL,
                            session: URLSession = .shared) {
                }
                public func create(title: String, completion: @escaping (Error?) -> Void) {
                    // BEGIN SOLUTION
                }
                public func delete(id: String) {}
                public required init(from decoder: Decoder) throws {}
            }
            """, "Solutions/Lesson1/C.swift")
        try write("""
            public final class C {
                public init(baseURL: URL, session: URLSession = .shared) {
                }
                public func create(title: String, completion: @escaping (_ success: Bool) -> Void) {
                }
            }
            """, "Exercises/Lesson1/C.swift")
        XCTAssertEqual(ChangedSignatures.find(lesson: "Lesson1", root: root), [
            .init(expected: "public func create(title: String, completion: @escaping (Error?) -> Void)",
                  found: "public func create(title: String, completion: @escaping (_ success: Bool) -> Void)"),
            .init(expected: "public func delete(id: String)", found: nil),
        ])
        let report = ChangedSignatures.report(lesson: "Lesson1", root: root).joined(separator: "\n")
        XCTAssertTrue(report.contains("the tests call:  public func create(title: String, completion: @escaping (Error?) -> Void)"), report)
        XCTAssertTrue(report.contains("your code has no such declaration"), report)
        XCTAssertEqual(ChangedSignatures.name(of: "public static func == (lhs: A, rhs: A) -> Bool"), "==")
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
        // A section of a chapter that is not an exercise's ("What the tests check") names the chapter's exercises.
        printed = []
        XCTAssertEqual(LabCommandLine.run(["hint", "1.2.1"]) { printed.append($0) }, 2)
        XCTAssertTrue(printed.joined().contains("§1.2.1 is not an exercise, so it has no hints. Lesson1's exercises are 1.3, 1.4"),
                      printed.joined())
        XCTAssertEqual(LearnerCommands.chapter(ofSection: "5.9"), "5")
        XCTAssertNil(LearnerCommands.chapter(ofSection: "Lesson5"))
        XCTAssertNil(LearnerCommands.chapter(ofSection: "5"))
        XCTAssertEqual(LabCommandLine.run(["--help"]) { _ in }, 0)
    }
}
