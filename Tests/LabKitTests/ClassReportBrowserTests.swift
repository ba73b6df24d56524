import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// `class-report.html` opened by a real browser, where one is installed (headless Chromium): it renders, draws the
/// charts, and shows the hostile learner's name as text. Skipped when no Chromium is on the PATH.
final class ClassReportBrowserTests: FolderTestCase {
    func chromium() throws -> String {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let path = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        throw XCTSkip("no Chromium installed: the page is checked by the parser in ClassReportPageTests only")
    }

    /// Runs headless Chromium with `arguments` on the page; its standard output.
    func browse(_ browser: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile"] + arguments
            + [folder.appendingPathComponent("class-report.html").absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if process.isRunning { process.terminate() } }  // never hang a run
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func test_classOf20_rendersInChromium_chartsAndMistakesShown_learnerTextAsText() throws {
        let browser = try chromium()
        let root = try KitRoot.find()
        let catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
        try ClassReportFiles.write(SyntheticClass(catalog: catalog).report, to: folder,
                                   sectionTitles: LessonSections.titles(ofKitAt: root))
        let dom = try browse(browser, ["--dump-dom"])
        XCTAssertTrue(dom.contains("Mistakes the class makes"), "Chromium's document lacks the mistakes section: \(dom.prefix(300))")
        XCTAssertEqual(dom.components(separatedBy: "<svg").count - 1, catalog.lessons.count, "one chart per lesson")
        XCTAssertFalse(dom.contains("<img"), "the learner named <img …> became markup")
        let shot = folder.appendingPathComponent("shot.png")
        _ = try browse(browser, ["--window-size=1280,2000", "--screenshot=\(shot.path)"])
        let png = try Data(contentsOf: shot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG screenshot")
        XCTAssertGreaterThan(png.count, 20_000, "a page with charts and tables, not a blank one")
    }
}
