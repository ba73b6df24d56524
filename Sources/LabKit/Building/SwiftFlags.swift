import Foundation

/// The flags every `swift test` the kit runs gets.
enum SwiftFlags {
    /// The kit is XCTest; on Swift 6 toolchains this keeps Swift Testing's empty "0 tests" run out of the way.
    /// (The lab binary is built by the same toolchain that runs the tests, so the compiler version tells.)
    static var test: [String] {
        #if compiler(>=6.0)
        return ["--disable-swift-testing"]
        #else
        return []
        #endif
    }
}

extension SwiftFlags {
    /// How the kit's private copies (`.lab/grading`, `.lab/grading-<n>`, `.lab/check`) build on Linux: each module in
    /// one compiler job that also writes its interface (`-wmo`, not emitted separately; `-num-threads` keeps one object
    /// file per source file, which SwiftPM links), and only line tables for debug info — enough for a crash report to name
    /// the learner's file and line (`CrashReport`). Nobody debugs these copies, and every learner's
    /// own declarations make the lessons' test modules compile again: measured on 2 cores with all eight lessons
    /// changed, 12-13 CPU-seconds instead of 20. (The index store stays: on Linux, SwiftPM finds the XCTest methods
    /// through it.) Elsewhere, where this was never run, SwiftPM's defaults. The learner's own build (`swift test`,
    /// `lab check`) is left alone.
    static var privateCopy: [String] {
        #if os(Linux)
        return ["-Xswiftc", "-wmo", "-Xswiftc", "-no-emit-module-separately-wmo", "-Xswiftc", "-num-threads",
                "-Xswiftc", "2", "-Xswiftc", "-gline-tables-only"]
        #else
        return []
        #endif
    }
}
