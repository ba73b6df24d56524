import Foundation
import XCTest

/// A test case with a fresh temporary folder per test, removed afterwards, and a helper to write files into it.
class FolderTestCase: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lab-kit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `text` at `path` under `root` (default: the test's folder), making the folders it needs.
    func write(_ path: String, _ text: String, in root: URL? = nil) throws {
        let url = (root ?? folder).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
