import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// A class of attacking learners, graded for real: each checkout is the kit's Lesson 1 (stubs, or the reference
/// solution) with files added and edits made, graded in a grading copy of its own (`name`) that builds Lesson 1
/// only, holding that copy's lock (`.lab/<name>.lock`) so that no other grading of the same class (a test in another
/// process under `--parallel`) shares it, while the other classes grade in their own copies beside it.
/// Under `--parallel` every test is a process of its own and runs the class's setUp: the first grades, and the
/// others, waiting on the lock, take its rows from `.lab/<name>-rows.json` — kept for 10 minutes, and only while
/// the kit and the class are the same.
struct AttackClass {
    struct Learner {
        var solved = false
        var files: [String: String] = [:]
        /// find → replace in the controller.
        var edits: [(String, String)] = []
        /// A file of the lesson replaced by a link to a path in the kit.
        var link: (name: String, target: String)?
        /// A folder of the checkout ("Exercises/Lesson1", "Exercises") replaced by a link to a path in the kit.
        var linkedFolder: (path: String, target: String)?
    }

    struct Graded: Codable {
        var rows: [String: ClassReport.Row] = [:]
        /// Seconds each learner took to grade.
        var seconds: [String: Double] = [:]
    }

    static let controller = "MessageThreadController.swift"

    static func grade(_ learners: [(String, Learner)], copy name: String) throws -> Graded {
        let kit = try Kit(root: KitRoot.find())
        let lesson = try kit.lesson("Lesson1")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(name)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubs = try ExerciseTree(kitRoot: kit.root).expectedExercises().filter { $0.key.hasPrefix("Lesson1/") }
        var checkouts: [(String, URL)] = []
        for (learner, setup) in learners {
            let lessonFolder = folder.appendingPathComponent("\(learner)/Exercises/Lesson1")
            try FileManager.default.createDirectory(at: lessonFolder, withIntermediateDirectories: true)
            for (path, text) in stubs { try text.write(to: folder.appendingPathComponent("\(learner)/Exercises/\(path)"), atomically: true, encoding: .utf8) }
            if setup.solved {
                try FileManager.default.removeItem(at: lessonFolder)
                try FileManager.default.copyItem(at: kit.root.appendingPathComponent("Solutions/Lesson1"), to: lessonFolder)
            }
            for (file, text) in setup.files { try text.write(to: lessonFolder.appendingPathComponent(file), atomically: true, encoding: .utf8) }
            for (find, replace) in setup.edits {
                let url = lessonFolder.appendingPathComponent(controller)
                let text = try String(contentsOf: url, encoding: .utf8)
                guard text.contains(find) else { throw SetupFailure("\(learner): the controller no longer contains \(find)") }
                try text.replacingOccurrences(of: find, with: replace).write(to: url, atomically: true, encoding: .utf8)
            }
            if let link = setup.link {
                try? FileManager.default.removeItem(at: lessonFolder.appendingPathComponent(link.name))
                try FileManager.default.createSymbolicLink(at: lessonFolder.appendingPathComponent(link.name),
                                                           withDestinationURL: kit.root.appendingPathComponent(link.target))
            }
            if let link = setup.linkedFolder {
                let linked = folder.appendingPathComponent("\(learner)/\(link.path)")
                try FileManager.default.removeItem(at: linked)
                try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: kit.root.appendingPathComponent(link.target))
            }
            checkouts.append((learner, folder.appendingPathComponent(learner)))
        }
        return try KitLock.during(kit, named: "\(name).lock", say: { _ in }) {
            let key = try KitFingerprint.of(kit) + KitFingerprint.digest(Data(learners.map { "\($0)" }.joined(separator: "\n").utf8))
            let cache = kit.stateFolder.appendingPathComponent("\(name)-rows.json")
            if let kept = try? JSONDecoder().decode(Kept.self, from: Data(contentsOf: cache)), kept.key == key,
               Date().timeIntervalSince(kept.at) < 600 {
                return kept.graded
            }
            let workspace = try GradingWorkspace(kit: kit, protected: [folder], name: name, lessons: [lesson])
            var graded = Graded()
            for (learner, checkout) in checkouts {
                let started = Date()
                graded.rows[learner] = try workspace.grade(checkout, learner: learner, resultsFile: folder.appendingPathComponent("\(learner).json"))
                graded.seconds[learner] = Date().timeIntervalSince(started)
            }
            try? JSONEncoder().encode(Kept(key: key, at: Date(), graded: graded)).write(to: cache, options: .atomic)
            return graded
        }
    }

    /// The rows of a class graded a moment ago, for the other processes of the same `--parallel` run.
    struct Kept: Codable {
        let key: String
        let at: Date
        let graded: Graded
    }

    /// Lesson 1's points as the kit's tests and lessons.json make them: a test added to Lesson 1 moves it.
    static let lesson1Maximum: Double = {
        guard let kit = try? Kit(root: KitRoot.find()) else { return -1 }
        return kit.catalog.declarationOrder.keys.reduce(0) { total, key in
            guard let (lesson, exercise) = kit.catalog.exercise(forTestClass: String(key.prefix { $0 != "/" })),
                  lesson.name == "Lesson1" else { return total }
            return total + exercise.points
        }
    }()

    /// Asserts that `row` earned nothing of Lesson 1's points, kept its maximum, and (when `words`) has a note
    /// saying them.
    static func assertHonestZero(_ row: ClassReport.Row, _ name: String, noteContains words: String?,
                                 file: StaticString, line: UInt) throws {
        let results = try XCTUnwrap(row.results, "\(name) was not graded at all: \(row.notes)", file: file, line: line)
        XCTAssertEqual(results.score, 0, "\(name): the attack worked — it earned points: \(row.summary)", file: file, line: line)
        XCTAssertEqual(results.maxScore, lesson1Maximum, "\(name) changed Lesson 1's maximum: \(row.summary)", file: file, line: line)
        if let words = words {
            XCTAssertTrue(row.notes.contains { $0.contains(words) }, "\(name): no note says \"\(words)\": \(row.notes)", file: file, line: line)
        }
    }

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension ClassReport.Row: Codable {
    enum CodingKeys: String, CodingKey { case learner, results, notes }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(learner: try container.decode(String.self, forKey: .learner),
                  results: try container.decodeIfPresent(LabResults.self, forKey: .results),
                  notes: try container.decode([String].self, forKey: .notes))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(learner, forKey: .learner)
        try container.encodeIfPresent(results, forKey: .results)
        try container.encode(notes, forKey: .notes)
    }
}
