import Foundation
import LabMetadata

/// Digests of files by path, size and modification time: any edit changes a file's time, and hashing every file's
/// bytes instead cost about a second of each `lab grade`.
enum KitFingerprint {
    /// Everything that decides grades: the manifest, Sources/, Tests/, Fixtures/, Solutions/, lessons.json.
    static func of(_ kit: Kit) throws -> String {
        digest(Data(listing(of: ["Package.swift", "lessons.json", "Sources", "Tests", "Fixtures", "Solutions"], in: kit.root).utf8))
    }

    /// A line per regular file of `parts` (files or folders of `root`): its path, size and time.
    static func listing(of parts: [String], in root: URL) -> String {
        var listing = ""
        for part in parts {
            let paths = (try? regularFiles(under: root.appendingPathComponent(part))).map { $0.map { "\(part)/\($0)" } } ?? [part]
            for path in paths.sorted() { listing += "\(path)\t\(sizeAndTime(of: root.appendingPathComponent(path)))\n" }
        }
        return listing
    }

    /// "size<tab>time" of a file; -1 and 0 when it cannot be read.
    static func sizeAndTime(of url: URL) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size)\t\(time)"
    }

    /// SHA-256, in hex.
    static func digest(_ data: Data) -> String {
        SHA256.hash(Array(data)).map { String(format: "%02x", $0) }.joined()
    }
}
