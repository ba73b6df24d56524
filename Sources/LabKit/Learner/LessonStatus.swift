import Foundation
import LabMetadata

/// Where a learner stands on one exercise or lesson, from its tests' results.
public enum Progress: Equatable {
    /// `kitBroken`: the kit failed some of the tests itself (`KitFault`), so they say nothing of the learner's code.
    case done, inProgress, notStarted, notRun, kitBroken

    init(_ tests: [TestResult]) {
        if tests.isEmpty { self = .notRun }
        else if tests.contains(where: KitFault.blames) { self = .kitBroken }
        else if tests.allSatisfy({ $0.outcome == .passed }) { self = .done }
        else if tests.allSatisfy({ $0.outcome == .notStarted }) { self = .notStarted }
        else { self = .inProgress }
    }

    /// One exercise: "not started" while its own stub still runs in any of its tests, whatever else failed.
    init(_ exercise: LessonCatalog.Exercise, tests: [TestResult]) {
        let ownStubRan = tests.contains { $0.stubs?.contains(exercise.function) ?? false }
        let progress = Progress(tests)
        self = ownStubRan && progress != .done && progress != .kitBroken ? .notStarted : progress
    }

    /// One lesson: from its exercises' progress.
    init(_ lesson: LessonCatalog.Lesson, results: LabResults) {
        let exercises = lesson.exercises.map { Progress($0, tests: results.tests(of: $0, in: lesson)) }
        if exercises.allSatisfy({ $0 == .notRun }) { self = .notRun }
        else if exercises.contains(.kitBroken) { self = .kitBroken }
        else if exercises.allSatisfy({ $0 == .done }) { self = .done }
        else if exercises.allSatisfy({ $0 == .notStarted }) { self = .notStarted }
        else { self = .inProgress }
    }

    public var label: String {
        switch self {
        case .done: return "done"
        case .inProgress: return "in progress"
        case .notStarted: return "not started"
        case .notRun: return "no tests ran"
        case .kitBroken: return "the kit is broken, not your code"
        }
    }
}

extension LabResults {
    func tests(of exercise: LessonCatalog.Exercise, in lesson: LessonCatalog.Lesson) -> [TestResult] {
        tests.filter { $0.lesson == lesson.name && $0.exercise == exercise.section }
    }

    func tests(of lesson: LessonCatalog.Lesson) -> [TestResult] {
        tests.filter { $0.lesson == lesson.name }
    }

    /// The first exercise (in course order) whose tests do not all pass; `skippingTheKits`: nor is it one the kit
    /// itself broke (`KitFault`), which the learner cannot do anything about.
    func firstUnfinished(in lessons: [LessonCatalog.Lesson], skippingTheKits: Bool = false)
        -> (lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise)? {
        for lesson in lessons {
            for exercise in lesson.exercises {
                let progress = Progress(exercise, tests: tests(of: exercise, in: lesson))
                if progress != .done, !(skippingTheKits && progress == .kitBroken) { return (lesson, exercise) }
            }
        }
        return nil
    }
}

/// "11", "2.5": points without a needless ".0".
func points(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
}

/// Pads `text` to `width` characters, for aligned columns.
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
