import Foundation
import ChatCaveEmulator

/// Fixtures/chatcave/session.json: one recorded ChatCave session (format and provenance in Fixtures/README.md).
struct RecordedSession {
    struct Exchange {
        let note: String
        let method: String
        let path: String
        let headers: [String: String]
        let body: Data?
        let status: Int
        /// Header → expected value; nil: the header must be absent.
        let expectedHeaders: [String: String?]
        let expectedBody: JSONValue?
    }

    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/chatcave/session.json")

    let users: [String: String]
    let clockStart: Date
    let clockStep: TimeInterval
    let exchanges: [Exchange]

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func load() throws -> RecordedSession {
        let root = try JSONValue(data: Data(contentsOf: file))
        guard let environment = root["environment"]?.objectValue, let list = root["exchanges"]?.arrayValue,
            let users = environment["users"]?.objectValue, let start = environment["clockStart"]?.stringValue,
            let clockStart = ISO8601DateFormatter().date(from: start), let step = environment["clockStep"]?.numberValue
        else { throw Problem(description: "Fixtures/chatcave/session.json: needs environment.users, clockStart, clockStep and exchanges") }
        let exchanges = try list.enumerated().map { index, item -> Exchange in
            guard let request = item["request"]?.objectValue, let response = item["response"]?.objectValue,
                let method = request["method"]?.stringValue, let path = request["path"]?.stringValue,
                let status = response["status"]?.numberValue
            else { throw Problem(description: "Fixtures/chatcave/session.json: exchange \(index) lacks request.method, request.path or response.status") }
            return Exchange(
                note: item["note"]?.stringValue ?? "exchange \(index)", method: method, path: path,
                headers: (request["headers"]?.objectValue ?? [:]).compactMapValues(\.stringValue),
                body: request["body"]?.jsonData, status: Int(status),
                expectedHeaders: (response["headers"]?.objectValue ?? [:]).mapValues(\.stringValue),
                expectedBody: response["body"])
        }
        return RecordedSession(users: users.compactMapValues(\.stringValue), clockStart: clockStart, clockStep: step,
                               exchanges: exchanges)
    }

    /// A fresh emulator in the session's environment: its users, and a clock that steps on every reading.
    func makeEmulator() -> ChatCaveEmulator {
        let clock = SteppingClock(start: clockStart, step: clockStep)
        return ChatCaveEmulator(users: users, clock: clock.next)
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }
}
