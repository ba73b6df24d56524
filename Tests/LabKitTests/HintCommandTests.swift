import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// `lab hint`: hints one at a time, the last one says so, any hint can be read again. These name the exercise by its
/// section (or re-read the one the book remembers), so no test run is needed: they are fast.
final class HintCommandTests: XCTestCase {
    private var root: URL!
    private var kit: Kit!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let catalog = LessonCatalog(lessons: [
            .init(name: "Lesson1", title: "PUT vs POST", chapter: "1", exercises: [
                .init(section: "1.3", function: "f()", file: "F.swift", testClass: "FTests", pointsPerTest: nil, hints: ["one", "two", "three"]),
                .init(section: "1.4", function: "g()", file: "G.swift", testClass: "GTests", pointsPerTest: nil, hints: ["only"]),
                .init(section: "1.5", function: "h()", file: "H.swift", testClass: "HTests", pointsPerTest: nil, hints: []),
            ]),
        ])
        try JSONEncoder().encode(catalog).write(to: root.appendingPathComponent("lessons.json"))
        kit = try Kit(root: root)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: root)
    }

    private func hint(_ arguments: String...) throws -> String {
        var printed: [String] = []
        XCTAssertEqual(try LearnerCommands.hint(arguments, kit: kit) { printed.append($0) }, 0)
        return printed.joined(separator: "\n")
    }

    func test_hintsComeInOrder_andTheLastSaysItIsTheLast() throws {
        XCTAssertEqual(try hint("1.3"), "§1.3 f(), hint 1 of 3:\n  one")
        XCTAssertEqual(try hint("1.3"), "§1.3 f(), hint 2 of 3:\n  two")
        let last = try hint("1.3")
        XCTAssertTrue(last.hasPrefix("§1.3 f(), hint 3 of 3 — the last one:\n  three"), last)
        XCTAssertTrue(last.contains("That is every hint for §1.3 f()"), last)
    }

    func test_askingAgainAfterTheLastRepeatsIt_andSaysSo() throws {
        for _ in 1...3 { _ = try hint("1.3") }
        let again = try hint("1.3")
        XCTAssertTrue(again.hasPrefix("You have seen all 3 hints for §1.3 f(); here is the last one again."), again)
        XCTAssertTrue(again.contains("hint 3 of 3 — the last one:\n  three"), again)
        XCTAssertTrue(again.contains("`swift run lab hint Lesson1 <n>`"), again)
    }

    func test_aHintNumberRereadsIt_orSkipsAhead_andCountsAsSeen() throws {
        _ = try hint("1.3")
        XCTAssertEqual(try hint("1.3", "1"), "§1.3 f(), hint 1 of 3:\n  one")
        XCTAssertEqual(HintBook(kit: kit).seen(for: kit.catalog.lessons[0].exercises[0]), 1, "re-reading hint 1 does not advance")
        XCTAssertEqual(try hint("1.3", "3"), "§1.3 f(), hint 3 of 3 — the last one:\n  three")
        XCTAssertEqual(HintBook(kit: kit).seen(for: kit.catalog.lessons[0].exercises[0]), 3, "skipping ahead counts as seen")
        XCTAssertThrowsError(try LearnerCommands.hint(["1.3", "4"], kit: kit) { _ in }) { XCTAssertEqual("\($0)", "§1.3 f() has 3 hints: ask for 1 to 3") }
        XCTAssertThrowsError(try LearnerCommands.hint(["1.4", "2"], kit: kit) { _ in }) { XCTAssertEqual("\($0)", "§1.4 g() has one hint: ask for 1") }
    }

    func test_againRereadsEveryHintSeen_andSaysHowManyAreLeft() throws {
        XCTAssertEqual(try hint("1.3", "--again"), "§1.3 f(), hint 1 of 3:\n  one\n(2 more: `swift run lab hint Lesson1` shows the next.)",
                       "nothing seen yet: the first")
        _ = try hint("1.3")
        XCTAssertEqual(try hint("1.3", "--again"), "§1.3 f(), hint 1 of 3:\n  one\n§1.3 f(), hint 2 of 3:\n  two\n(1 more: `swift run lab hint Lesson1` shows the next.)")
    }

    func test_rereadingByLessonUsesTheExerciseWhoseHintWasShownLast_withoutATestRun() throws {
        _ = try hint("1.3")
        _ = try hint("1.4")
        XCTAssertEqual(try hint("Lesson1", "1"), "§1.4 g(), hint 1 of 1 — the last one:\n  only")
        XCTAssertEqual(try hint("L1", "--again"), "§1.4 g(), hint 1 of 1 — the last one:\n  only")
        XCTAssertEqual(try hint("Lesson", "1", "--again"), "§1.4 g(), hint 1 of 1 — the last one:\n  only", "`Lesson 1`, split by the shell")
    }

    func test_anExerciseWithoutHintsSaysWhereToRead() throws {
        XCTAssertEqual(try hint("1.5"), "§1.5 h() has no hints: LESSONS.md §1.5 explains the ideas, and `swift run lab check Lesson1` says what is still wrong.")
    }

    func test_usageMistakes() {
        for arguments in [[], ["1.3", "x"], ["1.3", "0"], ["1.3", "2", "--again"], ["1.3", "--fast"], ["1.3", "1", "2"]] {
            XCTAssertThrowsError(try LearnerCommands.hint(arguments, kit: kit) { _ in }, "\(arguments)") {
                XCTAssertTrue($0 is UsageError, "\(arguments): \($0)")
            }
        }
        XCTAssertThrowsError(try LearnerCommands.hint(["Leson1", "2"], kit: kit) { _ in }) {
            XCTAssertTrue("\($0)".contains("Did you mean Lesson1?"), "\($0)")
        }
    }

    /// `lab hint 1.9` said "unknown lesson '1.9'. Valid lessons: …", as if a section were a lesson's name.
    func test_aSectionThatIsNoExercise_isNamedAsASection() {
        XCTAssertThrowsError(try LearnerCommands.hint(["1.9"], kit: kit) { _ in }) {
            XCTAssertTrue("\($0)".hasPrefix("§1.9 is not an exercise, so it has no hints. Lesson1's exercises are 1.3, 1.4, 1.5"), "\($0)")
        }
        XCTAssertThrowsError(try LearnerCommands.hint(["§7.1", "2"], kit: kit) { _ in }) {
            XCTAssertEqual("\($0)", "no exercise §7.1; the lessons are Lesson1")
        }
    }

    func test_theBookReadsItsFirstFormat_andLabelsTheLastHint() throws {
        try FileManager.default.createDirectory(at: kit.stateFolder, withIntermediateDirectories: true)
        try Data(#"{"1.3": 2}"#.utf8).write(to: kit.stateFolder.appendingPathComponent("hints.json"))
        XCTAssertEqual(HintBook(kit: kit).seen(for: kit.catalog.lessons[0].exercises[0]), 2)
        XCTAssertEqual(HintBook.label(2, of: 3), "hint 2 of 3")
        XCTAssertEqual(HintBook.label(3, of: 3), "hint 3 of 3 — the last one")
    }
}
