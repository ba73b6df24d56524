import Foundation
import LabMetadata

/// Which hints a learner has seen, per exercise, kept in `.lab/hints.json`: hints come one at a time, in order, and
/// any hint already seen (or asked for by number) can be read again. The book also remembers, per lesson, the exercise
/// whose hint was shown last, so `lab hint Lesson1 --again` re-reads without running the tests.
public struct HintBook {
    let file: URL
    private(set) var shown: [String: Int]
    /// Lesson chapter ("1") → the section whose hint was shown last ("1.3").
    private(set) var last: [String: String]

    private struct Stored: Codable {
        var shown: [String: Int]
        var last: [String: String]?
    }

    public init(kit: Kit) {
        file = kit.stateFolder.appendingPathComponent("hints.json")
        let data = try? Data(contentsOf: file)
        if let data = data, let stored = try? JSONDecoder().decode(Stored.self, from: data) {
            shown = stored.shown
            last = stored.last ?? [:]
        } else {
            // The first format: just section → hints seen.
            shown = data.flatMap { try? JSONDecoder().decode([String: Int].self, from: $0) } ?? [:]
            last = [:]
        }
    }

    /// How a hint introduces itself: "hint 2 of 3", and for the last one "hint 3 of 3 — the last one".
    public static func label(_ number: Int, of count: Int) -> String {
        "hint \(number) of \(count)" + (number == count ? " — the last one" : "")
    }

    /// How many of `exercise`'s hints the learner has seen.
    public func seen(for exercise: LessonCatalog.Exercise) -> Int {
        min(shown[exercise.section] ?? 0, exercise.hints.count)
    }

    /// The section of `lesson`'s exercise whose hint the learner saw last, if any.
    public func lastSection(in lesson: LessonCatalog.Lesson) -> String? {
        last[lesson.chapter].flatMap { section in lesson.exercises.contains { $0.section == section } ? section : nil }
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

    /// Hint `number` (from 1) of `exercise`, to read again or to skip ahead to; every hint up to it counts as seen.
    /// Nil when the exercise has no such hint.
    public mutating func hint(_ number: Int, for exercise: LessonCatalog.Exercise) throws -> String? {
        guard exercise.hints.indices.contains(number - 1) else { return nil }
        try remember(exercise, seen: max(shown[exercise.section] ?? 0, number))
        return exercise.hints[number - 1]
    }

    private mutating func remember(_ exercise: LessonCatalog.Exercise, seen: Int) throws {
        shown[exercise.section] = seen
        if let chapter = exercise.section.split(separator: ".").first { last[String(chapter)] = exercise.section }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(Stored(shown: shown, last: last)).write(to: file, options: .atomic)
    }
}

/// What `lab hint` was asked: `<lesson | section>`, then nothing (the next hint), a hint number, or `--again`.
struct HintRequest {
    /// The lesson ("Lesson1", "1", …) or section ("1.3") named.
    let name: String
    let number: Int?
    let again: Bool

    /// Re-reading needs no test run when the book knows the exercise.
    var rereads: Bool { again || number != nil }

    init(_ arguments: [String]) throws {
        var words = Kit.joiningSplitLessonName(arguments)
        again = words.contains("--again")
        words.removeAll { $0 == "--again" }
        if let option = words.first(where: { $0.hasPrefix("-") && Int($0) == nil }) {
            throw UsageError("unknown option \(option) (`lab hint` takes a hint number or --again)")
        }
        guard (1...2).contains(words.count) else {
            throw UsageError("`lab hint` takes a lesson or a section, then a hint number or --again if you like: `lab hint Lesson1`, `lab hint Lesson1 2`, `lab hint 1.3 --again`")
        }
        name = words[0]
        if words.count == 2 {
            guard let number = Int(words[1]), number > 0 else {
                throw UsageError("'\(words[1])' is not a hint number: hints are numbered 1, 2, …")
            }
            guard !again else { throw UsageError("give a hint number or --again, not both") }
            self.number = number
        } else {
            number = nil
        }
    }

    /// The text `lab hint` prints for `exercise`, updating the hints seen in `book`.
    func answer(lesson: LessonCatalog.Lesson, exercise: LessonCatalog.Exercise, book: inout HintBook) throws -> String {
        let count = exercise.hints.count
        let title = "§\(exercise.section) \(exercise.function)"
        let explains = "LESSONS.md §\(exercise.section) explains the ideas, and `swift run lab check \(lesson.name)` says what is still wrong"
        guard count > 0 else { return "\(title) has no hints: \(explains)." }
        func show(_ number: Int, _ text: String) -> String { "\(title), \(HintBook.label(number, of: count)):\n  \(text)" }

        if let number = number {
            guard let text = try book.hint(number, for: exercise) else {
                throw UsageError("\(title) has \(count == 1 ? "one hint: ask for 1" : "\(count) hints: ask for 1 to \(count)")")
            }
            return show(number, text)
        }
        if again {
            let seen = max(book.seen(for: exercise), 1)
            var parts = try (1...seen).map { number in show(number, try book.hint(number, for: exercise) ?? "") }
            if seen < count { parts.append("(\(count - seen) more: `swift run lab hint \(lesson.name)` shows the next.)") }
            return parts.joined(separator: "\n")
        }
        if let hint = try book.next(for: exercise) {
            let text = show(hint.number, hint.text)
            return hint.number < count ? text : text + "\n\nThat is every hint for \(title): \(explains)."
        }
        return """
            You have seen all \(count) hint\(count == 1 ? "" : "s") for \(title); here is the last one again.
            \(show(count, exercise.hints[count - 1]))

            Read any hint again with `swift run lab hint \(lesson.name) <n>`, or all of them with `--again`. \(explains).
            """
    }
}
