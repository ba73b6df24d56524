@_exported import EmulatorCore  // one `import FirebaseEmulator` gives lessons the log, faults, JSON and the transports
import Foundation

/// An in-memory Firebase Realtime Database with the real REST semantics: the Firebase service on the emulator core.
///
/// Give learner code `baseURL` and `session`; then assert on `requests` and `database`. Serve it on a port with
/// `EmulatorServer` for curl, apps and live streams.
public typealias FirebaseEmulator = Emulator<FirebaseService>

extension Emulator where Service == FirebaseService {
    public convenience init(
        database: JSONValue = .null, clock: @escaping () -> Date = { Date() },
        randomness: PushIDGenerator.Randomness = .system
    ) {
        self.init(FirebaseService(database: database, clock: clock, randomness: randomness))
    }

    /// Starts from a Firebase JSON export (the console's "Export JSON"), e.g. Fixtures/databases/*.json.
    public convenience init(
        databaseExport url: URL, clock: @escaping () -> Date = { Date() },
        randomness: PushIDGenerator.Randomness = .system
    ) throws {
        self.init(database: try DatabaseExportError.load(url), clock: clock, randomness: randomness)
    }

    /// The whole tree as `GET /.json` returns it (arrays reconstructed); `.null` when empty.
    public var database: JSONValue { withService { $0.tree.read(at: []) } }

    /// The value at a path like "/a/b" or "a/b", as a GET would return it; `.null` when missing.
    public func value(at path: String) -> JSONValue {
        let segments = path.split(separator: "/").map(String.init)
        return withService { $0.tree.read(at: segments) }
    }

    /// The `.indexOn` entries queries may use (`orderBy` a child or `"$value"` needs one, as on Firebase).
    public var queryIndexes: QueryIndexes {
        get { withService { $0.indexes } }
        set { withService { $0.indexes = newValue } }
    }

    /// Replaces the whole tree (arrays, nulls and empty objects are stored the way a PUT would store them).
    public func load(_ database: JSONValue) {
        withService { $0.tree = DataTree(database) }
    }
}

/// A database export that cannot be loaded, naming the file and the problem.
public struct DatabaseExportError: Error, CustomStringConvertible, LocalizedError {
    public let file: URL
    public let reason: String

    public var description: String { "Cannot load the database export \(file.path): \(reason)" }
    public var errorDescription: String? { description }

    static func load(_ url: URL) throws -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DatabaseExportError(file: url, reason: "the file cannot be read (\(error.localizedDescription))")
        }
        do {
            return try JSONValue(data: data)
        } catch {
            throw DatabaseExportError(file: url, reason: "it is not valid JSON: \(error)")
        }
    }
}
