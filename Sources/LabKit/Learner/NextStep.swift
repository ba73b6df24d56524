import Foundation
import LabMetadata

extension LearnerCommands {
    /// The "Next:" lines of `lab`: the first unfinished exercise in course order — or, before it, a lesson that does
    /// not compile (its stubs ran in its place, so it looks "not started").
    static func nextStep(kit: Kit, results: LabResults, replaced: [String], kitIsBroken: Bool) -> [String] {
        var lines: [String] = []
        let unfinished = results.firstUnfinished(in: kit.catalog.lessons, skippingTheKits: true)
        let position = { (name: String) in kit.catalog.lessons.firstIndex { $0.name == name } ?? Int.max }
        let firstBroken = kit.catalog.lessons.first { lesson in replaced.contains(lesson.name) }
        if let broken = firstBroken, position(broken.name) <= unfinished.map({ position($0.lesson.name) }) ?? Int.max {
            // Its stubs ran in its place, so its first exercise looks "not started": the code to fix comes first.
            lines.append("Next: Lesson \(broken.chapter) does not compile — `swift run lab check \(broken.name)` shows its errors.")
        } else if let (lesson, exercise) = unfinished {
            lines.append("Next: Lesson \(lesson.chapter), §\(exercise.section) \(exercise.function) in \(exercise.file).")
            lines.append("      Read LESSONS.md §\(exercise.section), then run `swift run lab check \(lesson.name)`.")
        } else if kitIsBroken {
            lines.append("Every exercise the kit could check is done.")
        } else {
            lines.append("Every lesson is done. Well built!")
        }
        return lines
    }
}
