import Foundation
import LabMetadata

/// One test process of a `LessonRun`: runs the given graded tests once and returns the results it could verify.
///
/// Everything the test process may touch is private to this round and thrown away after it: a scratch folder
/// (fresh, random name) holding the results file, the file naming the test being run, and the seal key, which the
/// test process deletes as its first test starts. Results are read only after the process — and, in the sandbox,
/// everything it started — has ended, and a result counts only when its seal verifies (`ResultSeal`).
struct TestRound {
    /// What the process did.
    var status: Int32 = 0
    var killed: String?
    var output = ""
    /// Results with a valid seal, "Class/test" → result, for tests that were asked for.
    var verified: [String: TestResult] = [:]
    /// Results in the file without a valid seal (written by something other than the kit's tests), ignored.
    var forged = 0
    /// "Class/test" of the last test the process said it was starting.
    var lastStarted: String?

    /// `binary`: the test executable to run (a `QuickBuild`'s); nil: the one SwiftPM built in `root`.
    static func run(_ tests: [String], of lessons: [String: LessonCatalog.Lesson], in root: URL, binary: URL? = nil,
                    environment: [String: String], removing removed: Set<String>, timeLimit: TimeInterval,
                    sandbox: Sandbox) throws -> TestRound {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lab-round-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let results = scratch.appendingPathComponent("results.json")
        let keyFile = scratch.appendingPathComponent("key")
        let seal = ResultSeal()
        try Data(seal.hex.utf8).write(to: keyFile)

        let qualified = tests.compactMap { key in lessons[key].map { "\($0.name)Tests.\(key)" } }
        let command = sandbox.wrap(TestCommand.arguments(root: root, binary: binary, tests: qualified))
        let process = try WatchedProcess.run(
            command, in: root,
            environment: environment.merging(["LAB_RESULTS": results.path, "LAB_RESULTS_KEY": keyFile.path]) { $1 },
            removing: removed, silence: timeLimit, progress: URL(fileURLWithPath: results.path + ".running"))

        var round = TestRound(status: process.status, killed: process.killed, output: process.output)
        let asked = Set(tests)
        for result in (try? ResultsFile.read(results))?.tests ?? [] {
            guard seal.verifies(result) else { round.forged += 1; continue }
            if asked.contains(result.classAndName), round.verified[result.classAndName] == nil {
                round.verified[result.classAndName] = result
            }
        }
        round.lastStarted = (try? String(contentsOf: URL(fileURLWithPath: results.path + ".running"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return round
    }
}

extension TestRound {
    /// Runs each group of tests in a process of its own, up to `width` at a time, starting them in the order given;
    /// each group with its round.
    static func runSideBySide(_ groups: [[String]], of lessons: [String: LessonCatalog.Lesson], in root: URL, binary: URL?,
                              environment: [String: String], removing removed: Set<String>, timeLimit: TimeInterval,
                              sandbox: Sandbox, width: Int) throws -> [(tests: [String], round: TestRound)] {
        let rounds = try ParallelGrading.run(groups.count, width: width) { index, _ -> (tests: [String], round: TestRound) in
            (groups[index], try run(groups[index], of: lessons, in: root, binary: binary, environment: environment,
                                    removing: removed, timeLimit: timeLimit, sandbox: sandbox))
        }
        return rounds.sorted { $0.tests.first ?? "" < $1.tests.first ?? "" }  // the same log order every run
    }
}

/// How a lesson's tests are started. Where SwiftPM builds the XCTest bundle as an executable (Linux), it is run
/// directly: it starts in a fifth of a second where `swift test` takes one or two, which matters because a crash or
/// a time-out means a new process for the tests after it. Elsewhere (`xctest` bundles on macOS), `swift test`.
enum TestCommand {
    /// `tests`: "Lesson1Tests.Class/test" each. `binary`: a test executable built elsewhere (`QuickBuild`).
    static func arguments(root: URL, binary: URL? = nil, tests: [String]) -> [String] {
        if let binary = binary ?? testBinary(in: root) {
            return [binary.path, tests.joined(separator: ",")]
        }
        let filter = tests.map { "^\(NSRegularExpression.escapedPattern(for: $0))$" }.joined(separator: "|")
        return ["swift", "test", "--skip-build"] + SwiftFlags.test + ["--filter", filter]
    }

    /// The built test executable, `.build/debug/<Package>PackageTests.xctest`, when it is a plain file (Linux).
    static func testBinary(in root: URL) -> URL? {
        #if os(Linux)
        let folder = root.appendingPathComponent(".build/debug")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard let name = names.first(where: { $0.hasSuffix("PackageTests.xctest") }) else { return nil }
        let binary = folder.appendingPathComponent(name)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: binary.path, isDirectory: &isFolder), !isFolder.boolValue,
              FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
        return binary
        #else
        return nil
        #endif
    }
}
