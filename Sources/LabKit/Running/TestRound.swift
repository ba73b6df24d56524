import Foundation
import LabMetadata

/// One test process of a `LessonRun`: runs the given graded tests once and returns the results it could verify.
///
/// Nothing the test process is handed has a name another process could find: its seal key comes on standard input
/// (read once, as its first test starts, before any learner code has run), and it writes its results stream
/// (`ResultsStream`) to descriptor 3, a file in a scratch folder of `lab`'s that the sandbox does not show. Results
/// are read only after the process — and, in the sandbox, everything it started — has ended, and a result counts
/// only when its seal verifies (`ResultSeal`). The time limit is `lab`'s clock, moved on only by sealed results: a
/// process that writes no new one for `timeLimit` is stopped, whatever else it writes, and none runs past
/// `deadline`.
struct TestRound {
    /// What the process did.
    var status: Int32 = 0
    var killed: String?
    var output = ""
    /// Bytes of output dropped (`WatchedProcess.outputKept`).
    var droppedOutput = 0
    /// Results with a valid seal, "Class/test" → result, for tests that were asked for.
    var verified: [String: TestResult] = [:]
    /// Results in the stream without a valid seal (written by something other than the kit's tests), ignored.
    var forged = 0
    /// "Class/test" of the last test the process said it was starting.
    var lastStarted: String?

    /// The most a process of `count` tests may take, whatever it reports: each test its `timeLimit`, and the
    /// process a few seconds to start.
    static func deadline(tests count: Int, timeLimit: TimeInterval) -> TimeInterval {
        startup + timeLimit * Double(max(count, 1))
    }

    /// A test process's time to start, before its first test's `timeLimit` begins: loading the test binary and its
    /// first URLSession take well under a second, but several on a machine loaded many times over its cores (a
    /// class graded while other builds run), where the first test was stopped as "longer than 5 s" although it
    /// needed 0.1 s.
    static let startup: TimeInterval = 5

    /// `binary`: the test executable to run (a `QuickBuild`'s); nil: the one SwiftPM built in `root`.
    static func run(_ tests: [String], of lessons: [String: LessonCatalog.Lesson], in root: URL, binary: URL? = nil,
                    environment: [String: String], removing removed: Set<String>, timeLimit: TimeInterval,
                    sandbox: Sandbox) throws -> TestRound {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lab-round-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stream = scratch.appendingPathComponent("results.jsonl")
        let seal = ResultSeal()

        let qualified = tests.compactMap { key in lessons[key].map { "\($0.name)Tests.\(key)" } }
        let deadline = deadline(tests: tests.count, timeLimit: timeLimit)
        var sandbox = sandbox
        sandbox.limits.cpuSeconds = Int(deadline * 2) + 10
        let command = sandbox.wrap(TestCommand.arguments(root: root, binary: binary, tests: qualified))
        var watch = SealedProgress(stream: stream, seal: seal)
        PhaseTimes.mark("tests start: \(tests.count), first \(tests.first ?? "")")
        defer { PhaseTimes.mark("tests end: \(tests.count), first \(tests.first ?? "")") }
        let process = try WatchedProcess.run(
            command, in: root, environment: environment.merging(["LAB_RESULTS_STREAM": "3"]) { $1 },
            removing: removed.union(["LAB_RESULTS"]), silence: timeLimit, startup: Self.startup, progress: { watch.count() },
            limit: deadline, input: Data((seal.hex + "\n").utf8), descriptor3: stream)

        var round = TestRound(status: process.status, killed: process.killed, output: process.output,
                              droppedOutput: process.droppedOutput)
        let asked = Set(tests)
        for line in ResultsStream.decode((try? Data(contentsOf: stream)) ?? Data()) {
            if let started = line.started, asked.contains(started) { round.lastStarted = started }
            guard let result = line.result else { continue }
            guard seal.verifies(result) else { round.forged += 1; continue }
            if asked.contains(result.classAndName), round.verified[result.classAndName] == nil {
                round.verified[result.classAndName] = result
            }
        }
        return round
    }
}

/// How many sealed results a running test process has written so far: its stream is read as it grows, from where
/// the last look stopped, up to `WatchedProcess`'s limit on a file's size.
struct SealedProgress {
    let stream: URL
    let seal: ResultSeal
    private var offset: UInt64 = 0
    private var pending = Data()
    private var sealed = 0

    init(stream: URL, seal: ResultSeal) {
        self.stream = stream
        self.seal = seal
    }

    mutating func count() -> Int {
        guard let handle = try? FileHandle(forReadingFrom: stream) else { return sealed }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        let data = handle.readData(ofLength: 1 << 20)
        offset += UInt64(data.count)
        pending.append(data)
        guard let lastNewline = pending.lastIndex(of: 0x0A) else { return sealed }
        let whole = pending[pending.startIndex...lastNewline]
        sealed += ResultsStream.decode(Data(whole)).filter { $0.result.map(seal.verifies) ?? false }.count
        pending = Data(pending[pending.index(after: lastNewline)...])
        return sealed
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
