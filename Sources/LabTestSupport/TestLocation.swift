import Foundation
import XCTest

/// Where a test method is written, so a failure the kit records on its behalf (a test that ran a stub, reported when
/// it ends) points at the learner-facing test, not inside the kit's support code.
enum TestLocation {
    /// Tests/, found from this file's place in the kit.
    static let testsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests")

    /// The file and line of `func <method>(` in the test target's folder, or nil when it cannot be found.
    static func of(_ test: LabTestCase) -> (file: String, line: Int)? {
        let method = ResultsRecorder.methodName(of: test)
        let module = String(reflecting: type(of: test)).split(separator: ".").first.map(String.init) ?? ""
        let folder = testsFolder.appendingPathComponent(module)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in files.sorted() where name.hasSuffix(".swift") {
            let path = folder.appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("func \(method)(") {
                return (path, index + 1)
            }
        }
        return nil
    }
}
