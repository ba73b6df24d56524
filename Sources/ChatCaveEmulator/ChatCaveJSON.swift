import Foundation

/// How ChatCave writes its resources: snake_case keys, ids as numbers, times in ISO 8601 (UTC, whole seconds).
enum ChatCaveJSON {
    static let headers = ["Content-Type": "application/json; charset=utf-8"]

    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func room(_ room: ChatCaveAPI.Room) -> JSONValue {
        ["id": .number(Double(room.id)), "name": .string(room.name), "created_by": .string(room.createdBy),
         "created_at": .string(time(room.createdAt))]
    }

    static func message(_ message: ChatCaveAPI.Message) -> JSONValue {
        ["id": .number(Double(message.id)), "room_id": .number(Double(message.roomID)), "user_id": .string(message.userID),
         "text": .string(message.text), "sent_at": .string(time(message.sentAt))]
    }

    static func json(_ value: JSONValue, status: Int = 200, location: String? = nil) -> EmulatorResponse {
        var headers = Self.headers
        headers["Location"] = location
        return .raw(status: status, headers: headers, body: value.jsonData)
    }

    static func error(_ status: Int, _ message: String, allow: String? = nil) -> EmulatorResponse {
        var headers = Self.headers
        headers["Allow"] = allow
        return .raw(status: status, headers: headers, body: JSONValue.object(["error": .string(message)]).jsonData)
    }

    static let noContent = EmulatorResponse.raw(status: 204, headers: [:], body: Data())
}
