import Foundation

/// What every stub in Exercises/ throws, or passes to its completion, until the learner writes the real code.
///
/// Stubs never call `fatalError`: that would kill the whole XCTest process and every later test's result. The tests
/// recognise this error and report "not started yet: <function> — see LESSONS.md §<section>" instead of a confusing failure.
public struct NotImplemented: Error, CustomStringConvertible, Equatable {
    /// The function the learner still has to write, e.g. `createMessageThread(title:completion:)`.
    public let function: String
    /// The LESSONS.md section that explains it, e.g. `1.3`.
    public let section: String

    public init(_ function: String, section: String) {
        self.function = function
        self.section = section
        StubLog.record(self)
    }

    public var description: String {
        "not started yet: \(function) — see LESSONS.md §\(section)"
    }
}

/// Remembers which stubs ran, so a test can tell "not started" apart from "wrong" even when the stub could not throw
/// (an initialiser, a property) and only returned a placeholder.
public enum StubLog {
    private static let lock = NSLock()
    private static var hits: [NotImplemented] = []

    /// Records that a stub ran. Stubs that cannot throw call this and return a placeholder value.
    public static func record(_ stub: NotImplemented) {
        lock.lock(); defer { lock.unlock() }
        if !hits.contains(stub) { hits.append(stub) }
    }

    /// The stubs that ran since the last `reset()`, in the order they first ran.
    public static var recorded: [NotImplemented] {
        lock.lock(); defer { lock.unlock() }
        return hits
    }

    public static func reset() {
        lock.lock(); defer { lock.unlock() }
        hits.removeAll()
    }
}
