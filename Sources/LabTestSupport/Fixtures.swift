import Foundation
import FirebaseEmulator

/// Recorded Firebase JSON in the kit's Fixtures/ folder (see Fixtures/README.md for the formats).
public enum Fixtures {
    /// Fixtures/, found from this file's place in the kit, so it works from any working directory.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // LabTestSupport/
        .deletingLastPathComponent()  // Sources/
        .deletingLastPathComponent()  // the kit's root
        .appendingPathComponent("Fixtures")

    public struct FixtureError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The data of `Fixtures/<path>`, or an error that names the file and what is wrong.
    public static func data(_ path: String) throws -> Data {
        let url = folder.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
            throw FixtureError(description: "fixture Fixtures/\(path) not found (in that folder: \(siblings.sorted().joined(separator: ", ")))")
        }
        return data
    }

    /// `Fixtures/<path>` parsed as JSON.
    public static func json(_ path: String) throws -> JSONValue {
        do {
            return try JSONValue(data: data(path))
        } catch let error as FixtureError {
            throw error
        } catch {
            throw FixtureError(description: "fixture Fixtures/\(path) is not valid JSON: \(error)")
        }
    }

    /// A database export from Fixtures/databases/, by name without `.json`: `database("message-board-sample")`.
    public static func database(_ name: String) throws -> JSONValue {
        try json("databases/\(name).json")
    }

    /// `Fixtures/<path>` decoded as `type`, with an error naming the file and the key that did not fit.
    public static func decode<T: Decodable>(_ type: T.Type, from path: String, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        let bytes = try data(path)
        do {
            return try decoder.decode(type, from: bytes)
        } catch {
            throw FixtureError(description: "fixture Fixtures/\(path) does not decode as \(type): \(error)")
        }
    }
}
