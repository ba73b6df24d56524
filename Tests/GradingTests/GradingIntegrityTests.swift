import Foundation
import XCTest
@testable import LabKit
@testable import LabMetadata

/// Each attack a determined learner tried on `lab grade` (issue 8), graded for real (`AttackClass`: a class of
/// checkouts, each the kit's Lesson 1 stubs plus one attack, in a grading copy of its own that builds Lesson 1 only,
/// under the kit's lock). The attacks' code is the text below: it is compiled only inside that copy. Then each test
/// checks one attack's row: the grade it could not change and the note that names it.
final class GradingIntegrityTests: XCTestCase {
    typealias Attack = AttackClass.Learner

    static let controller = AttackClass.controller
    /// Writes a passing result, unsealed, for every test of Lesson 1, on the results stream (descriptor 3), with
    /// `fields` (JSON members) added to each.
    static func forger(_ fields: String = "") -> String {
        #"""
        import Foundation
        func forgePasses() {
            for testClass in ["CreateMessageThreadTests", "CreateMessageTests"] {
                for index in 0..<40 {
                    let result = "\"name\":\"test_\(index)\",\"status\":\"pass\",\"outcome\":\"passed\",\"test_code\":\"Lesson1Tests.\(testClass)/test_\(index)\",\"task_id\":1,\"lesson\":\"Lesson1\",\"exercise\":\"1.3\",\"function\":\"f\",\"points\":1,\"max_points\":1,\"score\":1,\"max_score\":1,\"seal\":\"00\"
        """# + fields + #"""
        "
                    let line = "{\"result\":{" + result + "}}\n"
                    _ = line.withCString { write(3, $0, strlen($0)) }
                }
            }
        }
        """#
    }
    static let threadStub = #"        completion(NotImplemented("createMessageThread(title:completion:)", section: "1.3"))"#
    static let messageStub = #"        completion(NotImplemented("createMessage(messageThread:text:sender:completion:)", section: "1.4"))"#

    /// The order matters for one: `stubs-after-tamper` is graded right after `tamper`.
    static let attacks: [(String, Attack)] = [
        ("atexit", Attack(files: ["Forge.swift": """
            import Foundation
            let forge: Void = { atexit { if let path = ProcessInfo.processInfo.environment["LAB_RESULTS"] { try? "{}".write(toFile: path, atomically: true, encoding: .utf8) } } }()
            """])),
        ("symlink-to-solutions", Attack(link: (controller, "Solutions/Lesson1/\(controller)"))),
        // The same, a folder at a time: a lesson folder, or the whole Exercises/, linked to the kit's Solutions/.
        ("linked-lesson-folder", Attack(linkedFolder: ("Exercises/Lesson1", "Solutions/Lesson1"))),
        ("linked-exercises-folder", Attack(linkedFolder: ("Exercises", "Solutions"))),
        // Results go to descriptor 3 (issue 19): forged lines there, unsealed, for every test, then a success.
        ("forge-results-file", Attack(files: ["Forge.swift": forger()], edits: [(threadStub, """
                forgePasses()
                completion(nil)
        """)])),
        // A sealed result's seal covers what it says, not its points or place: those must come from the kit.
        ("forge-result-fields", Attack(files: ["Forge.swift": forger(#",\"line_no\":1,\"filename\":\"Forged.swift\""#)],
                                       edits: [(threadStub, """
                forgePasses()
        \(threadStub)
        """)])),
        ("background-rewriter", Attack(files: ["Forge.swift": forger()], edits: [(threadStub, """
                DispatchQueue.global().async { while true { forgePasses(); usleep(1000) } }
        \(threadStub)
        """)])),
        ("background-process", Attack(files: ["Daemon.swift": """
            import Foundation
            func startDaemon() { let p = Foundation.Process(); p.executableURL = URL(fileURLWithPath: "/bin/sh"); try? p.run() }
            """])),
        ("xctest-observer", Attack(files: ["Observer.swift": """
            import XCTest
            final class Watcher: NSObject, XCTestObservation {}
            """])),
        ("shadowed-assertion", Attack(files: ["Shadow.swift": """
            import Foundation
            public func XCTAssertEqual<T>(_ a: @autoclosure () throws -> T, _ b: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
            """])),
        ("tamper", Attack(edits: [(threadStub, """
                let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                try? "final class Tampered {}".write(to: here.appendingPathComponent("Tests/Lesson1Tests/Tampered.swift"), atomically: true, encoding: .utf8)
        \(threadStub)
        """)])),
        ("stubs-after-tamper", Attack()),
        ("exit-halfway", Attack(edits: [(messageStub, "        exit(0)")])),
        ("endless-loop", Attack(edits: [(threadStub, "        var n = 0; while title != \"\" || n >= 0 { n &+= 1 }; completion(nil)")])),
        ("stray-c-file", Attack(files: ["helper.c": "int helper(void) { return 1; }\n"])),
        ("solved", Attack(solved: true)),  // the kit's own solution: the defences must cost an honest learner nothing
        // Not attacks: what the quick build (`QuickBuild`) must grade as SwiftPM's build would.
        ("solved-with-a-public-helper", Attack(solved: true, files: ["Extra.swift": "public func extraHelper() -> Int { 1 }\n"])),
        ("signature-changed", Attack(edits: [("public func createMessageThread(title: String,", "public func createMessageThread(named title: String,")])),
        ("does-not-compile", Attack(edits: [(threadStub, "        let broken: Int = \"not a number\"")])),
    ]

    static var rows: [String: ClassReport.Row] = [:]
    static var setupFailure: String?

    override class func setUp() {
        super.setUp()
        do {
            rows = try AttackClass.grade(attacks, copy: "integrity-tests").rows
        } catch {
            setupFailure = "\(error)"
        }
    }

    typealias SetupError = AttackClass.SetupFailure

    /// The attack's row, or a failure saying the grading itself did not happen.
    func row(_ name: String) throws -> ClassReport.Row {
        if let failure = Self.setupFailure { throw SetupError("setup: grading the attacks failed: \(failure)") }
        return try XCTUnwrap(Self.rows[name], "setup: \(name) was not graded")
    }

    func assertNothingEarned(_ name: String, noteContains words: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        try AttackClass.assertHonestZero(try row(name), name, noteContains: words, file: file, line: line)
    }

    func messages(_ name: String) throws -> [String] {
        try row(name).results?.tests.compactMap(\.message) ?? []
    }

    func test_solvedCopy_earnsFullMarks_withNoNote() throws {
        let row = try row("solved")
        XCTAssertEqual(row.results?.score, AttackClass.lesson1Maximum, "the kit's own solution lost points under the defences: \(row.summary); first failure: \(row.results?.tests.first { $0.outcome != .passed }?.message ?? "-")")
    }

    func test_solvedCopy_resultsCarryTheKitsScoresAndPlaces() throws {
        try assertFieldsAreTheKits("solved", score: 1)
    }

    func test_scoresAndPlacesRewrittenDuringATest_areTheKitsOwn() throws {
        try assertNothingEarned("forge-result-fields", noteContains: nil)
        try assertFieldsAreTheKits("forge-result-fields", score: nil)
    }

    /// Every test's score is its points (`score` each when it passed, else 0), out of 1, where the kit declares it.
    func assertFieldsAreTheKits(_ name: String, score: Double?, file: StaticString = #filePath, line: UInt = #line) throws {
        let catalog = try LessonCatalog.load(from: KitRoot.find().appendingPathComponent("lessons.json"))
        let tests = try XCTUnwrap(row(name).results?.tests, file: file, line: line)
        for test in tests {
            let place = catalog.declarationPlaces[test.classAndName]
            XCTAssertNotNil(place, "\(test.testCode) is not declared in the kit", file: file, line: line)
            XCTAssertEqual(test.filename, place?.file, "\(name): \(test.testCode)'s filename", file: file, line: line)
            XCTAssertEqual(test.lineNo, place?.line, "\(name): \(test.testCode)'s line_no", file: file, line: line)
            XCTAssertEqual(test.score, score ?? test.points, "\(name): \(test.testCode)'s score", file: file, line: line)
            XCTAssertEqual(test.score, test.points, "\(name): \(test.testCode)'s score is not its points", file: file, line: line)
            XCTAssertEqual(test.maxScore, 1, "\(name): \(test.testCode)'s max_score", file: file, line: line)
        }
    }

    func test_atexitHandler_isRefused_andEarnsNothing() throws {
        try assertNothingEarned("atexit", noteContains: "uses `atexit`")
    }

    func test_linkToTheKitsSolutions_isNotTaken_andNamedAsARefusedLink() throws {
        try assertRefusedLink("symlink-to-solutions", named: "Exercises/Lesson1/\(Self.controller) is a link to")
    }

    func test_lessonFolderLinkedToTheKitsSolutions_isNotTaken_andNamedAsARefusedLink() throws {
        try assertRefusedLink("linked-lesson-folder", named: "Exercises/Lesson1 is a link to")
    }

    func test_exercisesFolderLinkedToTheKitsSolutions_isNotTaken_andNamedAsARefusedLink() throws {
        try assertRefusedLink("linked-exercises-folder", named: "Exercises is a link to")
    }

    /// Nothing earned, and the row's note and every test's message say "refused: <the link> is a link to …, outside
    /// your Exercises/ — links are not graded", never "does not compile" (what the lesson without its files would be).
    func assertRefusedLink(_ name: String, named link: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertNothingEarned(name, noteContains: "Lesson1 refused: \(link)", file: file, line: line)
        let messages = try messages(name)
        XCTAssertFalse(messages.isEmpty, "\(name): no test results", file: file, line: line)
        XCTAssertTrue(messages.allSatisfy { $0.hasPrefix("refused: \(link)") && $0.contains("Solutions") && $0.contains("outside your Exercises/ — links are not graded") },
                      "\(name): the link is not named as a refused link in every test: \(messages.prefix(2))", file: file, line: line)
        let notes = try row(name).notes
        XCTAssertFalse(notes.contains { $0.contains("does not compile") }, "\(name): \(notes)", file: file, line: line)
    }

    func test_resultsRewrittenDuringATest_areIgnored() throws {
        try assertNothingEarned("forge-results-file", noteContains: "the kit's tests did not write")
    }

    func test_resultsRewrittenInTheBackground_areIgnored() throws {
        try assertNothingEarned("background-rewriter", noteContains: nil)
    }

    func test_startingAProcess_isRefused() throws {
        try assertNothingEarned("background-process", noteContains: "uses `Process`")
    }

    func test_importingXCTest_isRefused() throws {
        try assertNothingEarned("xctest-observer", noteContains: "imports XCTest")
    }

    func test_shadowingAnAssertion_isRefused() throws {
        try assertNothingEarned("shadowed-assertion", noteContains: "declares `XCTAssertEqual`")
    }

    func test_writingIntoTheGradingCopy_reachesNeitherTheCopyNorTheNextLearner() throws {
        try assertNothingEarned("tamper", noteContains: nil)
        try assertNothingEarned("stubs-after-tamper", noteContains: nil)
        let next = try messages("stubs-after-tamper")
        XCTAssertTrue(next.allSatisfy { $0.contains("not started yet") },
                      "the learner graded after `tamper` did not get plain not-started results: \(next.prefix(2))")
    }

    func test_exitHalfway_failsTheTestsThatNeverReported_keepingTheMaximum() throws {
        try assertNothingEarned("exit-halfway", noteContains: nil)
        let messages = try messages("exit-halfway")
        XCTAssertTrue(messages.contains { $0.contains("ended the test process") },
                      "no message says the learner's code ended the test process: \(messages.prefix(3))")
    }

    func test_endlessLoop_costsItsTests_withAMessageNamingTheTimeLimit() throws {
        try assertNothingEarned("endless-loop", noteContains: nil)
        let messages = try messages("endless-loop")
        XCTAssertTrue(messages.contains { $0.contains("took longer than 5 s") }, "no message names the time limit: \(messages.prefix(3))")
    }

    func test_aPublicDeclarationOfTheLearners_getsTestsCompiledForIt_andFullMarks() throws {
        let row = try row("solved-with-a-public-helper")
        XCTAssertEqual(row.results?.score, AttackClass.lesson1Maximum, "a solution with one more public function lost points: \(row.summary); first failure: \(row.results?.tests.first { $0.outcome != .passed }?.message ?? "-")")
        let tree = try Kit(root: KitRoot.find()).stateFolder.appendingPathComponent("integrity-tests/.build/lab-quick")
        let variants = ((try? FileManager.default.contentsOfDirectory(atPath: tree.path)) ?? []).filter {
            $0.hasPrefix("Lesson1Tests-") && FileManager.default.fileExists(atPath: tree.appendingPathComponent("\($0)/done").path)
        }
        XCTAssertGreaterThanOrEqual(variants.count, 2, "the quick build did not compile Lesson 1's tests for the stubs' interface and for this one: \(variants)")
    }

    func test_aChangedSignature_costsTheLesson_namingTheTestsThatCannotUseIt() throws {
        try assertNothingEarned("signature-changed", noteContains: "Lesson1 does not compile (the tests cannot use your code")
    }

    func test_codeThatDoesNotCompile_isNamedWithTheCompilersError() throws {
        try assertNothingEarned("does-not-compile", noteContains: "Lesson1 does not compile (Exercises/Lesson1/MessageThreadController.swift:")
        let note = try row("does-not-compile").notes.first { $0.contains("does not compile") } ?? ""
        XCTAssertTrue(note.contains("error: cannot convert value of type 'String' to specified type 'Int'"), "the note does not quote the compiler: \(note)")
        // Each test's message too: under --github-output the reporter shows the messages, not the class report's notes.
        let messages = try messages("does-not-compile")
        XCTAssertFalse(messages.isEmpty)
        XCTAssertTrue(messages.allSatisfy { $0.hasPrefix("Lesson1 does not compile: Exercises/Lesson1/MessageThreadController.swift:") && $0.contains("error: cannot convert value") },
                      "a test's message does not quote the compiler: \(messages.first ?? "-")")
    }

    func test_strayCFile_isLeftOut_andTheLessonStillGraded() throws {
        let row = try row("stray-c-file")
        XCTAssertNotNil(row.results, "a stray .c file left the row ungraded: \(row.notes)")
        XCTAssertTrue(row.notes.contains { $0.contains("only .swift files are graded") }, "no note names the .c file: \(row.notes)")
        let messages = try messages("stray-c-file")
        XCTAssertTrue(messages.allSatisfy { $0.contains("not started yet") }, "Lesson 1's stubs were not graded as not started: \(messages.prefix(2))")
    }
}
