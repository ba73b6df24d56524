import Foundation

/// Finds the kit's root folder: the nearest folder, from `start` upwards, that holds Package.swift and Solutions/.
public enum KitRoot {
    public struct NotFound: Error, CustomStringConvertible {
        public let start: String
        public var description: String {
            "could not find the lab kit from \(start): run this from the kit's folder (the one with Package.swift and Solutions/)"
        }
    }

    public static func find(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> URL {
        var folder = start.standardizedFileURL
        while true {
            let manager = FileManager.default
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
               manager.fileExists(atPath: folder.appendingPathComponent("Solutions").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { throw NotFound(start: start.path) }
            folder = parent
        }
    }
}
