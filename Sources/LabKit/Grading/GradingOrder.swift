import Foundation
import LabMetadata

/// The order a class is graded in. A grading copy keeps its build from one learner to the next, so a lesson whose code
/// is the same as the last learner's does not compile again — and most of a class has the same code, the kit's stubs,
/// in the lessons it has not started. So learners are graded with those whose later lessons hold the same code next
/// to them; the report keeps the order the checkouts were given in.
enum GradingOrder {
    /// The indices of `checkouts`, in the order to grade them.
    static func grouped(_ checkouts: [URL], lessons: [LessonCatalog.Lesson]) -> [Int] {
        let keys = checkouts.map { checkout -> String in
            let exercises = checkout.appendingPathComponent("Exercises")
            // The last lesson first: it is the one most learners have not started.
            return lessons.reversed().map { lesson -> String in
                let code = LearnerCode(lessonFolder: exercises.appendingPathComponent(lesson.name), exercises: exercises,
                                       shownAs: lesson.name)
                var hasher = Hasher()  // seeded per process: the keys only compare learners of this run
                for path in code.files.keys.sorted() {
                    hasher.combine(path)
                    hasher.combine(code.files[path])
                }
                return String(UInt(bitPattern: hasher.finalize()), radix: 16)
            }.joined(separator: "/")
        }
        return checkouts.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
    }
}
