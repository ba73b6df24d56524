import Foundation
import LabMetadata
import LabSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each graded test's result to the file named by `LAB_RESULTS`, when it is set (see README: results files).
/// A test is graded when lessons.json names its class; the kit's own tests are not.
enum ResultsRecorder {
    static let file: URL? = ProcessInfo.processInfo.environment["LAB_RESULTS"]
        .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }

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

    /// When `lab` runs the tests, `LAB_RESULTS_KEY` names a file holding this process's seal key (`ResultSeal`). It is
    /// read and deleted as the first test starts, before any learner code has run, and left nowhere else to find.
    static let seal: ResultSeal? = {
        guard let path = ProcessInfo.processInfo.environment["LAB_RESULTS_KEY"], !path.isEmpty else { return nil }
        defer {
            try? FileManager.default.removeItem(atPath: path)
            unsetenv("LAB_RESULTS_KEY")
        }
        return (try? String(contentsOfFile: path, encoding: .utf8)).flatMap(ResultSeal.init(hex:))
    }()

    /// Notes, in `<results file>.running`, the test that is starting: if the process dies or hangs, the `lab` command
    /// knows which test did it (stdout is buffered and lost when the process is killed; this file is not).
    static func starting(_ test: LabTestCase) {
        guard let file = file else { return }
        _ = seal
        let type = type(of: test)
        let line = "\(String(describing: type))/\(methodName(of: test))\n"
        try? Data(line.utf8).write(to: URL(fileURLWithPath: file.path + ".running"), options: .atomic)
    }

    static func record(_ test: LabTestCase, outcome: TestResult.Outcome, message: String?) {
        guard let file = file, let catalog = catalog else { return }
        let type = type(of: test)
        let testClass = String(describing: type)
        guard let (lesson, exercise) = catalog.exercise(forTestClass: testClass) else { return }
        let module = String(reflecting: type).split(separator: ".").first.map(String.init) ?? "\(lesson.name)Tests"
        var result = TestResult(name: methodName(of: test), testClass: testClass, testModule: module, outcome: outcome,
                                message: message, lesson: lesson, exercise: exercise,
                                stubs: StubLog.recorded.map(\.function),
                                place: catalog.declarationPlaces["\(testClass)/\(methodName(of: test))"])
        if let seal = seal { result = seal.sealed(result) }
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
