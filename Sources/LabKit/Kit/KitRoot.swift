import Foundation

/// Finds the kit's root folder: the nearest folder, from `start` upwards, that holds Package.swift and Solutions/.
public enum KitRoot {
    public struct NotFound: Error, CustomStringConvertible {
        public let start: String
        /// The nearest folder that is the kit but for its Solutions/ (a folder renamed, or left out of a copy).
        public var withoutSolutions: String? = nil
        public var description: String {
            if let kit = withoutSolutions {
                return "\(kit) is the lab kit but has no Solutions/ folder, which lab needs (the reference solutions: Exercises/ is generated from them, and `lab grade` checks the kit against them first); put it back (`git checkout -- Solutions`, or copy it from a fresh clone of the kit)"
            }
            return "could not find the lab kit from \(start): run this from the kit's folder (the one with Package.swift and Solutions/)"
        }
    }

    public static func find(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> URL {
        var folder = start.standardizedFileURL
        var withoutSolutions: String?
        while true {
            let manager = FileManager.default
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                if manager.fileExists(atPath: folder.appendingPathComponent("Solutions").path) { return folder }
                if withoutSolutions == nil, manager.fileExists(atPath: folder.appendingPathComponent("lessons.json").path) {
                    withoutSolutions = folder.path
                }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { throw NotFound(start: start.path, withoutSolutions: withoutSolutions) }
            folder = parent
        }
    }
}
