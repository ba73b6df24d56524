import Foundation
import LabMetadata

/// Builds a kit folder (`QuickBuild` where it can, else SwiftPM) and runs lessons' graded tests in it, gathering
/// their results.
///
/// The graded tests are known before anything of the learner's runs: every `func test…` of the test classes that
/// lessons.json names, in the kit's own Tests/ (`LessonCatalog.declarationOrder`). Each gets a result, whatever the
/// learner's code does. The tests run in pieces (of an exercise, or short exercises together), a process per piece,
/// side by side (`TestSchedule`), in a sandbox where there is one (`Sandbox`), and report through sealed results
/// (`TestRound`). A test that kills its process (a force unwrap of nil, a call to `exit`) or runs past `timeLimit` (an
/// endless loop) is failed with a message saying which, and the tests after it run again in a new process — so one
/// crash or hang costs that test only. A test that never reported a verifiable result fails, with that said.
public struct LessonRun {
    public let root: URL
    public let catalog: LessonCatalog
    /// Extra environment for `swift`, and variables to drop from it.
    public var environment: [String: String] = [:]
    /// Extra `swift build` arguments (`SwiftFlags.privateCopy` in the kit's private copies).
    public var buildFlags: [String] = []
    /// Whether the learner's lessons may be built without compiling the kit's tests again (`QuickBuild`: the kit's
    /// private copies, on Linux); when it cannot, SwiftPM builds.
    var quick = false
    /// The tests' times (`TestSchedule`): the kit's `Tests/test-times.json`; nil: none known.
    public var timesFile: URL?
    /// `LAB_RECORD_TIMES=1`: the times of the tests that pass are written to `timesFile` — for the kit's author, on
    /// the reference solutions (README, "Adding a lesson"). Otherwise the file is only read.
    static let recordsTimes = ProcessInfo.processInfo.environment["LAB_RECORD_TIMES"] == "1"
    /// How many test processes run at once.
    public var width = 8
    /// About how long each test process is expected to run (`TestSchedule`).
    public var pieceSeconds = 1.0
    public var removedEnvironment: Set<String> = []
    /// A test still running after this long is stopped: the helpers' longest wait is 2 s.
    public var timeLimit: TimeInterval = 5
    /// The limit for the other tests of an exercise once one of its tests was stopped (they then run side by side):
    /// its function most likely never returns, and a class should not wait 5 s for each of its tests.
    public var timeLimitAfterStop: TimeInterval = 3
    /// What the tests must not see at all (the kit when `root` is a private copy of it, the learners' folders,
    /// report folders); `root` itself stays visible, read-only (`Sandbox`).
    var hidden: [URL] = []

    public init(root: URL, catalog: LessonCatalog) {
        self.root = root
        self.catalog = catalog
    }

    /// What one run found.
    public struct Outcome {
        public var results: LabResults
        /// Compiler errors when the code did not build ("Exercises/Lesson1/X.swift:12: error: …"); empty otherwise.
        public var buildErrors: [String]
        /// The whole output of the build and the test runs.
        public var log: String
        /// What a report should say about how the run went: results that were forged, no sandbox.
        public var notes: [String] = []
    }

    /// Builds, then runs every graded test of `lessons`; results also go to `resultsFile`.
    public func run(_ lessons: [LessonCatalog.Lesson], resultsFile: URL) throws -> Outcome {
        try? FileManager.default.removeItem(at: resultsFile)
        var log = ""
        let sandbox = Sandbox(root: root, hidden: hidden)
        // How the sandbox can be made here is tried (a process of its own) while the code builds: it does not
        // depend on the build, and the tests need it as soon as the build is done.
        let probing = DispatchGroup()
        DispatchQueue.global().async(group: probing) { _ = sandbox.mode }
        defer { probing.wait() }
        let quickBuild = quick ? QuickBuild(root: root, allLessons: catalog.lessons.map(\.name), environment: environment,
                                            flags: buildFlags) : nil
        var binary: URL?
        PhaseTimes.mark(quickBuild == nil ? "build" : "quick build")
        defer { PhaseTimes.mark("run done") }
        switch quickBuild?.build(log: &log) ?? .cannot {
        case .built(let executable):
            binary = executable
        case .doesNotCompile(let output, let errors) where BuildErrors.areAllInExercises(errors):
            log += output
            return try doesNotCompile(errors, stopped: nil, status: 1, log: log, resultsFile: resultsFile)
        case .doesNotCompile, .cannot:  // anything but the learner's own errors is for SwiftPM to build and say
            let what = Self.testProduct(in: root).map { ["--product", $0] } ?? ["--build-tests"]
            PhaseTimes.mark("swift build \(what.joined(separator: " "))")
            let build = try WatchedProcess.run(["swift", "build"] + what + buildFlags, in: root, environment: environment,
                                               removing: removedEnvironment)
            log += build.output
            if build.status != 0 {
                return try doesNotCompile(BuildErrors.find(in: build.output, root: root), stopped: build.killed,
                                          status: build.status, log: log, resultsFile: resultsFile)
            }
            quickBuild?.arm()
        }
        PhaseTimes.mark("built")
        var missing = gradedTests(of: lessons)
        var results: [TestResult] = []
        var forged = 0
        PhaseTimes.mark("sandbox: \(sandbox.mode.map { "\($0)" } ?? "none")")
        var droppedOutput = 0
        // Each round runs what has no result yet; a process that ends early leaves a culprit, which is charged and
        // skipped. At most one round per test.
        var schedule = TestSchedule(file: timesFile, pieceSeconds: pieceSeconds)
        schedule.notStarted = TestSchedule.stubbedExercises(lessons, codeIn: root.appendingPathComponent(codeFolder))
        defer { if Self.recordsTimes { schedule.learn(from: log, keepingIn: timesFile) } }
        var stuckExercises = Set<String>()  // exercises with a test stopped for time: the rest get `timeLimitAfterStop`
        var runAgain = Set<String>()  // tests whose process ended without a word (`endedWithoutReport`)
        var ranAfterLeftovers = Set<String>()  // tests whose process ended between two tests (`endedBetweenTests`)
        // At most one round per test, and one more per test run again.
        for _ in 0...(2 * missing.count) where !missing.isEmpty {
            let stuck = missing.filter { stuckExercises.contains($0.value.exercise.section) }
            // Pieces of each exercise's tests, each in a process of its own, side by side (`TestSchedule`). The other
            // tests of an exercise whose test was stopped for time run each alone, with a shorter limit — a function
            // that never returns costs its exercise seconds, not a minute.
            let groups = stuck.isEmpty
                ? schedule.pieces(of: Array(missing.keys), exercise: { missing[$0]!.exercise.section }, order: catalog.declarationOrder)
                : stuck.keys.sorted().map { [$0] }
            let limit = stuck.isEmpty ? timeLimit : timeLimitAfterStop
            // A stuck exercise's tests all at once: an endless loop spins until its limit whether it shares the cores
            // or not, so running them together costs the machine one limit's worth of spinning instead of several.
            let rounds = try TestRound.runSideBySide(groups, of: missing.mapValues(\.lesson), in: root, binary: binary,
                                                     environment: environment,
                                                     removing: removedEnvironment, timeLimit: limit, sandbox: sandbox,
                                                     width: stuck.isEmpty ? width : min(max(width, groups.count), 32))
            let asked = missing
            for (tests, round) in rounds {
                log += round.output
                forged += round.forged
                droppedOutput += round.droppedOutput
                var unreported = Set(tests)
                for (key, result) in round.verified {
                    guard let (lesson, exercise) = missing.removeValue(forKey: key) else { continue }
                    unreported.remove(key)
                    results.append(trusted(result, lesson: lesson, exercise: exercise))
                }
                guard !unreported.isEmpty else { continue }
                let culprit = round.lastStarted.flatMap { unreported.contains($0) ? $0 : nil }
                    ?? XCTestLog.unfinished(in: round.output).first { unreported.contains($0) }
                // A process killed from outside while a test ran (the machine short of memory) leaves no crash report,
                // and the sandbox's `unshare` turns a SIGKILL into exit status 1, which read as the learner's `exit()`.
                // A test whose process ended without Swift saying why runs again, once; ending so a second time is
                // charged (a learner's `exit()` then costs one more process, not its verdict).
                if let culprit = culprit, round.killed == nil, Self.endedWithoutReport(output: round.output),
                   runAgain.insert(culprit).inserted {
                    continue
                }
                // Ended after one test reported and before the next started: work a test left running (most likely
                // the last one's) ended it. That test is charged if it passed; the tests that never ran run again, once.
                if culprit == nil, let last = Self.endedBetweenTests(round, unreported: unreported),
                   unreported.isDisjoint(with: ranAfterLeftovers) {
                    ranAfterLeftovers.formUnion(unreported)
                    if let index = results.firstIndex(where: { $0.classAndName == last && $0.outcome == .passed }),
                       let (lesson, exercise) = asked[last] {
                        results[index] = endedAfterPassing(last, lesson: lesson, exercise: exercise, round: round)
                    }
                    continue
                }
                // No culprit: the process ended before a test it was given started, or after they all had (its
                // results unreadable or forged). Its tests that did not report are charged; a new round gains nothing.
                // Otherwise the culprit is charged and the tests after it run again in the next round.
                for key in culprit.map({ [$0] }) ?? unreported.sorted() {
                    guard let (lesson, exercise) = missing.removeValue(forKey: key) else { continue }
                    if round.killed != nil { stuckExercises.insert(exercise.section) }
                    // Its tests end their process: they do not simply fail on the stub (code above its line crashes,
                    // exits or hangs), so the rest are cut as tests of unknown length again, side by side.
                    schedule.notStarted.remove(exercise.section)
                    results.append(stopped(key, lesson: lesson, exercise: exercise, round: round, started: culprit != nil,
                                                timeLimit: limit))
                }
            }
        }
        var notes: [String] = []
        if forged > 0 {
            notes.append("\(forged) result\(forged == 1 ? " was" : "s were") found that the kit's tests did not write: ignored, and those tests graded as failed")
        }
        if droppedOutput > 0 {
            notes.append("the tests printed \(droppedOutput / 1_000_000 > 0 ? "\(droppedOutput / 1_000_000) MB" : "\(droppedOutput) bytes") more than the \(WatchedProcess.outputKept >> 20) MB kept of each test process: the rest was dropped (does your code print in a loop?)")
        }
        if let note = sandbox.unavailableNote { notes.append(note) }
        let graded = LabResults(tests: results, catalog: catalog)
        try ResultsFile.write(graded, to: resultsFile)
        return Outcome(results: graded, buildErrors: [], log: log, notes: notes)
    }

    /// The tests' product SwiftPM built here before ("<Package>PackageTests"), when there is one: building it alone
    /// builds everything the tests need, and not the rest (`swift run board`, linked again whenever a lesson it is built
    /// on changes). The first build in a folder builds everything (`--build-tests`).
    static func testProduct(in root: URL) -> String? {
        let bin = root.appendingPathComponent(".build/debug")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bin.path)) ?? []
        return names.first { $0.hasSuffix("PackageTests.product") }.map { String($0.dropLast(".product".count)) }
    }

    private func doesNotCompile(_ errors: [String], stopped: String?, status: Int32, log: String,
                                resultsFile: URL) throws -> Outcome {
        let reason = errors.first ?? stopped.map { "the build was stopped (\($0))" } ?? "swift build failed (exit status \(status))"
        let results = LabResults(tests: [], catalog: catalog, errorMessage: "does not compile: \(reason)")
        try ResultsFile.write(results, to: resultsFile)
        return Outcome(results: results, buildErrors: errors, log: log)
    }

    /// Where the lessons' code is built from, as Package.swift decides it: Solutions/ when `LAB_SOLUTIONS=1` reaches
    /// SwiftPM, else Exercises/.
    static func codeFolder(solutions: String?) -> String { solutions == "1" ? "Solutions" : "Exercises" }

    /// `codeFolder(solutions:)` for this run: `LAB_SOLUTIONS` from `environment`, or `lab`'s own unless it is removed.
    var codeFolder: String {
        Self.codeFolder(solutions: environment["LAB_SOLUTIONS"]
            ?? (removedEnvironment.contains("LAB_SOLUTIONS") ? nil : ProcessInfo.processInfo.environment["LAB_SOLUTIONS"]))
    }

    /// Every graded test of `lessons`, "Class/test" → its lesson and exercise: the `func test…` methods of the
    /// classes lessons.json names, as the kit's own Tests/ declares them (never the learner's build).
    func gradedTests(of lessons: [LessonCatalog.Lesson]) -> [String: (lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise)] {
        var graded: [String: (LessonCatalog.Lesson, LessonCatalog.Exercise)] = [:]
        for key in catalog.declarationOrder.keys {
            guard let testClass = key.split(separator: "/").first.map(String.init),
                  let (lesson, exercise) = catalog.exercise(forTestClass: testClass),
                  lessons.contains(where: { $0.name == lesson.name }) else { continue }
            graded[key] = (lesson, exercise)
        }
        return graded
    }

    /// A verified result, rebuilt from what it says with the kit's own points and test places: nothing but its
    /// outcome, message and stubs comes from the test process.
    private func trusted(_ result: TestResult, lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise) -> TestResult {
        let parts = result.classAndName.split(separator: "/").map(String.init)
        return TestResult(name: parts.last ?? result.name, testClass: parts.first ?? "", testModule: "\(lesson.name)Tests",
                          outcome: result.outcome, message: result.message, lesson: lesson, exercise: exercise,
                          stubs: result.stubs ?? [], place: catalog.declarationPlaces[result.classAndName])
    }

    /// The result of a test that passed, after which its process crashed or ended before the next test started.
    private func endedAfterPassing(_ key: String, lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise,
                                   round: TestRound) -> TestResult {
        let how = round.status > 128
            ? "crashed\(Self.crashExplanation(output: round.output, status: round.status))"
            : "ended (exit status \(round.status)): a call to exit()?"
        let message = "this test passed, but then, before the next test started, the test process \(how) Work your code left running after the function returned (a completion called late, a `Task`, a timer, a request sent again) is still your code: it must not end the program. (The tests after it ran again without it.) See LESSONS.md §\(exercise.section)."
        return failed(key, message: message, lesson: lesson, exercise: exercise)
    }

    /// A failed result of `key` ("Class/test") with `message`, for a test the kit charged without its own report.
    private func failed(_ key: String, message: String, lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise) -> TestResult {
        let parts = key.split(separator: "/").map(String.init)
        return TestResult(name: parts.last ?? key, testClass: parts.first ?? "", testModule: "\(lesson.name)Tests",
                          outcome: .failed, message: DiagnosisLine.shape(message), lesson: lesson, exercise: exercise,
                          place: catalog.declarationPlaces[key])
    }

    /// The result of a test that did not report: its process was stopped, crashed or exited while it ran, or ended
    /// before it (`started` false).
    private func stopped(_ key: String, lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise,
                                round: TestRound, started: Bool, timeLimit: TimeInterval) -> TestResult {
        let see = "See LESSONS.md §\(exercise.section)."
        let message: String
        if !started {
            message = "this test reported no result the kit could trust: the test process ended (exit status \(round.status)) before it ran or without a result sealed by the kit's tests — does your code call exit(), or write the results file? \(see)"
        } else if round.killed != nil {
            message = "this test took longer than \(Int(timeLimit)) s and was stopped (no test here needs more than 2 s) — an endless loop, or a wait that never ends: a long `sleep`, a semaphore that is never signalled, a lock taken again before it was unlocked (`lock()` then a `return` with no `unlock()`: use `defer { lock.unlock() }`), or a wait on the main thread for a block sent to the main queue (`DispatchQueue.main.async`, the main actor), which cannot run while the main thread waits, or shared state (a dictionary, an array) changed from several threads at once with no lock, which a data race can leave looping for ever? The other tests ran on without it. \(see)"
        } else if round.status > 128 {
            message = "the test crashed\(Self.crashExplanation(output: round.output, status: round.status)) (The other tests ran on without it.) \(see)"
        } else {
            message = "your code ended the test process during this test (exit status \(round.status)): a call to exit()? A function must return (or call its completion), never end the program. (The other tests ran on without it.) \(see)"
        }
        return failed(key, message: message, lesson: lesson, exercise: exercise)
    }
}

extension LessonRun {
    /// What follows "the test crashed" for a test process that ended with `status` (above 128: a signal): Swift's own
    /// crash report when the output holds one, else its "Fatal error" line. With neither, the signal is named: a
    /// reference solution graded once as "your code stopped the program", with nothing to tell why, and a process
    /// killed from outside (SIGKILL: out of memory; SIGXCPU: the sandbox's CPU time) is not the code's own crash.
    static func crashExplanation(output: String, status: Int32) -> String {
        let fault = "often a force unwrap (!) of nil, an index out of range, or a fatalError."
        if let report = CrashReport(output: output) { return report.explanation }
        if let fatal = fatalErrorLine(in: output) {
            return " (\(fatal.trimmingCharacters(in: .whitespaces))): your code stopped the program — \(fault)"
        }
        let signal = status - 128
        let names: [Int32: String] = [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
                                      11: "SIGSEGV", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ"]
        let named = "signal \(signal)\(names[signal].map { ", \($0)" } ?? "")"
        switch signal {
        case 9:
            return " (\(named), with no crash report): the process was killed from outside — the machine short of memory, or a limit of the grading sandbox; your code may use too much memory, or the machine was loaded: run it again to see whether it repeats."
        case 24:
            return " (\(named)): the process used up its CPU time — an endless loop on several threads, or a busy wait?"
        case 25:
            return " (\(named)): the process wrote a file larger than the sandbox allows (8 MB) — output in a loop?"
        default:
            return " (\(named), with no crash report): your code stopped the program — \(fault)"
        }
    }

    /// The test after whose result a round's process ended, before the next of its tests started: the last test it
    /// started had reported, others had not, and nothing stopped it for time. Nil otherwise.
    static func endedBetweenTests(_ round: TestRound, unreported: Set<String>) -> String? {
        guard round.killed == nil, !unreported.isEmpty, let last = round.lastStarted,
              round.verified[last] != nil, !unreported.contains(last) else { return nil }
        return last
    }

    /// Whether a process's output holds neither Swift's crash report nor its "Fatal error" line: what a kill from
    /// outside leaves (a learner's own crash in Swift says why it stopped).
    static func endedWithoutReport(output: String) -> Bool {
        CrashReport(output: output) == nil && fatalErrorLine(in: output) == nil
    }

    private static func fatalErrorLine(in output: String) -> Substring? {
        output.split(separator: "\n").first { line in
            line.contains("Fatal error") || line.contains(CrashReport.castFailure) || CrashReport.stopMarkers.contains { line.contains($0) }
        }
    }
}

/// Reads XCTest's console output (Linux: `Test Case 'Class.test' started`; Darwin: `Test Case '-[Module.Class test]' started.`).
enum XCTestLog {
    /// "Class/test" of the tests that started but never passed or failed, in the order they started.
    static func unfinished(in log: String) -> [String] {
        var started: [String] = []
        var finished = Set<String>()
        for line in log.split(separator: "\n") where line.hasPrefix("Test Case '") {
            guard let name = testName(in: line) else { continue }
            if line.contains("' started") { started.append(name) } else if line.contains("' passed") || line.contains("' failed") { finished.insert(name) }
        }
        return started.filter { !finished.contains($0) }
    }

    /// "Class/test" → seconds, of the tests that passed ("Test Case '…' passed (0.834 seconds)").
    static func passedTimes(in log: String) -> [String: Double] {
        var times: [String: Double] = [:]
        for line in log.split(separator: "\n") where line.hasPrefix("Test Case '") {
            guard let open = line.range(of: "' passed ("), let name = testName(in: line),
                  let seconds = Double(line[open.upperBound...].prefix { $0.isNumber || $0 == "." }) else { continue }
            times[name] = seconds
        }
        return times
    }

    private static func testName(in line: Substring) -> String? {
        let body = line.dropFirst("Test Case '".count)
        guard let end = body.firstIndex(of: "'") else { return nil }
        var name = String(body[..<end])
        if name.hasPrefix("-[") {  // -[Module.Class test]
            name = String(name.dropFirst(2).dropLast())
            let parts = name.split(separator: " ")
            guard parts.count == 2, let testClass = parts[0].split(separator: ".").last else { return nil }
            return "\(testClass)/\(parts[1])"
        }
        let parts = name.split(separator: ".")
        guard parts.count == 2 else { return nil }
        return "\(parts[0])/\(parts[1])"
    }
}

/// Compiler errors in `swift build` output, as "path:line: error: message" with paths relative to the kit.
enum BuildErrors {
    static func find(in output: String, root: URL) -> [String] {
        var seen = Set<String>()
        let prefix = root.standardizedFileURL.path + "/"
        return output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(": error: "), line.contains(".swift:") else { return nil }
            var text = String(line)
            if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
            // "File.swift:12:5: error: x" → drop the column.
            if let match = text.range(of: #"\.swift:(\d+):\d+:"#, options: .regularExpression) {
                let kept = text[match].split(separator: ":")
                text.replaceSubrange(match, with: "\(kept[0]):\(kept[1]):")
            }
            return seen.insert(text).inserted ? text : nil
        }
    }

    /// The compiler's notes on each error of `find(in:root:)`, keyed by that error's text: "note (line 29): 'self.text'
    /// not initialized", "note: protocol requires initializer 'init(from:)' with type 'Decodable'". They often name what
    /// the error only counts (which property, which requirement). Read from both of the compiler's styles: Swift 6's
    /// source excerpts, whose markers (`` `- note: … ``) sit under the numbered line they are about, and the older one
    /// line per note ("File.swift:29:20: note: …"). A note in the error's own file names its line; at most four per error.
    static func notes(in output: String, root: URL) -> [String: [String]] {
        var notes: [String: [String]] = [:]
        var texts: [String: Set<String>] = [:]  // an error's notes without their lines: one note is shown once
        var current: (error: String, file: String)?
        var numberedLine: String?  // the last numbered line of an excerpt of the error's own file
        var inOwnFile = true  // false in the excerpt of another file (a note in Swift's own Decodable, say)
        func add(_ text: String, line: String?) {
            guard let (error, _) = current, notes[error, default: []].count < 4,
                  texts[error, default: []].insert(text).inserted else { return }
            notes[error, default: []].append(line.map { "note (line \($0)): \(text)" } ?? "note: \(text)")
        }
        let kitPrefix = root.standardizedFileURL.path + "/"
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.contains(".swift:"), line.contains(": error: ") {
                current = find(in: line, root: root).first.map { ($0, String($0.prefix { $0 != ":" })) }
                numberedLine = nil
                inOwnFile = true
                continue
            }
            guard let (_, file) = current else { continue }
            // The error's block ends at SwiftPM's progress or at a warning's header.
            if line.hasPrefix("["), line.contains("] ") { current = nil; continue }
            if line.contains(": warning: ") { current = nil; continue }
            if let header = line.range(of: #"^\S+?:\d+:\d+: note: "#, options: .regularExpression) {
                let parts = line[header].split(separator: ":")
                var noted = String(parts[0])
                if noted.hasPrefix(kitPrefix) { noted.removeFirst(kitPrefix.count) }
                let sameFile = noted == file
                add(String(line[header.upperBound...]), line: sameFile ? String(parts[1]) : nil)
                numberedLine = nil
                inOwnFile = sameFile
                continue
            }
            if let number = line.range(of: #"^\s*\d+ \|"#, options: .regularExpression) {
                numberedLine = inOwnFile ? line[number].filter(\.isNumber) : nil
                continue
            }
            if let marker = line.range(of: "`- note: ") {
                add(String(line[marker.upperBound...]), line: numberedLine)
            }
        }
        return notes
    }

    /// What a beginner needs to know about errors the compiler words for someone else: a module of Apple's app SDKs
    /// (code copied from an iOS project), a Firebase SDK, URLSession's types on Linux. One line per kind, at most once.
    static func advice(for errors: [String]) -> [String] {
        var lines: [String] = []
        func add(_ line: String) { if !lines.contains(line) { lines.append(line) } }
        for error in errors {
            if let module = error.range(of: #"no such module '(UIKit|SwiftUI|AppKit|Cocoa|Combine|CoreData|MessageKit)'"#,
                                        options: .regularExpression).map({ String(error[$0].dropFirst(16).dropLast()) }) {
                add("\(module) is not there for this package: it is an app's framework (code copied from an iOS project?), and "
                    + "the kit builds on Linux as well as on a Mac. The lessons need only Foundation (and, on Linux, "
                    + "FoundationNetworking: LESSONS.md §0.6): remove `import \(module)`.")
            } else if error.contains("no such module 'Firebase") {
                add("The lessons talk to Firebase through its REST API, with URLSession: no Firebase SDK is needed (or there). "
                    + "Remove the import (LESSONS.md §0.7).")
            } else if error.range(of: #"cannot find (type )?'(URLRequest|URLSession|HTTPURLResponse|URLResponse)' in scope"#,
                                  options: .regularExpression) != nil {
                add("On Linux URLSession, URLRequest and HTTPURLResponse live in FoundationNetworking: start the file with "
                    + "`#if canImport(FoundationNetworking)`, `import FoundationNetworking`, `#endif` (LESSONS.md §0.6).")
            }
        }
        return lines
    }

    /// Whether there are errors, and all in the learner's Exercises/ files.
    static func areAllInExercises(_ errors: [String]) -> Bool {
        !errors.isEmpty && errors.allSatisfy { $0.hasPrefix("Exercises/") }
    }

    /// The lessons whose code the errors are in: their Exercises/ files, or their tests (which fail to compile when
    /// the learner changed a function's signature).
    static func lessons(in errors: [String]) -> Set<String> {
        Set(errors.compactMap(lesson(of:)))
    }

    /// Whether the error is in the board (`swift run board`), which is built on the lessons' code.
    static func isBoard(_ error: String) -> Bool {
        ["Sources/BoardKit/", "Sources/board/", "Tests/BoardTests/"].contains { error.hasPrefix($0) }
    }

    /// "Exercises/Lesson1/…" or "Tests/Lesson1Tests/…" → "Lesson1"; nil for an error in the kit's own code.
    static func lesson(of error: String) -> String? {
        let parts = error.split(separator: "/")
        guard parts.count > 2 else { return nil }
        if parts[0] == "Exercises" { return String(parts[1]) }
        if parts[0] == "Tests", parts[1].hasPrefix("Lesson"), parts[1].hasSuffix("Tests") { return String(parts[1].dropLast(5)) }
        return nil
    }
}
