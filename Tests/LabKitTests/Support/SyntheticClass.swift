import Foundation
@testable import LabKit
import LabMetadata

/// A class of 20 built like `.ci/bench-grade`'s — solved copies, the stubs, one lesson solved each, Lessons 1-2
/// solved, Lesson 1 and Lesson 3 that do not compile, an endless loop and a `sleep(30)` in Lesson 1 — with two
/// learners in place of two solved copies who make the same mistake with different values (POST for PUT in §1.3),
/// one of them in a folder whose name is HTML. Its results are synthetic (the kit's real lessons and tests, outcomes
/// and messages as `lab grade` writes them), so a report of it takes milliseconds, not a grading.
struct SyntheticClass {
    let catalog: LessonCatalog
    /// "Class/test" of each lesson's graded tests, per exercise section, in the order they are written.
    let tests: [String: [String]]

    static let hostileName = "<img src=x onerror=alert(1)>&\"'"
    static let hostileMessage = "</p><script>alert('pwned')</script> & <b onmouseover=alert(2)>bold</b>"

    init(catalog: LessonCatalog) {
        self.catalog = catalog
        var tests: [String: [String]] = [:]
        for (key, _) in catalog.declarationOrder {
            let testClass = String(key.split(separator: "/")[0])
            guard let (_, exercise) = catalog.exercise(forTestClass: testClass) else { continue }
            tests[exercise.section, default: []].append(key)
        }
        for (section, keys) in tests { tests[section] = keys.sorted { catalog.declarationOrder[$0]! < catalog.declarationOrder[$1]! } }
        self.tests = tests
    }

    /// What one learner did: per lesson, solved or not; per exercise section, a failure from one test on.
    struct Learner {
        var name: String
        var solved: Set<String> = []
        /// Section → (index of the first failing test, its message, then the message of the later tests).
        var failures: [String: (at: Int, message: (Int) -> String)] = [:]
        var notes: [String] = []
    }

    func row(_ learner: Learner) -> ClassReport.Row {
        var results: [TestResult] = []
        for lesson in catalog.lessons {
            for exercise in lesson.exercises {
                for (index, key) in (tests[exercise.section] ?? []).enumerated() {
                    let parts = key.split(separator: "/").map(String.init)
                    var outcome: TestResult.Outcome = learner.solved.contains(lesson.name) ? .passed : .notStarted
                    var message: String? = outcome == .passed ? nil
                        : "not started yet: \(exercise.function) — see LESSONS.md §\(exercise.section) (the function still runs its stub: replace the `NotImplemented` line with your code)"
                    if let failure = learner.failures[exercise.section] {
                        outcome = index < failure.at ? .passed : .failed
                        message = index < failure.at ? nil : failure.message(index)
                    }
                    results.append(TestResult(name: parts[1], testClass: parts[0], testModule: "\(lesson.name)Tests", outcome: outcome,
                                              message: message, lesson: lesson, exercise: exercise))
                }
            }
        }
        return ClassReport.Row(learner: learner.name, results: LabResults(tests: results, catalog: catalog), notes: learner.notes)
    }

    var learners: [Learner] {
        let all = Set(catalog.lessons.map(\.name))
        var class_: [Learner] = (1...8).map { Learner(name: String(format: "solved-%02d", $0), solved: all) }
        let postForPUT = { (name: String) -> Learner in
            let id = UUID().uuidString
            var learner = Learner(name: name, solved: all)
            learner.failures["1.3"] = (1, { index in index == 1
                ? "createMessageThread sent POST /\(id).json  body: {\"identifier\":\"\(id)\",\"title\":\"\(name == SyntheticClass.hostileName ? SyntheticClass.hostileMessage : "PUT vs POST")\"}  -> 200. Use PUT: the client chose the key (the thread's identifier), and PUT writes exactly at the URL. See LESSONS.md §1.1."
                : "a later check of \(name): \(Int.random(in: 1...999)) \(SyntheticClass.hostileMessage). See LESSONS.md §1.3." })
            return learner
        }
        class_.append(postForPUT("post-for-put"))
        class_.append(postForPUT(Self.hostileName))
        class_.append(Learner(name: "stubs"))
        for lesson in ["Lesson1", "Lesson2", "Lesson3", "Lesson4"] { class_.append(Learner(name: "only-\(lesson)", solved: [lesson])) }
        class_.append(Learner(name: "lessons-1-2", solved: ["Lesson1", "Lesson2"]))
        for (name, lesson) in [("broken-lesson1", "Lesson1"), ("broken-lesson3", "Lesson3")] {
            var learner = Learner(name: name, solved: name == "broken-lesson3" ? all : ["Lesson1"])
            for exercise in catalog.lesson(named: lesson)!.exercises { learner.failures[exercise.section] = (0, { _ in "\(lesson) does not compile" }) }
            learner.notes = ["\(lesson) does not compile (Exercises/\(lesson)/A.swift:80: error: cannot convert value of type 'String' to specified type 'Int'): its tests fail, 0 points"]
            class_.append(learner)
        }
        for name in ["endless-loop", "sleeps-30s"] {
            var learner = Learner(name: name)
            learner.failures["1.3"] = (0, { index in "this test took longer than \(index == 0 ? 5 : 3) s and was stopped (no test here needs more than 2 s) — an endless loop, or a wait that never ends. See LESSONS.md §1.3." })
            learner.notes = ["\(self.tests["1.3"]?.count ?? 0) tests stopped for taking too long (an endless loop or a long wait?): §1.3"]
            class_.append(learner)
        }
        return class_
    }

    var report: ClassReport { ClassReport(catalog: catalog, rows: learners.map(row)) }
}
