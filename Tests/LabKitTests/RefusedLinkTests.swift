import Foundation
import XCTest
@testable import LabKit

/// What `lab grade` takes through a link: a link out of the learner's Exercises/ — a file, a lesson folder, or
/// Exercises/ itself — is refused and named as a link (on the instructor's machine it would lead to the kit's
/// Solutions/), never taken and never left to look like code that "does not compile". Fast: no grading.
final class RefusedLinkTests: FolderTestCase {
    var checkout: URL { folder.appendingPathComponent("learner") }
    var exercises: URL { checkout.appendingPathComponent("Exercises") }
    var solutions: URL { folder.appendingPathComponent("kit/Solutions") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("kit/Solutions/Lesson1/Controller.swift", "let solved = 1")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
    }

    func code() -> LearnerCode {
        LearnerCode(lessonFolder: exercises.appendingPathComponent("Lesson1"), exercises: exercises, shownAs: "Exercises/Lesson1")
    }

    func test_aLessonFolderLinkedOutside_isRefused_namingTheLink() throws {
        try FileManager.default.createDirectory(at: exercises, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: exercises.appendingPathComponent("Lesson1"),
                                                   withDestinationURL: solutions.appendingPathComponent("Lesson1"))
        let code = code()
        XCTAssertEqual(code.files, [:], "the kit's solution was taken through a linked lesson folder")
        XCTAssertEqual(code.refusedLink, "Exercises/Lesson1 is a link to \(solutions.resolvingSymlinksInPath().path)/Lesson1, outside your Exercises/ — links are not graded: put your own code there")
    }

    func test_anExercisesFolderLinkedOutside_isRefused_namingExercises() throws {
        try FileManager.default.createSymbolicLink(at: exercises, withDestinationURL: solutions)
        let code = code()
        XCTAssertEqual(code.files, [:], "the kit's solution was taken through a linked Exercises/")
        XCTAssertEqual(code.refusedLink, "Exercises is a link to \(solutions.resolvingSymlinksInPath().path), outside your Exercises/ — links are not graded: put your own code there")
    }

    func test_aLessonFolderLinkedInsideExercises_isTaken() throws {
        try write("learner/Exercises/Mine/Controller.swift", "let mine = 1")
        try FileManager.default.createSymbolicLink(at: exercises.appendingPathComponent("Lesson1"),
                                                   withDestinationURL: exercises.appendingPathComponent("Mine"))
        let code = code()
        XCTAssertEqual(code.refusedLinks, [])
        XCTAssertEqual(code.files, ["Controller.swift": Data("let mine = 1".utf8)], "a link within the learner's own Exercises/ is theirs")
    }

    /// A link that leads nowhere (a dangling one, a loop) and a Package.swift are left out, and said: before, a
    /// learner's file that "is there" vanished from the grade without a word in the notes.
    func test_aDanglingLink_aLoop_andAManifest_areLeftOut_withANote() throws {
        try write("learner/Exercises/Lesson1/Controller.swift", "let mine = 1")
        try write("learner/Exercises/Lesson1/Package.swift", "// swift-tools-version:5.9")
        let lesson = exercises.appendingPathComponent("Lesson1")
        try FileManager.default.createSymbolicLink(atPath: lesson.appendingPathComponent("Gone.swift").path, withDestinationPath: "nowhere.swift")
        try FileManager.default.createSymbolicLink(atPath: lesson.appendingPathComponent("Loop.swift").path, withDestinationPath: "Loop.swift")
        let code = code()
        XCTAssertEqual(code.files, ["Controller.swift": Data("let mine = 1".utf8)])
        XCTAssertEqual(code.refusedLinks, [])
        XCTAssertEqual(Set(code.notes), ["Exercises/Lesson1/Gone.swift is a link that leads to no file: not taken",
                                         "Exercises/Lesson1/Loop.swift is a link that leads to no file: not taken",
                                         "Exercises/Lesson1/Package.swift: a package manifest is not a lesson's code, not taken"])
    }

    /// A learner's file moved up to Exercises/, or a lesson folder named `lesson1`, was never graded and never named:
    /// the row said only "does not compile" or "no Exercises/Lesson1".
    func test_whatSitsOutsideEveryLessonFolder_isNamed() throws {
        try write("learner/Exercises/MessageThreadController.swift", "let mine = 1")
        try write("learner/Exercises/Lesson2-old/Model.swift", "let mine = 2")
        try write("learner/Exercises/lesson2/Model.swift", "let mine = 2")  // named where Lesson2 is missing
        try write("learner/Exercises/Lesson1/Controller.swift", "let mine = 1")
        try write("learner/Exercises/.DS_Store", "")
        XCTAssertEqual(GradingWorkspace.strayEntries(try FileManager.default.contentsOfDirectory(atPath: exercises.path), in: exercises,
                                                       lessons: ["Lesson1", "Lesson2"]),
                       ["Exercises/Lesson2-old/ is not a lesson folder (they are named Lesson1, Lesson2, …): not graded",
                        "Exercises/MessageThreadController.swift is in no lesson folder: not graded"])
    }

    /// A `lesson1` folder beside `Lesson1` (the learner's controller moved into it) was named nowhere: the row said
    /// only "Lesson1 does not compile (… or a file is missing?)". It is named now, with the folder to move it to.
    func test_aLookalikeFolderBesideTheLessonFolder_isNamed() throws {
        try write("learner/Exercises/Lesson1/Model.swift", "let mine = 1")
        try write("learner/Exercises/lesson1/MyController.swift", "let mine = 1")
        let entries = try FileManager.default.contentsOfDirectory(atPath: exercises.path)
        guard entries.count == 2 else { throw XCTSkip("this file system does not tell lesson1 from Lesson1") }
        XCTAssertEqual(GradingWorkspace.strayEntries(entries, in: exercises, lessons: ["Lesson1", "Lesson2"]),
                       ["Exercises/lesson1/ is not graded: only Exercises/Lesson1/ is (a folder's name must match in capitals too): move its files there"])
    }

    /// `lab grade <checkout>/Exercises` (or a lesson folder) said "not a lab checkout: it has no Exercises/ folder",
    /// and a file was "not a checkout" too: each row now says what it is, and which folder to give.
    func test_aPathThatIsNoCheckout_saysWhatItIs_andWhichFolderToGive() throws {
        try write("learner/Exercises/Lesson1/Controller.swift", "let mine = 1")
        try write("notes.txt", "x")
        let checkoutPath = checkout.standardizedFileURL.path
        XCTAssertEqual(GradingWorkspace.whyNotACheckout(exercises), "not a lab checkout but a folder inside one: give \(checkoutPath), the folder that holds Exercises/")
        XCTAssertEqual(GradingWorkspace.whyNotACheckout(exercises.appendingPathComponent("Lesson1")),
                       "not a lab checkout but a folder inside one: give \(checkoutPath), the folder that holds Exercises/")
        XCTAssertEqual(GradingWorkspace.whyNotACheckout(folder.appendingPathComponent("notes.txt")), "not a lab checkout: it is a file, not a folder")
        XCTAssertEqual(GradingWorkspace.whyNotACheckout(folder.appendingPathComponent("nobody")), "not found: no such folder")
        XCTAssertEqual(GradingWorkspace.whyNotACheckout(folder), "not a lab checkout: it has no Exercises/ folder")
    }
}
