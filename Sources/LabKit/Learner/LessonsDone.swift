import Foundation
import LabMetadata

/// The lessons a learner has finished, remembered between runs: `lab check Lesson4` runs Lesson 4 alone, yet its
/// "Next" must skip a Lesson 5 finished yesterday. A lesson counts as done while its exercise files and its tests are
/// the ones that passed (their listing's digest); any edit, or a failing run, forgets it.
struct LessonsDone {
    let kit: Kit
    /// Where the lessons' code is: `LAB_SOLUTIONS=1` reaches SwiftPM through `lab`'s environment, and then the
    /// reference is what ran.
    var codeFolder = LessonRun.codeFolder(solutions: ProcessInfo.processInfo.environment["LAB_SOLUTIONS"])
    private var file: URL { kit.stateFolder.appendingPathComponent("lessons-done.json") }

    /// Notes what a run found: lessons whose tests all passed are done, lessons that ran otherwise are not.
    func record(_ results: LabResults, ran lessons: [LessonCatalog.Lesson], replaced: Set<String>) {
        var done = stored()
        for lesson in lessons {
            let tests = results.tests(of: lesson)
            if !replaced.contains(lesson.name), !tests.isEmpty, Progress(lesson, results: results) == .done {
                done[lesson.name] = digest(of: lesson)
            } else {
                done[lesson.name] = nil
            }
        }
        guard let data = try? JSONEncoder().encode(done) else { return }
        try? FileManager.default.createDirectory(at: kit.stateFolder, withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    /// Whether `lesson` passed whole and nothing it is built from changed since.
    func isDone(_ lesson: LessonCatalog.Lesson) -> Bool {
        isDone(lesson, in: stored())
    }

    private func isDone(_ lesson: LessonCatalog.Lesson, in done: [String: String]) -> Bool {
        done[lesson.name] == digest(of: lesson)
    }

    /// The first lesson after `lesson` not known to be done; else the first before it; nil when every one is.
    func next(after lesson: LessonCatalog.Lesson) -> LessonCatalog.Lesson? {
        let lessons = kit.catalog.lessons
        let here = lessons.firstIndex { $0.name == lesson.name } ?? lessons.endIndex
        let done = stored()  // read once, not once per lesson
        return lessons.dropFirst(here + 1).first { !isDone($0, in: done) } ?? lessons.prefix(here).first { !isDone($0, in: done) }
    }

    private func stored() -> [String: String] {
        (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }

    private func digest(of lesson: LessonCatalog.Lesson) -> String {
        // Fixture folders are lower case: Fixtures/lesson9.
        let parts = ["\(codeFolder)/\(lesson.name)", "Tests/\(lesson.name)Tests", "Fixtures/\(lesson.name.lowercased())"]
        return KitFingerprint.digest(Data(KitFingerprint.listing(of: parts, in: kit.root).utf8))
    }
}
