import Foundation
import LabMetadata
import LabSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each graded test's result to the file named by `LAB_RESULTS`, when it is set (see README: results files),
/// or — when `lab` runs the tests (`LAB_RESULTS_STREAM=3`) — to the results stream on descriptor 3
/// (`ResultsStream`), sealed with the key `lab` hands over on standard input. A test is graded when lessons.json
/// names its class; the kit's own tests are not.
enum ResultsRecorder {
    static let file: URL? = ProcessInfo.processInfo.environment["LAB_RESULTS"]
        .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    /// Whether results go to descriptor 3 (set by `lab`).
    static let streaming = ProcessInfo.processInfo.environment["LAB_RESULTS_STREAM"] == "3"

    /// lessons.json, loaded once; a broken file is reported once, then recording is off. Run by `lab` (sealed), the
    /// scan of Tests/ for the tests' places is skipped: `lab` puts its own in, and the scan cost each test process a
    /// fifth of a second of CPU — seconds per learner when a class is graded.
    static let catalog: LessonCatalog? = {
        do {
            return try LessonCatalog.load(from: LessonCatalog.defaultFile, scanningTests: seal == nil)
        } catch {
            FileHandle.standardError.write(Data("lab: results not recorded: \(error)\n".utf8))
            return nil
        }
    }()

    /// When `lab` runs the tests, this process's seal key (`ResultSeal`) waits on standard input, a pipe: it is read
    /// as the first test starts, before any learner code has run, and the pipe holds it no more.
    static let seal: ResultSeal? = {
        guard streaming else { return nil }
        var key = [UInt8](repeating: 0, count: 64)
        var count = 0
        while count < 64 {
            let got = key.withUnsafeMutableBytes { read(0, $0.baseAddress! + count, 64 - count) }
            guard got > 0 else { break }
            count += got
        }
        close(0)
        return ResultSeal(hex: String(decoding: key[..<count], as: UTF8.self))
    }()

    /// Says, on the results stream, which test is starting: if the process dies or hangs, `lab` knows which test
    /// did it (stdout is buffered and lost when the process is killed; the stream is not).
    static func starting(_ test: LabTestCase) {
        guard streaming else { return }
        _ = seal
        stream(ResultsStream.Line(started: "\(String(describing: type(of: test)))/\(methodName(of: test))"))
    }

    /// One line on descriptor 3, in one `write` (whole lines survive a crash).
    private static func stream(_ line: ResultsStream.Line) {
        let data = ResultsStream.encode(line)
        _ = data.withUnsafeBytes { write(3, $0.baseAddress, data.count) }
    }

    static func record(_ test: LabTestCase, outcome: TestResult.Outcome, message: String?) {
        guard streaming || file != nil, let catalog = catalog else { return }
        let type = type(of: test)
        let testClass = String(describing: type)
        guard let (lesson, exercise) = catalog.exercise(forTestClass: testClass) else { return }
        let module = String(reflecting: type).split(separator: ".").first.map(String.init) ?? "\(lesson.name)Tests"
        var result = TestResult(name: methodName(of: test), testClass: testClass, testModule: module, outcome: outcome,
                                message: message, lesson: lesson, exercise: exercise,
                                stubs: StubLog.recorded.map(\.function),
                                place: catalog.declarationPlaces["\(testClass)/\(methodName(of: test))"])
        if let seal = seal { result = seal.sealed(result) }
        if streaming { return stream(ResultsStream.Line(result: result)) }
        guard let file = file else { return }
        do {
            try ResultsFile.record(result, in: file, catalog: catalog)
        } catch {
            FileHandle.standardError.write(Data("lab: could not write \(file.path): \(error)\n".utf8))
        }
    }

    /// "test_x" from XCTest's name: "Class.test_x" on Linux, "-[Module.Class test_x]" on Darwin.
    static func methodName(of test: LabTestCase) -> String {
        let name = test.name.trimmingCharacters(in: CharacterSet(charactersIn: "-[]"))
        let separators = CharacterSet(charactersIn: " .")
        return name.components(separatedBy: separators).last ?? name
    }
}
