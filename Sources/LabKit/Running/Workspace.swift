import Foundation

/// A private copy of the kit under `.lab/<name>/`, for runs that must not touch the learner's files: grading a
/// class, trying mutants, checking around a lesson that does not compile. Files are copied only when their content
/// differs, so the copy's build stays incremental from one use to the next.
struct Workspace {
    let kit: Kit
    let folder: URL

    /// What a workspace takes from the kit: everything a build and the tests need.
    static let kitParts = ["Package.swift", "Sources", "Tests", "Fixtures", "lessons.json", "Exercises"]

    /// `takingExercises` false: a copy that already has an Exercises/ keeps it — a grading copy puts each learner's
    /// lessons in, and taking the kit's stubs first would make every lesson compile twice.
    init(kit: Kit, name: String, takingExercises: Bool = true) throws {
        self.kit = kit
        folder = kit.stateFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let hasExercises = FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises").path)
        for part in Self.kitParts where part != "Exercises" || takingExercises || !hasExercises {
            try Self.mirror(kit.root.appendingPathComponent(part), to: folder.appendingPathComponent(part))
        }
    }

    /// Puts the kit's own files back (all but Exercises/), undoing whatever a previous run may have changed.
    func restoreKit() throws {
        for part in Self.kitParts where part != "Exercises" {
            try Self.mirror(kit.root.appendingPathComponent(part), to: folder.appendingPathComponent(part))
        }
    }

    /// A run of the lessons' tests in this copy, built the private copies' way (`SwiftFlags.privateCopy`, and
    /// `QuickBuild` once SwiftPM has built it).
    func lessonRun() -> LessonRun {
        var run = LessonRun(root: folder, catalog: kit.catalog)
        run.buildFlags = SwiftFlags.privateCopy
        run.quick = true
        run.timesFile = kit.testTimesFile
        return run
    }

    /// The workspace's copy of a lesson's code: `Exercises/<lesson>/`.
    func lessonFolder(_ lesson: String) -> URL {
        folder.appendingPathComponent("Exercises").appendingPathComponent(lesson)
    }

    /// Makes `Exercises/<lesson>/` in the workspace hold exactly what `source` holds.
    func use(_ source: URL, for lesson: String) throws {
        try Self.mirror(source, to: lessonFolder(lesson))
    }

    /// Makes `Exercises/<lesson>/` in the workspace hold exactly `files` (path inside the lesson → contents).
    func use(files: [String: Data], for lesson: String) throws {
        let target = lessonFolder(lesson)
        for (path, data) in files {
            let url = target.appendingPathComponent(path)
            if (try? Data(contentsOf: url)) == data { continue }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
        for path in (try? regularFiles(under: target)) ?? [] where files[path] == nil {
            try? FileManager.default.removeItem(at: target.appendingPathComponent(path))
        }
    }

    /// Puts the kit's stubs (generated from Solutions/, never the learner's Exercises/) in place of a lesson.
    func useStubs(for lesson: String) throws {
        let stubs = try ExerciseTree(kitRoot: kit.root).expectedExercises().filter { $0.key.hasPrefix("\(lesson)/") }
        let target = lessonFolder(lesson)
        for (path, text) in stubs {
            let url = folder.appendingPathComponent("Exercises").appendingPathComponent(path)
            if (try? String(contentsOf: url, encoding: .utf8)) != text {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        let keep = Set(stubs.keys.map { String($0.dropFirst(lesson.count + 1)) })
        for path in (try? regularFiles(under: target)) ?? [] where !keep.contains(path) {
            try? FileManager.default.removeItem(at: target.appendingPathComponent(path))
        }
    }

    /// Makes `target` hold the same regular files as `source` (a file or a folder): writes what differs, removes
    /// what `source` lacks.
    static func mirror(_ source: URL, to target: URL) throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: source.path, isDirectory: &isFolder) else {
            try? manager.removeItem(at: target)
            return
        }
        guard isFolder.boolValue else {
            try copyIfDifferent(source, to: target)
            return
        }
        var targetIsFolder: ObjCBool = false
        if manager.fileExists(atPath: target.path, isDirectory: &targetIsFolder), !targetIsFolder.boolValue {
            try manager.removeItem(at: target)
        }
        try manager.createDirectory(at: target, withIntermediateDirectories: true)
        let wanted = try regularFiles(under: source)
        for path in wanted {
            try copyIfDifferent(source.appendingPathComponent(path), to: target.appendingPathComponent(path))
        }
        let keep = Set(wanted)
        for path in (try? regularFiles(under: target)) ?? [] where !keep.contains(path) {
            try? manager.removeItem(at: target.appendingPathComponent(path))
        }
    }

    private static func copyIfDifferent(_ source: URL, to target: URL) throws {
        let data = try Data(contentsOf: source)
        if let existing = try? Data(contentsOf: target), existing == data { return }
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target, options: .atomic)
    }
}
