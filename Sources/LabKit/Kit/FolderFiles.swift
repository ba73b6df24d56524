import Foundation

/// The regular files below a folder, as sorted paths relative to it; hidden files and folders (.DS_Store, .build)
/// are skipped. Throws when the folder cannot be read.
func regularFiles(under root: URL) throws -> [String] {
    let rootPath = root.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: rootPath) else {
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: rootPath])
    }
    var paths: [String] = []
    while let path = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = (rootPath as NSString).appendingPathComponent(path)
        let hidden = path.split(separator: "/").contains { $0.hasPrefix(".") }
        if !hidden, FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            paths.append(path)
        }
    }
    return paths.sorted()
}
