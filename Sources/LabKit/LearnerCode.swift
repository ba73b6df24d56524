import Foundation

/// The files `lab grade` takes from a learner's lesson folder: their own Swift sources and nothing else. A link is
/// followed only when it leads to a file inside their own Exercises/ (a link to the kit's Solutions/ is refused);
/// other kinds of file (a stray `.c`, which SwiftPM would refuse to mix with Swift) are left out. Both are noted.
struct LearnerCode {
    /// Path inside the lesson folder → contents.
    var files: [String: Data] = [:]
    var notes: [String] = []
    /// The first link refused, as the reason the lesson is not graded: without that file it could not compile, and
    /// "does not compile" would hide what happened.
    var refusedLink: String?

    /// `lessonFolder` is `<checkout>/Exercises/<lesson>`; `exercises` the learner's `Exercises/`.
    init(lessonFolder: URL, exercises: URL, shownAs prefix: String) {
        let manager = FileManager.default
        let home = exercises.resolvingSymlinksInPath().standardizedFileURL.path + "/"
        guard let walker = manager.enumerator(atPath: lessonFolder.path) else { return }
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            let url = lessonFolder.appendingPathComponent(path)
            let shown = "\(prefix)/\(path)"
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL
            let isLink = (try? manager.destinationOfSymbolicLink(atPath: url.path)) != nil
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: resolved.path, isDirectory: &isFolder) else { continue }  // dangling
            if isLink, !resolved.path.hasPrefix(home) {
                notes.append("\(shown) is a link to \(resolved.path), outside your Exercises/: not taken")
                if refusedLink == nil {
                    refusedLink = "\(shown) is a link to \(resolved.path), outside your Exercises/: refused — a lesson is graded on your own files, not links"
                }
                if isFolder.boolValue { walker.skipDescendants() }
                continue
            }
            if isFolder.boolValue { continue }
            guard name.hasSuffix(".swift") else {
                notes.append("\(shown): only .swift files are graded, not taken")
                continue
            }
            if name == "Package.swift" { continue }  // a manifest in a lesson folder would be code of the grader's build
            if let data = try? Data(contentsOf: resolved) { files[path] = data }
        }
    }
}
