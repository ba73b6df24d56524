import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a command to completion, its output (stdout and stderr together) going to a file, so a long log can
/// never fill a pipe and stall the child. It never waits forever: it kills the command (and the processes it
/// started, e.g. the XCTest binary under `swift test`) when it shows no progress for `silence` seconds — a test
/// stuck in an endless loop or a long sleep — or when it runs longer than `limit` seconds in all. Progress is a
/// change of the `progress` file when one is given (the test process rewrites it as each test starts: its stdout,
/// going to a file, is buffered and shows nothing for long stretches), else growth of the output.
enum WatchedProcess {
    struct Outcome {
        let status: Int32
        let output: String
        /// Why it was killed, when it was: "silent for 10 s", "over 900 s".
        let killed: String?
    }

    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                    removing removed: Set<String> = [], silence: TimeInterval? = nil, progress: URL? = nil,
                    limit: TimeInterval = 900) throws -> Outcome {
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

        let started = Date()
        var lastMark: String?
        var lastChange = Date()
        var killed: String?
        while process.isRunning {
            Thread.sleep(forTimeInterval: 0.1)
            let mark = Self.mark(of: progress ?? log)
            if mark != lastMark { lastMark = mark; lastChange = Date() }
            if let silence = silence, Date().timeIntervalSince(lastChange) > silence {
                killed = "silent for \(Int(silence)) s"
            } else if Date().timeIntervalSince(started) > limit {
                killed = "over \(Int(limit)) s"
            }
            if killed != nil {
                killTree(process.processIdentifier)
                break
            }
        }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, output: output, killed: killed)
    }

    /// What changes when a file is rewritten or grows: its modification date and size.
    private static func mark(of file: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { return nil }
        return "\(attributes[.modificationDate].map { "\($0)" } ?? "")|\(attributes[.size].map { "\($0)" } ?? "")"
    }

    /// Kills `pid` and its descendants, deepest first (`pgrep -P` exists on Linux and macOS).
    private static func killTree(_ pid: Int32) {
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pgrep.arguments = ["pgrep", "-P", String(pid)]
        let pipe = Pipe()
        pgrep.standardOutput = pipe
        pgrep.standardError = FileHandle.nullDevice
        if (try? pgrep.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            pgrep.waitUntilExit()
            for child in String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap({ Int32($0) }) {
                killTree(child)
            }
        }
        kill(pid, SIGKILL)
    }
}
