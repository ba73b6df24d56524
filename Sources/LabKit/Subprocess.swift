import Foundation

/// Runs a command to completion, its output (stdout and stderr together) going to a file, so a long log can
/// never fill a pipe and stall the child.
public enum Subprocess {
    public struct Outcome {
        public let status: Int32
        public let output: String
    }

    public static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                           removing removed: Set<String> = []) throws -> Outcome {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment.filter { !removed.contains($0.key) }
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, output: output)
    }
}

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
