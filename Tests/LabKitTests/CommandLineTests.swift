import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// The `lab` command's own manners: one-line usage errors, "did you mean", lesson names, re-readable hints.
/// None of these runs `swift test`: they are fast.
final class CommandLineTests: XCTestCase {
    private func run(_ arguments: [String]) -> (status: Int32, printed: String) {
        var printed: [String] = []
        let status = LabCommandLine.run(arguments) { printed.append($0) }
        return (status, printed.joined(separator: "\n"))
    }

    // MARK: usage mistakes: one line, and where to read more

    func test_aUsageMistakePrintsOneLine_pointingAtHelp_notTheWholeHelp() {
        for arguments in [["frobnicate"], ["check"], ["check", "Lesson99"], ["check", "Lesson1", "Lesson2"], ["hint"],
                          ["watch", "--runs", "0"], ["lint", "--fast"], ["--verbose"]] {
            let (status, printed) = run(arguments)
            XCTAssertEqual(status, 2, "\(arguments)")
            XCTAssertFalse(printed.contains("\n"), "one line for \(arguments), got:\n\(printed)")
            XCTAssertTrue(printed.hasSuffix("See `lab --help`."), "\(arguments): \(printed)")
            XCTAssertFalse(printed.contains("LEARNERS"), "not the whole help for \(arguments)")
        }
    }

    /// Run in the kit with its Solutions/ gone, lab said "could not find the lab kit … run this from the kit's
    /// folder" — to an instructor standing in it. It names the folder and what is missing.
    func test_aKitWithoutSolutions_isNamed_notReportedAsNoKitAtAll() throws {
        let kit = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: kit) }
        try FileManager.default.createDirectory(at: kit.appendingPathComponent("Exercises/Lesson1"), withIntermediateDirectories: true)
        for file in ["Package.swift", "lessons.json"] { try "".write(to: kit.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        XCTAssertThrowsError(try KitRoot.find(from: kit.appendingPathComponent("Exercises/Lesson1"))) {
            XCTAssertTrue("\($0)".hasPrefix("\(kit.path) is the lab kit but has no Solutions/ folder"), "\($0)")
        }
        try FileManager.default.createDirectory(at: kit.appendingPathComponent("Solutions"), withIntermediateDirectories: true)
        XCTAssertEqual(try KitRoot.find(from: kit.appendingPathComponent("Exercises/Lesson1")).path, kit.standardizedFileURL.path)
    }

    /// `LAB_SOLUTIONS=1 swift run lab check 1` said "All 35 tests pass: Lesson 1 is done." of Solutions/, with
    /// nothing to say it was not the learner's Exercises/.
    func test_checkingWithLAB_SOLUTIONS_saysItChecksTheSolutions() {
        XCTAssertEqual(LearnerCommands.solutionsNote(environment: ["LAB_SOLUTIONS": "1"]),
                       "LAB_SOLUTIONS=1 is set: this checks the reference solutions in Solutions/, not Exercises/ (unset it to check your own code).")
        XCTAssertNil(LearnerCommands.solutionsNote(environment: [:]))
        XCTAssertNil(LearnerCommands.solutionsNote(environment: ["LAB_SOLUTIONS": "0"]))
    }

    func test_helpIsShownWhenAskedFor_alsoAfterACommand() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let (status, printed) = run(arguments)
            XCTAssertEqual(status, 0, "\(arguments)")
            XCTAssertTrue(printed.contains("LEARNERS") && printed.contains("lab hint <lesson> <n>"), "\(arguments): \(printed)")
        }
        // After a command: that command's usage (CommandHelpTests).
        for arguments in [["check", "--help"], ["hint", "-h"]] {
            let (status, printed) = run(arguments)
            XCTAssertEqual(status, 0, "\(arguments)")
            XCTAssertTrue(printed.contains("lab \(arguments[0]) <lesson>") && !printed.contains("LEARNERS"), "\(arguments): \(printed)")
        }
    }

    func test_aMistypedCommandGetsADidYouMean() {
        XCTAssertEqual(run(["chek", "Lesson1"]).printed, "lab: unknown command 'chek'. Did you mean `lab check Lesson1`? See `lab --help`.")
        XCTAssertTrue(run(["hnit"]).printed.contains("Did you mean `lab hint`?"), run(["hnit"]).printed)
        XCTAssertTrue(run(["wach"]).printed.contains("Did you mean `lab watch`?"))
        XCTAssertTrue(run(["gen"]).printed.contains("Did you mean `lab generate`?"), "a unique prefix")
        XCTAssertTrue(run(["--hlep"]).printed.contains("Did you mean `lab --help`?"))
        let far = run(["frobnicate"]).printed
        XCTAssertFalse(far.contains("Did you mean"), far)
        XCTAssertTrue(far.contains("Commands: progress, check, hint, watch, serve, grade, generate, new-lesson, lint, mutants, solutions-copy."), far)
    }

    func test_progressIsAlsoACommandsName_andPointsAtCheckForOneLesson() {
        XCTAssertEqual(run(["progress", "Lesson2"]).printed,
                       "lab progress: progress covers every lesson; for one lesson, `lab check Lesson2`. See `lab --help`.")
        XCTAssertEqual(run(["progress", "--verbose"]).printed, "lab progress: unknown option --verbose. See `lab --help`.")
    }

    func test_aLessonTypedAsACommandSuggestsCheckingIt() {
        XCTAssertEqual(run(["Lesson2"]).printed, "lab: 'Lesson2' is a lesson, not a command. Did you mean `lab check Lesson2`? See `lab --help`.")
        XCTAssertTrue(run(["3"]).printed.contains("`lab check Lesson3`"))
    }

    func test_anUnknownLessonSaysWhichExist_andGuessesOnlyWhenOneIsClose() {
        let typo = run(["check", "Leson1"]).printed
        XCTAssertTrue(typo.contains("unknown lesson 'Leson1'. Did you mean Lesson1?"), typo)
        XCTAssertTrue(typo.contains("Valid lessons: Lesson1, Lesson2"), typo)
        let far = run(["check", "Lesson99"]).printed
        XCTAssertTrue(far.contains("unknown lesson 'Lesson99'") && far.contains("Valid lessons: Lesson1"), far)
        XCTAssertFalse(run(["check", "Lesson0"]).printed.contains("Did you mean"), "Lesson0 is as close to Lesson1 as to Lesson4: no guess (and no kit has a Lesson0 to run)")
    }

    func test_spelling_closestIsUniqueOrNothing() {
        XCTAssertEqual(Spelling.distance("check", "chekc"), 1, "a swap is one edit")
        XCTAssertEqual(Spelling.distance("", "abc"), 3)
        XCTAssertEqual(Spelling.closest(to: "grde", among: LabCommandLine.commands), "grade")
        XCTAssertNil(Spelling.closest(to: "xyz", among: LabCommandLine.commands))
        XCTAssertNil(Spelling.closest(to: "lesson", among: ["Lesson1", "Lesson2"]), "two equally close: no guess")
    }

    // MARK: lesson names

    func test_everyWayOfNamingLessonOneNamesIt() throws {
        let catalog = try LessonCatalog.load(from: LessonCatalog.defaultFile)
        for name in ["Lesson1", "lesson1", "LESSON1", "L1", "l1", "1", "01", "Lesson 1", "lesson 1", "lesson-1", "lesson_1", " 1 "] {
            XCTAssertEqual(catalog.lesson(named: name)?.name, "Lesson1", "'\(name)'")
        }
        for name in ["", "Lesson", "L", "Lesson99", "0", "1.3", "lessons1"] {
            XCTAssertNil(catalog.lesson(named: name), "'\(name)'")
        }
        XCTAssertEqual(catalog.lesson(named: "L4")?.name, "Lesson4")
        XCTAssertEqual(catalog.exercise(forSection: "§1.3")?.exercise.section, "1.3")
        XCTAssertNil(catalog.exercise(forSection: "1.99"))
    }

    func test_aLessonNameTheShellSplitIsJoined() {
        XCTAssertEqual(Kit.joiningSplitLessonName(["Lesson", "1"]), ["Lesson1"])
        XCTAssertEqual(Kit.joiningSplitLessonName(["lesson", "2", "--again"]), ["lesson2", "--again"])
        XCTAssertEqual(Kit.joiningSplitLessonName(["Lesson1", "2"]), ["Lesson1", "2"], "a hint number is not part of the name")
        XCTAssertEqual(run(["check", "Lesson", "99"]).printed.contains("unknown lesson 'Lesson99'"), true)
    }

    // MARK: output reaches a pipe

    func test_everyLineReachesAPipeAsItIsWritten_notAtExit() throws {
        // stdout into a pipe is fully buffered: without a flush, `lab watch | tee log` would show nothing for minutes.
        // LabCommandLine.standardOutput is what `lab` writes with; the line must be in the pipe right after the call.
        fflush(stdout)
        let saved = dup(STDOUT_FILENO)
        let capture = Pipe()
        dup2(capture.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        setvbuf(stdout, nil, _IOFBF, 1 << 16)  // fully buffered, as stdout into a pipe is by default
        LabCommandLine.standardOutput("— watching for changes —")
        let flushedAtOnce = availableDataWithoutBlocking(capture.fileHandleForReading)
        fflush(stdout)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        setvbuf(stdout, nil, _IOLBF, 0)
        XCTAssertEqual(String(decoding: flushedAtOnce, as: UTF8.self), "— watching for changes —\n")
    }
}

/// What is in the pipe now, without waiting for more.
private func availableDataWithoutBlocking(_ handle: FileHandle) -> Data {
    let descriptor = handle.fileDescriptor
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { break }
        data.append(buffer, count: count)
    }
    return data
}
