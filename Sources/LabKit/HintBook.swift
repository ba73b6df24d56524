import Foundation
import LabMetadata

/// Which hints a learner has seen, per exercise, kept in `.lab/hints.json`: hints come one at a time, in order.
public struct HintBook {
    let file: URL
    private(set) var shown: [String: Int]

    public init(kit: Kit) {
        file = kit.stateFolder.appendingPathComponent("hints.json")
        shown = (try? JSONDecoder().decode([String: Int].self, from: Data(contentsOf: file))) ?? [:]
    }

    /// The hint the learner saw last for `exercise` (the first one, now remembered as seen, if none yet).
    public mutating func current(for exercise: LessonCatalog.Exercise) -> (text: String, number: Int)? {
        guard !exercise.hints.isEmpty else { return nil }
        let number = min(max(shown[exercise.section] ?? 0, 1), exercise.hints.count)
        if shown[exercise.section] == nil { try? remember(exercise, seen: number) }
        return (exercise.hints[number - 1], number)
    }

    /// The next hint for `exercise`, remembered as seen; nil when every hint has been shown.
    public mutating func next(for exercise: LessonCatalog.Exercise) throws -> (text: String, number: Int)? {
        let seen = shown[exercise.section] ?? 0
        guard seen < exercise.hints.count else { return nil }
        try remember(exercise, seen: seen + 1)
        return (exercise.hints[seen], seen + 1)
    }

    private mutating func remember(_ exercise: LessonCatalog.Exercise, seen: Int) throws {
        shown[exercise.section] = seen
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(shown).write(to: file, options: .atomic)
    }
}
