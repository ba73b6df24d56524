import Foundation
import XCTest
@testable import LabKit

/// The sandbox itself, without grading: what a process inside it can reach. (`SandboxAttackTests` grades the same
/// attacks written as a learner's Swift.)
final class SandboxTests: XCTestCase {
    var kit: URL!

    override func setUpWithError() throws {
        kit = try KitRoot.find()
        try XCTSkipIf(Sandbox(root: kit).mode == nil, "no sandbox on this machine: README § Grading integrity")
    }

    func run(_ script: String, hidden: [URL] = []) throws -> WatchedProcess.Outcome {
        try WatchedProcess.run(Sandbox(root: kit, hidden: hidden).wrap(["/bin/sh", "-c", script]), in: kit, limit: 30)
    }

    func test_aForkBomb_stopsAtTheTaskLimit() throws {
        try XCTSkipIf(Sandbox(root: kit).mode != .unprivileged, "run as root with a kit `nobody` cannot read: no process limit (README)")
        // More than the limit, so the limit is what stops it.
        let outcome = try run("(i=0; while [ $i -lt \(Sandbox.Limits().tasks + 300) ]; do sleep 3 & i=$((i + 1)); done) 2>/dev/null; set -- /proc/[0-9]*; echo $#")
        let count = Int(outcome.output.split(separator: "\n").last ?? "") ?? -1
        XCTAssertGreaterThan(count, 10, "the script did not run: \(outcome.output.suffix(300))")
        XCTAssertLessThanOrEqual(count, Sandbox.Limits().tasks, "a fork bomb ran \(count) processes at once")
    }

    func test_onlyTheScratchFolderIsWritable_andItIsPrivate() throws {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let outcome = try run("""
            echo secret > /tmp/mine
            for p in / /etc /usr/local \(Sandbox.quoted(home)) \(Sandbox.quoted(kit.path)) /var/tmp /dev/shm/..; do touch "$p/lab-sandbox-probe" 2>/dev/null && echo "WROTE $p"; done
            ls -A /tmp
            """)
        XCTAssertFalse(outcome.output.contains("WROTE"), "the sandbox let a process write outside its scratch folder: \(outcome.output)")
        // A kit under /tmp (a CI clone) is put back inside the scratch folder, in a read-only folder of its own.
        let kitFolder = Sandbox.inside(kit.path, "/tmp") ? kit.path.dropFirst(5).split(separator: "/").first.map(String.init) : nil
        let listed = outcome.output.split(separator: "\n").filter { !$0.hasPrefix("WROTE") }.map(String.init)
        XCTAssertEqual(Set(listed), Set(["mine"] + (kitFolder.map { [$0] } ?? [])),
                       "/tmp is not a private folder of its own: \(outcome.output)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/mine") && (try? String(contentsOfFile: "/tmp/mine", encoding: .utf8)) == "secret\n",
                       "the scratch file reached the machine's /tmp")
    }

    func test_theKitsSolutions_theHomeFolder_andHiddenFolders_areNotVisible() throws {
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("lab-other-learner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: other) }
        try "code".write(to: other.appendingPathComponent("Work.swift"), atomically: true, encoding: .utf8)
        let outcome = try run("for d in Solutions \(Sandbox.quoted(other.path)) /root; do ls -A \"$d\" 2>/dev/null; done; test -r Package.swift && echo kit-readable", hidden: [other])
        XCTAssertEqual(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines), "kit-readable",
                       "something hidden was listed, or the kit itself was not readable: \(outcome.output)")
    }

    func test_aFileLargerThanTheLimit_isCut_withoutKillingTheProcess() throws {
        let outcome = try run("head -c 20000000 /dev/zero > /tmp/big; echo status=$?; wc -c < /tmp/big")
        let lines = outcome.output.split(separator: "\n")
        XCTAssertEqual(lines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, Sandbox.Limits.fileSize,
                       "a 20 MB file was not cut at the limit: \(outcome.output)")
    }

    func test_aCopyUnderTmp_isPutBackReadOnly_withNothingWritableAroundIt() throws {
        let outer = URL(fileURLWithPath: "/tmp/lab-sandbox-\(UUID().uuidString)")
        let copy = outer.appendingPathComponent("kit/.lab/grading")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outer) }
        try "// Package".write(to: copy.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let script = """
            test -r Package.swift && echo readable
            for p in . .. ../.. \(Sandbox.quoted(outer.path)) /tmp; do touch "$p/lab-sandbox-probe" 2>/dev/null && echo "WROTE $p"; done
            """
        let outcome = try WatchedProcess.run(Sandbox(root: copy).wrap(["/bin/sh", "-c", script]), in: copy, limit: 30)
        XCTAssertTrue(outcome.output.contains("readable"), "the copy under /tmp was not put back: \(outcome.output)")
        XCTAssertEqual(outcome.output.components(separatedBy: "WROTE").count - 1, 1,
                       "only /tmp itself (the private scratch folder) may be written: \(outcome.output)")
        XCTAssertTrue(outcome.output.contains("WROTE /tmp"), "the scratch folder is not writable: \(outcome.output)")
    }
}
