import Foundation

/// What changed between two gradings of a class (`ClassSummary`, the last one kept as `class-report.json`): who
/// moved, who joined or left, and which mistakes faded or spread. Scores are compared on the lessons graded both
/// times, so grading one lesson after the whole course moves nobody.
struct ClassChanges: Equatable {
    let since: String
    let moved: [Move]
    let joined: [String]
    let left: [String]
    let mistakes: [MistakeChange]

    struct Move: Equatable {
        let learner: String
        let before: Double
        let now: Double
        /// The lessons whose score changed.
        let lessons: [LessonMove]
    }

    struct LessonMove: Equatable {
        let lesson: String
        let before: Double
        let now: Double
    }

    struct MistakeChange: Equatable {
        let mistake: ClassSummary.Mistake
        let before: Int
        let now: Int
        var faded: Bool { now < before }
    }

    init(from previous: ClassSummary, to current: ClassSummary) {
        since = previous.gradedAt
        let old = Dictionary(previous.learners.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Set(current.learners.map(\.name))
        joined = current.learners.map(\.name).filter { old[$0] == nil }
        left = previous.learners.map(\.name).filter { !new.contains($0) }
        moved = current.learners.compactMap { learner in
            guard let earlier = old[learner.name] else { return nil }
            let common = learner.scores.keys.filter { earlier.scores[$0] != nil }.sorted {
                $0.count != $1.count ? $0.count < $1.count : $0 < $1  // Lesson2 before Lesson10
            }
            let lessons = common.compactMap { name -> LessonMove? in
                let (was, now) = (earlier.scores[name]!, learner.scores[name]!)
                return was == now ? nil : LessonMove(lesson: name, before: was, now: now)
            }
            guard !lessons.isEmpty else { return nil }
            return Move(learner: learner.name, before: common.reduce(0) { $0 + earlier.scores[$1]! },
                        now: common.reduce(0) { $0 + learner.scores[$1]! }, lessons: lessons)
        }
        let graded = Set(current.exercises.map { $0.lesson + "§" + $0.section })
        let earlier = Dictionary(previous.mistakes.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let now = Dictionary(current.mistakes.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var changes: [MistakeChange] = []
        for (key, mistake) in earlier where graded.contains(mistake.lesson + "§" + mistake.exercise) {
            let count = now[key]?.learners.count ?? 0
            if count != mistake.learners.count { changes.append(MistakeChange(mistake: now[key] ?? mistake, before: mistake.learners.count, now: count)) }
        }
        for (key, mistake) in now where earlier[key] == nil {
            changes.append(MistakeChange(mistake: mistake, before: 0, now: mistake.learners.count))
        }
        mistakes = changes.sorted {
            abs($0.now - $0.before) != abs($1.now - $1.before) ? abs($0.now - $0.before) > abs($1.now - $1.before) : $0.mistake.key < $1.mistake.key
        }
    }

    var isEmpty: Bool { moved.isEmpty && joined.isEmpty && left.isEmpty && mistakes.isEmpty }
}
