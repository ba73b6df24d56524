// swift-tools-version:5.9
// The lab kit's manifest. No package dependencies: it builds offline, on Linux and on macOS/Xcode.
import PackageDescription
import Foundation

/// `LAB_SOLUTIONS=1 swift test` builds every lesson from Solutions/ (the reference) instead of Exercises/ (the
/// learner's copy). Both trees define the same modules with the same signatures, so the same tests grade either.
let buildsSolutions = ProcessInfo.processInfo.environment["LAB_SOLUTIONS"] == "1"
let lessonsFolder = buildsSolutions ? "Solutions" : "Exercises"

/// The lessons, in course order. A new lesson is a folder in Solutions/, Exercises/ (generated), Tests/ and Fixtures/,
/// a chapter in LESSONS.md, an entry in lessons.json, a mutant catalog, a step in the autograding workflow, and its
/// name here, on this one line: `lab new-lesson` adds all of them, and `lab lint` names any that is missing.
let allLessons = ["Lesson1", "Lesson2", "Lesson3", "Lesson4", "Lesson5", "Lesson6", "Lesson7", "Lesson8", "Lesson9", "Lesson10"]

/// `LAB_LESSONS=Lesson1` builds that lesson (comma-separated: several) and none of the kit's own tests: the `lab`
/// command's private workspaces use it, so trying a mutant relinks one lesson's tests only.
let onlyLessons = ProcessInfo.processInfo.environment["LAB_LESSONS"].map { $0.split(separator: ",").map(String.init) }
let lessons = onlyLessons.map { only in allLessons.filter(only.contains) } ?? allLessons

/// The emulated service a lesson's tests need besides Firebase (the lessons themselves depend on LabSupport only).
let serviceOf: [String: [Target.Dependency]] = ["Lesson6": ["TodoEmulator"], "Lesson7": ["ChatCaveEmulator"],
                                            "Lesson9": ["FirebaseAuthEmulator"]]

/// How the kit's modules and the tests compile on Linux: each in one compiler job (`-wmo`; `-num-threads` keeps an
/// object file per source file, as SwiftPM links them) instead of jobs that each parse the whole module again, with line
/// tables only for debug info (enough for a crash report's file and line). Measured on 2 cores, quiet: a learner's
/// first `swift test --filter Lesson1Tests` in a fresh clone 18 s instead of 20-21 (and 59 s of build before the kit's
/// own tests left it). The learner's lessons keep SwiftPM's incremental debug build with full debug info, for a
/// debugger. The price: when a lesson's declarations change, the modules compiled against it again print one remark
/// each, "Incremental compilation has been disabled: it is not compatible with whole module optimization" (README).
/// Elsewhere (Xcode), SwiftPM's defaults.
let kitSettings: [SwiftSetting] = [.unsafeFlags(["-wmo", "-no-emit-module-separately-wmo", "-num-threads", "2",
                                                 "-disable-batch-mode", "-gline-tables-only"], .when(platforms: [.linux]))]

let lessonTargets: [Target] = lessons.flatMap { lesson -> [Target] in
    [
        .target(name: lesson, dependencies: ["LabSupport"], path: "\(lessonsFolder)/\(lesson)"),
        .testTarget(
            name: "\(lesson)Tests",
            dependencies: [.target(name: lesson), "LabTestSupport", "FirebaseEmulator"] + (serviceOf[lesson] ?? []),
            path: "Tests/\(lesson)Tests"
        ),
    ]
}

/// The kit's own tests (not graded) are built for whoever checks the kit: with `LAB_SOLUTIONS=1` (instructors, CI) or
/// `LAB_KIT_TESTS=1` (the same tests against Exercises/). A learner's `swift test` leaves them out — half of a first
/// build — and so does a `LAB_LESSONS` build.
let buildsKitTests = onlyLessons == nil
    && (buildsSolutions || ProcessInfo.processInfo.environment["LAB_KIT_TESTS"] == "1")
let kitTestTargets: [Target] = !buildsKitTests ? [] : [
    .testTarget(name: "EmulatorCoreTests", dependencies: ["EmulatorCore", "EmulatorTestSupport"], path: "Tests/EmulatorCoreTests"),
    .testTarget(name: "TodoEmulatorTests", dependencies: ["TodoEmulator", "EmulatorTestSupport"], path: "Tests/TodoEmulatorTests"),
    .testTarget(name: "FirebaseEmulatorTests", dependencies: ["FirebaseEmulator", "EmulatorTestSupport"], path: "Tests/FirebaseEmulatorTests"),
    .testTarget(name: "FirebaseAuthEmulatorTests", dependencies: ["FirebaseAuthEmulator", "FirebaseEmulator", "EmulatorTestSupport"],
                path: "Tests/FirebaseAuthEmulatorTests"),
    .testTarget(name: "ChatCaveEmulatorTests", dependencies: ["ChatCaveEmulator", "EmulatorTestSupport"], path: "Tests/ChatCaveEmulatorTests"),
    .testTarget(name: "LabKitTests", dependencies: ["LabKit", "LabMetadata", "LabTestSupport", "EmulatorTestSupport", "KitTestSupport"],
                path: "Tests/LabKitTests"),
    // The slow ones, apart: they grade whole copies of the kit (attacks, the sandbox) or build one (a new lesson),
    // for minutes. The everyday kit suite skips them (`--skip GradingTests`); CI runs them (README § For instructors).
    .testTarget(name: "GradingTests", dependencies: ["LabKit", "LabMetadata", "KitTestSupport"], path: "Tests/GradingTests"),
    // What both need: a copy of the kit to change (ScratchKit).
    .target(name: "KitTestSupport", dependencies: ["LabKit", "LabMetadata"], path: "Tests/KitTestSupport"),
    // LAB_SOLUTIONS: against the solutions every board feature must work; against Exercises/ a stub may be named instead.
    .testTarget(name: "BoardTests", dependencies: ["BoardKit", "Lesson1", "Lesson4", "Lesson8", "Lesson9", "Lesson10", "LabSupport",
                                                   "FirebaseEmulator", "FirebaseAuthEmulator"],
                path: "Tests/BoardTests", swiftSettings: buildsSolutions ? [.define("LAB_SOLUTIONS")] : []),
]

/// `swift run board`: the Message Board on the learner's own Lesson 1, 4, 8, 9 (sign-in) and 10 (pages) code, against
/// an embedded database and Auth emulator. It needs every lesson it runs, so a `LAB_LESSONS` build leaves it out.
let boardTargets: [Target] = onlyLessons != nil ? [] : [
    // The board's logic as a library (screen model, terminal, sign-in, scriptable commands), so it can be tested.
    .target(name: "BoardKit", dependencies: ["Lesson1", "Lesson4", "Lesson8", "Lesson9", "Lesson10", "LabSupport",
                                             "FirebaseEmulator", "FirebaseAuthEmulator"], path: "Sources/BoardKit"),
    .executableTarget(name: "board", dependencies: ["BoardKit"], path: "Sources/board"),
]

let package = Package(
    name: "RESTLab",
    // macOS 12: XCTIssue (how LabTestCase rewrites failures on Darwin) and the Foundation APIs the tools use.
    platforms: [.macOS(.v12)],
    products: [
        .library(name: "EmulatorCore", targets: ["EmulatorCore"]),
        .library(name: "FirebaseEmulator", targets: ["FirebaseEmulator"]),
        .library(name: "FirebaseAuthEmulator", targets: ["FirebaseAuthEmulator"]),
        .library(name: "TodoEmulator", targets: ["TodoEmulator"]),
        .executable(name: "lab", targets: ["lab"]),
    ] + (onlyLessons != nil ? [] : [.executable(name: "board", targets: ["board"])]),
    targets: lessonTargets + [
        // The one type every stub uses: `NotImplemented`. Tiny on purpose; lessons depend on nothing else.
        .target(name: "LabSupport", path: "Sources/LabSupport"),
        // What every emulated REST service shares: requests, responses, the log, faults and latency, JSON, and the two
        // transports (a URLProtocol for tests, a socket server for everything else). A service is a handler on it.
        .target(name: "EmulatorCore", path: "Sources/EmulatorCore"),
        // A raw HTTP client for the socket server's own tests and the benchmark (.ci/bench-server).
        .target(name: "EmulatorTestSupport", dependencies: ["EmulatorCore"], path: "Sources/EmulatorTestSupport"),
        // An in-memory Firebase Realtime Database with the real REST semantics: the first service on the core.
        .target(name: "FirebaseEmulator", dependencies: ["EmulatorCore"], path: "Sources/FirebaseEmulator"),
        // Firebase Authentication's REST sign-in (the Auth emulator's API): accounts, unsigned ID tokens, refresh.
        .target(name: "FirebaseAuthEmulator", dependencies: ["EmulatorCore"], path: "Sources/FirebaseAuthEmulator"),
        // A JSONPlaceholder-style `/todos` API with json-server's semantics (Lesson 6): the second service on the core.
        .target(name: "TodoEmulator", dependencies: ["EmulatorCore"], path: "Sources/TodoEmulator"),
        // The ChatCave chat API (Lesson 7): rooms, chatters and messages behind HTTP Basic auth.
        .target(name: "ChatCaveEmulator", dependencies: ["EmulatorCore"], path: "Sources/ChatCaveEmulator"),
        // lessons.json (lessons, exercises, points, hints) and the results-file format: read by tests and tools alike.
        .target(name: "LabMetadata", path: "Sources/LabMetadata"),
        // XCTest helpers shared by the lesson suites: waiting, "not started" reporting, fixtures, results files.
        .target(name: "LabTestSupport", dependencies: ["LabSupport", "FirebaseEmulator", "LabMetadata"], path: "Sources/LabTestSupport"),
        // The lab command's logic as a library (generator, runner, reports), so it can be tested.
        .target(name: "LabKit", dependencies: ["LabMetadata", "FirebaseEmulator", "FirebaseAuthEmulator"], path: "Sources/LabKit"),
        .executableTarget(name: "lab", dependencies: ["LabKit"], path: "Sources/lab"),
    ] + boardTargets + kitTestTargets
)

// Every module but the learner's lessons compiles as `kitSettings` says.
for target in package.targets where !lessons.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + kitSettings
}

// SwiftPM compiles a module again when a module it names in `dependencies` changes, but not when one of theirs does —
// and a module uses those too (each service's `@_exported import EmulatorCore`): a case added to EmulatorCore's
// `Fault` left the lessons' tests compiled against the old enum, and the reference solutions' tests crashed in
// `Emulator.inject`. So every module names every module it reaches.
let targetsByName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
func namedDependencies(of target: Target) -> [String] {
    target.dependencies.compactMap { dependency -> String? in
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): return name
        default: return nil
        }
    }
}
func reachedModules(from target: Target) -> Set<String> {
    var reached = Set<String>(), next = namedDependencies(of: target)
    while let name = next.popLast() {
        if reached.insert(name).inserted, let module = targetsByName[name] { next += namedDependencies(of: module) }
    }
    return reached
}
let missingDependencies = package.targets.map { target in
    (target, reachedModules(from: target).subtracting(namedDependencies(of: target)).sorted())
}
for (target, missing) in missingDependencies {
    target.dependencies += missing.map { .target(name: $0) }
}
