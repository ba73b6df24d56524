import Foundation

/// Where the package's fixtures live, found from this file's path so tests need no bundle resources.
enum FixturePaths {
    /// <package>/Tests/FirebaseEmulatorTests/Support/FixturePaths.swift → <package>
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let exchanges = fixtures.appendingPathComponent("exchanges")
    static let databases = fixtures.appendingPathComponent("databases")
    static let sampleDatabase = databases.appendingPathComponent("message-board-sample.json")
    static let streams = fixtures.appendingPathComponent("streams")

    /// The `*.json` files of a fixture folder, sorted by name.
    static func jsonFiles(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
