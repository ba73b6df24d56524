import Foundation

/// Where `lab generate` keeps what it replaces: `.lab/backups/<time>/`, a new folder each run (the kit's `.lab/` is
/// never committed).
enum ExerciseBackup {
    /// A new folder named for `time` (UTC, `2026-11-24T05-10-00Z`; `-2`, `-3`… when one of that second exists).
    static func newFolder(in root: URL, at time: Date) throws -> URL {
        let stamp = ISO8601DateFormatter().string(from: time).replacingOccurrences(of: ":", with: "-")
        let backups = root.appendingPathComponent(".lab/backups")
        var folder = backups.appendingPathComponent(stamp)
        var count = 1
        while FileManager.default.fileExists(atPath: folder.path) {
            count += 1
            folder = backups.appendingPathComponent("\(stamp)-\(count)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `folder` as the instructor would type it from the kit's root.
    static func shown(_ folder: URL, in root: URL) -> String {
        let base = root.standardizedFileURL.path + "/"
        let path = folder.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
