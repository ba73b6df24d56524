import Foundation

/// The files `lab grade` takes from a learner's lesson folder: their own Swift sources and nothing else. A link is
/// followed only when it leads to a file inside their own Exercises/ — a link to the kit's Solutions/ is refused, and
/// so is a lesson folder, or an Exercises/ folder, that is itself a link out of the checkout (on the instructor's
/// machine it would lead to the instructor's files). Other kinds of file (a stray `.c`, which SwiftPM would refuse to
/// mix with Swift) are left out, with a note.
struct LearnerCode {
    /// Path inside the lesson folder → contents.
    var files: [String: Data] = [:]
    var notes: [String] = []
    /// Each link refused, as a sentence naming it and where it leads.
    var refusedLinks: [String] = []

    /// The first link refused, as the reason the lesson is not graded: without that file it could not compile, and
    /// "does not compile" would hide what happened.
    var refusedLink: String? { refusedLinks.first }

    /// `lessonFolder` is `<checkout>/Exercises/<lesson>`; `exercises` the learner's `Exercises/`.
    init(lessonFolder: URL, exercises: URL, shownAs prefix: String) {
        let manager = FileManager.default
        // Exercises/ where the checkout is, not where a link named Exercises leads: that is the learner's own folder.
        let home = exercises.deletingLastPathComponent().resolvingSymlinksInPath()
            .appendingPathComponent(exercises.lastPathComponent).standardizedFileURL.path + "/"
        let lessonTarget = lessonFolder.resolvingSymlinksInPath().standardizedFileURL.path
        guard (lessonTarget + "/").hasPrefix(home) else {
            // The enumerator would list nothing (Linux) or the kit's own files (through a linked Exercises/).
            let isLink = (try? manager.destinationOfSymbolicLink(atPath: exercises.path)) != nil
            let shown = isLink ? (prefix as NSString).deletingLastPathComponent : prefix
            refusedLinks.append(Self.refusal(shown.isEmpty ? "Exercises" : shown, leadsTo: isLink
                ? exercises.resolvingSymlinksInPath().path : lessonTarget))
            return
        }
        // Walked where it is: an enumerator lists nothing in a folder that is a link (Linux).
        let walked = URL(fileURLWithPath: lessonTarget)
        guard let walker = manager.enumerator(atPath: walked.path) else { return }
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            let url = walked.appendingPathComponent(path)
            let shown = "\(prefix)/\(path)"
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL
            let isLink = (try? manager.destinationOfSymbolicLink(atPath: url.path)) != nil
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: resolved.path, isDirectory: &isFolder) else {
                // A link to nothing (or a loop): said, so that a learner's file that "is there" is not silently missing.
                if isLink { notes.append("\(shown) is a link that leads to no file: not taken") }
                continue
            }
            if isLink, !resolved.path.hasPrefix(home) {
                refusedLinks.append(Self.refusal(shown, leadsTo: resolved.path))
                if isFolder.boolValue { walker.skipDescendants() }
                continue
            }
            if isFolder.boolValue { continue }
            guard name.hasSuffix(".swift") else {
                notes.append("\(shown): only .swift files are graded, not taken")
                continue
            }
            if name == "Package.swift" {  // a manifest in a lesson folder would be code of the grader's build
                notes.append("\(shown): a package manifest is not a lesson's code, not taken")
                continue
            }
            guard let data = try? Data(contentsOf: resolved) else {
                notes.append("\(shown) cannot be read: not taken")
                continue
            }
            files[path] = data
        }
    }

    /// "Exercises/Lesson1/X.swift is a link to …, outside your Exercises/ — links are not graded": what the learner
    /// reads in the lesson's row, so they know to put their own code in its place.
    static func refusal(_ shown: String, leadsTo target: String) -> String {
        "\(shown) is a link to \(target), outside your Exercises/ — links are not graded: put your own code there"
    }
}
