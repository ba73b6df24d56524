import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch

/// The body of an upload task (`uploadTask(with:from:)`, `uploadTask(with:fromFile:)`, async `upload(for:from:)`).
///
/// A URLProtocol never sees an upload task's body in its request: the task keeps it apart. On Linux the task keeps it
/// in a stored property (`knownBody`), which reflection can read, so the emulator serves upload tasks like data tasks.
/// On Darwin the task is an Objective-C object that reflection cannot read: there the body stays hidden, and
/// `RecordedRequest.uploadBodyHidden` says so, so a test can tell the learner exactly that.
enum UploadTaskBody {
    /// What could be learnt of a task's body.
    enum Found {
        case notAnUploadTask
        case recovered(Data)
        case hidden
    }

    static func find(in task: URLSessionTask?) -> Found {
        guard let task = task, task is URLSessionUploadTask else { return .notAnUploadTask }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let known = current.children.first(where: { $0.label == "knownBody" }) {
                return data(in: known.value).map(Found.recovered) ?? .hidden
            }
            mirror = current.superclassMirror
        }
        return .hidden
    }

    /// `Optional<_Body>` → `_Body` → `.data(DispatchData)` / `.fileURL(URL)` / `.stream(…)` / `.none`.
    private static func data(in value: Any) -> Data? {
        var value = value
        let outer = Mirror(reflecting: value)
        if outer.displayStyle == .optional {
            guard let wrapped = outer.children.first?.value else { return nil }
            value = wrapped
        }
        guard let payload = Mirror(reflecting: value).children.first?.value else { return nil }
        if let data = payload as? DispatchData { return Data(data) }
        if let data = payload as? Data { return data }
        if let url = payload as? URL { return try? Data(contentsOf: url) }
        return nil
    }
}
