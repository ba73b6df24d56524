import Foundation
import XCTest
@testable import LabKit

/// A class of attacking learners, graded for real: each checkout is the kit's Lesson 1 (stubs, or the reference
/// solution) with files added and edits made, graded in a grading copy of its own (`name`) that builds Lesson 1
/// only, holding the kit's lock so that no other grading (a test in another process under `--parallel`) shares it.
struct AttackClass {
    struct Learner {
        var solved = false
        var files: [String: String] = [:]
        /// find → replace in the controller.
        var edits: [(String, String)] = []
        /// A file of the lesson replaced by a link to a path in the kit.
        var link: (name: String, target: String)?
    }

    struct Graded {
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
            checkouts.append((learner, folder.appendingPathComponent(learner)))
        }
        return try KitLock.during(kit, say: { _ in }) {
            let workspace = try GradingWorkspace(kit: kit, protected: [folder], name: name, lessons: [lesson])
            var graded = Graded()
            for (learner, checkout) in checkouts {
                let started = Date()
                graded.rows[learner] = try workspace.grade(checkout, learner: learner, resultsFile: folder.appendingPathComponent("\(learner).json"))
                graded.seconds[learner] = Date().timeIntervalSince(started)
            }
            return graded
        }
    }

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
