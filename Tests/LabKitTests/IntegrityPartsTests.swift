import Foundation
import XCTest
@testable import LabKit
@testable import LabMetadata

/// The pieces grading integrity stands on: the seal, the scan of learners' code, the files taken from a checkout,
/// the lock, and `lab generate`'s care for a learner's work.
final class IntegrityPartsTests: FolderTestCase {

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func test_sha256_matchesTheStandardsTestVectors() {
        XCTAssertEqual(hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231, test case 2.
        XCTAssertEqual(hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func test_seal_verifiesWhatTheKeyWrote_andNothingChangedOrForged() throws {
        let catalog = try LessonCatalog.load(from: KitRoot.find().appendingPathComponent("lessons.json"))
        let lesson = try XCTUnwrap(catalog.lessons.first)
        let result = TestResult(name: "test_x", testClass: lesson.exercises[0].testClass, testModule: "Lesson1Tests",
                                outcome: .failed, message: "no", lesson: lesson, exercise: lesson.exercises[0])
        let seal = ResultSeal()
        let sealed = seal.sealed(result)
        XCTAssertTrue(seal.verifies(sealed))
        XCTAssertTrue(try XCTUnwrap(ResultSeal(hex: seal.hex)).verifies(sealed), "the key does not survive its file")
        var flipped = sealed
        flipped.outcome = .passed
        XCTAssertFalse(seal.verifies(flipped), "a result whose outcome was changed still verifies")
        XCTAssertFalse(ResultSeal().verifies(sealed), "another key verifies the seal")
        XCTAssertFalse(seal.verifies(result), "a result without a seal verifies")
    }

    func test_scan_acceptsEveryLessonsReferenceSolution() throws {
        let root = try KitRoot.find()
        let catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
        for lesson in catalog.lessons {
            let code = LearnerCode(lessonFolder: root.appendingPathComponent("Solutions/\(lesson.name)"),
                                   exercises: root.appendingPathComponent("Solutions"), shownAs: lesson.name)
            XCTAssertFalse(code.files.isEmpty, "\(lesson.name): no files taken")
            XCTAssertEqual(IntegrityScan(kitRoot: root, lesson: lesson.name).violations(in: code.files, folder: lesson.name), [],
                           "the scan refuses \(lesson.name)'s reference solution")
        }
    }

    func violations(_ source: String) throws -> [String] {
        try IntegrityScan(kitRoot: KitRoot.find(), lesson: "Lesson1").violations(in: ["X.swift": Data(source.utf8)], folder: "L")
    }

    func test_scan_refusesForeignImports_escapeHatches_andShadowing_butNotWordsInStringsOrComments() throws {
        XCTAssertEqual(try violations("import Foundation\n@testable import LabTestSupport").count, 1)
        XCTAssertTrue(try violations("import XCTest").first?.contains("L/X.swift:1: imports XCTest") == true)
        // The standard library's Synchronization (Mutex, Atomic) guards state in a correct Lesson 7 (ok-mutex-state).
        XCTAssertEqual(try violations("import Foundation\nimport Dispatch\nimport Synchronization"), [])
        // Observation's @Observable makes a correct Lesson 2 model (thread-observable-with-coding-keys).
        XCTAssertEqual(try violations("import Foundation\nimport Observation"), [])
        XCTAssertTrue(try violations("let x = 1\nlet y: Void = { _ = atexit { } }()").first?.contains("X.swift:2: uses `atexit`") == true)
        XCTAssertTrue(try violations("func f() { _ = Foundation.Process() }").first?.contains("`Process`") == true)
        XCTAssertTrue(try violations("public func XCTFail(_ text: String) {}").first?.contains("declares `XCTFail`") == true)
        XCTAssertTrue(try violations("extension HTTPURLResponse { public var statusCode: Int { 200 } }").first?.contains("adds `statusCode` to HTTPURLResponse") == true)
        XCTAssertEqual(try violations("""
            // atexit, fork and import XCTest in a comment
            let text = "atexit Process \\(1) import XCTest"
            /* nested /* fork */ dlsym */
            let raw = #"system "quoted" "#
            extension MessageThread { var summary: String { title } }
            private func helper(statusCode: Int) -> Bool { statusCode == 200 }
            """), [], "words in comments and strings, an extension of a lesson type, a helper: none is a violation")
    }

    /// `lab check` said "All 40 tests pass: Lesson 1 is done" for a Lesson 1 with `import Glibc`, which `lab grade`
    /// scored 0 ("not graded: … imports Glibc"): it now says so. In a class's copy (Solutions/ holding the stubs, no
    /// markers) names the learner declares cannot be told from the tests', so only imports, escape hatches and links.
    func test_check_namesWhatAGradingWouldRefuse() throws {
        try write("Tests/Lesson1Tests/T.swift", "final class T: XCTestCase { func test_a() { XCTFail(\"x\") } }")
        try write("Solutions/Lesson1/C.swift", "public func make() {\n    // BEGIN SOLUTION\n    // END SOLUTION\n    // STUB: _ = 1\n}")
        try write("Exercises/Lesson1/C.swift", "import Foundation\nimport Glibc\npublic func make() {}")
        let refusals = CheckReport.gradingRefusals(of: "Lesson1", kitRoot: folder)
        XCTAssertEqual(refusals.count, 1, "\(refusals)")
        XCTAssertTrue(refusals.first?.hasPrefix("Exercises/Lesson1/C.swift:2: imports Glibc") == true, "\(refusals)")
        try write("Exercises/Lesson1/C.swift", "import Foundation\npublic func XCTFail(_ text: String) {}")
        XCTAssertTrue(CheckReport.gradingRefusals(of: "Lesson1", kitRoot: folder).first?.contains("declares `XCTFail`") == true)
        try write("Solutions/Lesson1/C.swift", "public func make() {}")  // a class's copy: the stubs as Solutions/
        XCTAssertEqual(CheckReport.gradingRefusals(of: "Lesson1", kitRoot: folder), [])
        try write("Exercises/Lesson1/C.swift", "import Foundation\nimport Glibc")
        XCTAssertEqual(CheckReport.gradingRefusals(of: "Lesson1", kitRoot: folder).count, 1)
        try write("Exercises/Lesson1/C.swift", "import Foundation\npublic func make() {}")
        XCTAssertEqual(CheckReport.gradingRefusals(of: "Lesson1", kitRoot: folder), [])
        XCTAssertEqual(CheckReport.gradingRefusals(of: "Lesson2", kitRoot: folder), [], "no folder, nothing to say")
    }

    /// The tests `import` the lesson without `@testable`: only what is public, or open to the Objective-C runtime,
    /// can replace what they use. A correct Lesson 9 carried its own iOS 13 `URLSession.data(for:)` (internal) and
    /// was refused as if it could (own-data-for-extension).
    func test_scan_refusesOnlyMembersAndNamesTheTestsCanSee() throws {
        let own = "extension URLSession {\n    func data(for request: URLRequest) async throws -> (Data, URLResponse) { fatalError() }\n}"
        XCTAssertEqual(try violations(own), [], "an internal member of the learner's own")
        XCTAssertEqual(try violations("extension HTTPURLResponse {\n    public var x: Int { 1 }\n    var statusCode: Int { 200 }\n}"), [],
                       "an internal member after a public one")
        XCTAssertEqual(try violations("func XCTFail(_ text: String) {}\nprivate struct URLRequest {}"), [], "internal and private top-level names")
        XCTAssertEqual(try violations("public extension HTTPURLResponse { private var statusCode: Int { 200 } }"), [], "made private in a public extension")
        for exposed in ["public extension HTTPURLResponse { var statusCode: Int { 200 } }",
                        "extension HTTPURLResponse {\n    @objc open var statusCode: Int { 200 }\n}",
                        "extension HTTPURLResponse { @objc var statusCode: Int { 200 } }",
                        "@objc extension HTTPURLResponse { var statusCode: Int { 200 } }",
                        "extension HTTPURLResponse { @available(*, deprecated) public var statusCode: Int { 200 } }",
                        "public struct URLRequest {}"] {
            XCTAssertEqual(try violations(exposed).count, 1, exposed)
        }
    }

    func test_learnerCode_takesSwiftFiles_refusesLinksOutside_andLeavesOtherFilesOut() throws {
        let exercises = folder.appendingPathComponent("Exercises")
        let lesson = exercises.appendingPathComponent("Lesson1")
        try write("Exercises/Lesson1/A.swift", "let a = 1")
        try write("Exercises/Lesson1/Sub/B.swift", "let b = 1")
        try write("Exercises/Lesson1/c.c", "int c;")
        try write("Outside.swift", "let secret = 1")
        let outside = folder.appendingPathComponent("Outside.swift")
        try FileManager.default.createSymbolicLink(at: lesson.appendingPathComponent("Link.swift"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: lesson.appendingPathComponent("Inside.swift"), withDestinationURL: lesson.appendingPathComponent("A.swift"))
        let code = LearnerCode(lessonFolder: lesson, exercises: exercises, shownAs: "Exercises/Lesson1")
        XCTAssertEqual(Set(code.files.keys), ["A.swift", "Sub/B.swift", "Inside.swift"])
        XCTAssertEqual(code.refusedLinks, ["Exercises/Lesson1/Link.swift is a link to \(outside.resolvingSymlinksInPath().path), outside your Exercises/ — links are not graded: put your own code there"])
        XCTAssertTrue(code.notes.contains { $0.contains("c.c: only .swift files are graded") }, "\(code.notes)")
    }

    func test_buildErrors_inALessonsTests_belongToThatLesson_notToTheKit() {
        XCTAssertEqual(BuildErrors.lesson(of: "Exercises/Lesson2/Message.swift:3: error: x"), "Lesson2")
        XCTAssertEqual(BuildErrors.lesson(of: "Tests/Lesson1Tests/Lesson1TestCase.swift:55: error: incorrect argument label"), "Lesson1")
        XCTAssertNil(BuildErrors.lesson(of: "Sources/LabTestSupport/Fixtures.swift:3: error: x"))
    }

    func test_generate_findsTheLearnersWork_startedExercisesAndExtraFiles_butNotUntouchedStubs() throws {
        let root = folder!
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Solutions/L"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Exercises/L"), withIntermediateDirectories: true)
        let solution = """
            import LabSupport
            func f() throws -> Int {
                // BEGIN SOLUTION
                return 1
                // END SOLUTION
                // STUB: throw NotImplemented("f()", section: "1.1")
            }
            """
        try solution.write(to: root.appendingPathComponent("Solutions/L/F.swift"), atomically: true, encoding: .utf8)
        let tree = ExerciseTree(kitRoot: root)
        let stub = try XCTUnwrap(try tree.expectedExercises()["L/F.swift"])
        try stub.write(to: root.appendingPathComponent("Exercises/L/F.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try tree.learnersWork(), [], "an untouched stub is not a learner's work")
        try (stub + "\n// an old comment").write(to: root.appendingPathComponent("Exercises/L/F.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try tree.learnersWork(), [], "a stub from an older generation, all its stubs in place, is not a learner's work")
        try stub.replacingOccurrences(of: #"throw NotImplemented("f()", section: "1.1")"#, with: "return 2")
            .write(to: root.appendingPathComponent("Exercises/L/F.swift"), atomically: true, encoding: .utf8)
        try "let helper = 1".write(to: root.appendingPathComponent("Exercises/L/Helper.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try tree.learnersWork(), ["L/F.swift", "L/Helper.swift"])
    }

    func test_kitLock_makesASecondCommandWait_untilTheFirstIsDone() throws {
        // A kit of its own: under --parallel another test process may hold the real kit's lock for minutes, grading.
        try write("lessons.json", #"{"lessons": []}"#)
        let kit = try Kit(root: folder)
        var said: [String] = []
        let inside = expectation(description: "the first holder is inside")
        let release = DispatchSemaphore(value: 0)
        let first = Thread {
            try? KitLock.during(kit, say: { _ in }) {
                inside.fulfill()
                release.wait()
            }
        }
        first.start()
        wait(for: [inside], timeout: 5)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { release.signal() }
        let started = Date()
        try KitLock.during(kit, say: { said.append($0) }) {}
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.2, "the second holder did not wait")
        XCTAssertTrue(said.first?.contains("Another `lab` command is running in this kit") == true, "\(said)")
    }
}
