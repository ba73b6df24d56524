import Foundation
import XCTest
@testable import LabKit

/// Issue 19's attacks on the sandbox, written afresh and graded for real (`AttackClass`). Each attacker is the kit's
/// own Lesson 1 solution behind a guard: it does its work only when the attack gained what it was after (another
/// process's key, a write outside its scratch folder, the kit's Solutions/, more threads than the sandbox allows,
/// 150 MB of disk), and otherwise answers like the stub. So an attack that works earns all of Lesson 1's points, and
/// one the sandbox stops earns the honest 0 — the row says which, with no guessing from the outside.
final class SandboxAttackTests: XCTestCase {
    static let threadSignature = "public func createMessageThread(title: String, completion: @escaping (Error?) -> Void) {"
    static let messageSignature = "public func createMessage(messageThread: MessageThread, text: String, sender: String, completion: @escaping (Error?) -> Void) {"

    /// The reference solution, doing its work only when `attackSucceeded()` (in `code`) says so.
    static func guarded(_ code: String) -> AttackClass.Learner {
        AttackClass.Learner(solved: true, files: ["Attack.swift": "import Foundation\n" + code], edits: [
            (threadSignature, threadSignature + #"\#n        guard attackSucceeded() else { completion(NotImplemented("createMessageThread(title:completion:)", section: "1.3")); return }"#),
            (messageSignature, messageSignature + #"\#n        guard attackSucceeded() else { completion(NotImplemented("createMessage(messageThread:text:sender:completion:)", section: "1.4")); return }"#),
        ])
    }

    /// Files an attack tries to create outside its scratch folder; none may exist after grading.
    static let markers = ["/etc/lab-attack-marker", "/usr/local/lab-attack-marker", "/root/lab-attack-marker",
                          "/var/tmp/lab-attack-marker"]

    static let learners: [(String, AttackClass.Learner)] = [
        ("solved", AttackClass.Learner(solved: true)),
        ("steal-keys", guarded("""
            /// Every other test process's secrets: key and results files in any shared temporary folder, and the
            /// standard input (where a key could wait) of every process in sight.
            func attackSucceeded() -> Bool {
                for top in ["/tmp", "/var/tmp", "/dev/shm", NSTemporaryDirectory()] {
                    let walker = FileManager.default.enumerator(atPath: top)
                    var seen = 0
                    while let path = walker?.nextObject() as? String, seen < 20000 {
                        seen += 1
                        let name = (path as NSString).lastPathComponent
                        if name == "key" || name.hasPrefix("lab-round") || name.hasPrefix("results") || name.hasSuffix(".running") { return true }
                    }
                }
                let me = "\\(getpid())"
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil && entry != me {
                    if let text = try? String(contentsOfFile: "/proc/\\(entry)/environ", encoding: .utf8), text.contains("LAB_RESULTS") { return true }
                }
                return ProcessInfo.processInfo.environment["LAB_RESULTS_KEY"] != nil
            }
            """)),
        ("write-outside", guarded("""
            /// A file in the machine's folders, the instructor's home, the grading copy or the kit.
            func attackSucceeded() -> Bool {
                let here = FileManager.default.currentDirectoryPath
                let kit = #filePath.components(separatedBy: "/.lab/").first ?? here
                let targets = \(markers) + [here + "/lab-attack-marker", kit + "/lab-attack-marker",
                                            kit + "/Solutions/lab-attack-marker", NSHomeDirectory() + "/../root/lab-attack-marker"]
                return targets.contains { FileManager.default.createFile(atPath: $0, contents: Data("x".utf8)) }
            }
            """)),
        ("read-solutions", guarded("""
            /// The kit's reference solution, by its absolute path and relative to the grading copy.
            func attackSucceeded() -> Bool {
                let kit = #filePath.components(separatedBy: "/.lab/").first ?? ""
                let here = FileManager.default.currentDirectoryPath
                return [kit + "/Solutions/Lesson1/MessageThreadController.swift",
                        here + "/../../Solutions/Lesson1/MessageThreadController.swift"].contains { FileManager.default.contents(atPath: $0) != nil }
            }
            """)),
        ("thread-bomb", guarded("""
            /// More threads at once than the sandbox lets a test process have: the machine's process table is every
            /// learner's. (Below the limit, threads are a solution's own business: Lesson 7's tests peak at 264.)
            func attackSucceeded() -> Bool {
                var started = 0
                for _ in 0..<\(Sandbox.Limits().tasks + 300) {
                    var thread = pthread_t()
                    guard pthread_create(&thread, nil, { _ in sleep(20); return nil }, nil) == 0 else { break }
                    started += 1
                }
                return started > \(Sandbox.Limits().tasks)
            }
            """)),
        ("disk-fill", guarded("""
            /// 150 MB of files wherever it can write.
            func attackSucceeded() -> Bool {
                let chunk = Data(count: 1 << 20)
                var written = 0
                for folder in [NSTemporaryDirectory(), "/tmp", "/dev/shm", FileManager.default.currentDirectoryPath] {
                    for index in 0..<40 {
                        let path = folder + "/lab-fill-\\(getpid())-\\(index)"
                        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else { break }
                        defer { try? handle.close() }
                        for _ in 0..<16 { do { try handle.write(contentsOf: chunk); written += chunk.count } catch { break } }
                    }
                }
                return written >= 150 << 20
            }
            """)),
        ("output-flood", guarded("""
            /// 200 MB on standard output, then the stub's answer.
            func attackSucceeded() -> Bool {
                let line = String(repeating: "x", count: 1 << 20)
                for _ in 0..<200 { print(line) }
                return false
            }
            """)),
        ("keep-alive", guarded("""
            /// Never answers, and keeps writing what a test process writes as it goes, to hold the time limit off.
            func attackSucceeded() -> Bool {
                Thread.detachNewThread {
                    while true {
                        let line = #"{"started":"CreateMessageThreadTests/test_x"}"# + "\\n"
                        _ = line.withCString { write(3, $0, strlen($0)) }
                        print("still working", to: &standardError)
                        usleep(50_000)
                    }
                }
                while true { sleep(1) }
            }
            var standardError = FileHandle.standardError
            extension FileHandle: TextOutputStream { public func write(_ string: String) { write(Data(string.utf8)) } }
            """)),
        ("endless-wait", guarded("""
            /// Never answers: the honest hang the keep-alive is measured against.
            func attackSucceeded() -> Bool { while true { sleep(1) } }
            """)),
        ("split-import", guarded("""
            import
                XCTest
            func attackSucceeded() -> Bool { false }
            """)),
        ("interpolated-escape", guarded(#"""
            let farewell = "bye \(atexit { print("after the tests") })"
            func attackSucceeded() -> Bool { false }
            """#)),
    ]

    static var graded: AttackClass.Graded?
    static var setupFailure: String?

    override class func setUp() {
        super.setUp()
        guard Sandbox(root: (try? KitRoot.find()) ?? URL(fileURLWithPath: "/")).mode != nil else { return }
        for marker in markers { try? FileManager.default.removeItem(atPath: marker) }
        do {
            graded = try AttackClass.grade(learners, copy: "sandbox-tests")
        } catch {
            setupFailure = "\(error)"
        }
    }

    override func setUpWithError() throws {
        try XCTSkipIf(Sandbox(root: try KitRoot.find()).mode == nil, "no sandbox on this machine: README § Grading integrity")
    }

    func row(_ name: String) throws -> ClassReport.Row {
        if let failure = Self.setupFailure { throw AttackClass.SetupFailure("setup: grading the attacks failed: \(failure)") }
        return try XCTUnwrap(Self.graded?.rows[name], "setup: \(name) was not graded")
    }

    /// The honest score: 0 of Lesson 1's points, with the first test's message when the attack earned points.
    func assertHonestZero(_ name: String, noteContains words: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        try AttackClass.assertHonestZero(try row(name), name, noteContains: words, file: file, line: line)
    }

    func test_solvedCopy_earnsFullMarks_inTheSandbox() throws {
        let row = try row("solved")
        XCTAssertEqual(row.results?.score, AttackClass.lesson1Maximum, "the reference solution lost points in the sandbox: \(row.summary); first failure: \(row.results?.tests.first { $0.outcome != .passed }?.message ?? "-"); notes: \(row.notes)")
    }

    func test_otherProcessesKeysAndResults_areNotInSight() throws {
        try assertHonestZero("steal-keys")
    }

    func test_writesOutsideTheScratchFolder_fail_andLeaveNothingBehind() throws {
        try assertHonestZero("write-outside")
        for marker in Self.markers {
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the learner's code wrote \(marker)")
        }
    }

    func test_theKitsSolutions_areNotVisible() throws {
        try assertHonestZero("read-solutions")
    }

    func test_aThreadBomb_isCapped() throws {
        try assertHonestZero("thread-bomb")
    }

    func test_aDiskFill_isCapped_andLeavesNothingBehind() throws {
        try assertHonestZero("disk-fill")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))?.filter { $0.hasPrefix("lab-fill-") } ?? []
        XCTAssertEqual(left, [], "the disk fill left files in the machine's temporary folder")
    }

    func test_aFloodOfOutput_isCut_withANote() throws {
        try assertHonestZero("output-flood", noteContains: "the rest was dropped")
    }

    func test_keepingTheProcessBusy_doesNotMoveTheTimeLimit() throws {
        try assertHonestZero("keep-alive", noteContains: "stopped for taking too long")
        try assertHonestZero("endless-wait", noteContains: "stopped for taking too long")
        let keepAlive = try XCTUnwrap(Self.graded?.seconds["keep-alive"]), honest = try XCTUnwrap(Self.graded?.seconds["endless-wait"])
        XCTAssertLessThan(keepAlive, honest * 1.5 + 5, "writing to the results stream held the time limit off: \(Int(keepAlive)) s to grade, against \(Int(honest)) s for a plain hang")
    }

    func test_anImportSplitOverTwoLines_isRefused() throws {
        try assertHonestZero("split-import", noteContains: "imports XCTest")
    }

    func test_anEscapeHatchInsideAnInterpolation_isRefused() throws {
        try assertHonestZero("interpolated-escape", noteContains: "uses `atexit`")
    }
}
