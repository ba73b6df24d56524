// Given: already written for you. The values your service hands its callers, and its one failure type.
import Foundation

/// Who the service signs in as: every request carries them in `Authorization: Basic …` (LESSONS.md §7.2).
public struct Credentials: Equatable {
    public let user: String
    public let password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// A chat room as ChatCave sends it: `{"id": 1, "name": "Swift", "created_by": "ada", "created_at": "2026-11-23T10:00:00Z"}`.
/// The server makes the id. Times are ISO 8601 strings: decode them with `dateDecodingStrategy = .iso8601`.
public struct Room: Decodable, Equatable {
    public let id: Int
    public let name: String
    public let createdBy: String
    public let createdAt: Date

    public init(id: Int, name: String, createdBy: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdBy = "created_by"
        case createdAt = "created_at"
    }
}

/// A message in a room: `{"id": 7, "room_id": 1, "user_id": "ada", "text": "Hi!", "sent_at": "2026-11-23T10:01:00Z"}`.
/// Ids grow: a message posted later has a larger id, in every room — that is what `?since=<id>` relies on.
public struct Message: Decodable, Equatable {
    public let id: Int
    public let roomID: Int
    public let userID: String
    public let text: String
    public let sentAt: Date

    public init(id: Int, roomID: Int, userID: String, text: String, sentAt: Date) {
        self.id = id
        self.roomID = roomID
        self.userID = userID
        self.text = text
        self.sentAt = sentAt
    }

    enum CodingKeys: String, CodingKey {
        case id, text
        case roomID = "room_id"
        case userID = "user_id"
        case sentAt = "sent_at"
    }
}

/// Names one call in flight, so its caller can cancel it (`cancelRequest(_:)`, LESSONS.md §7.6).
public struct RequestID: Hashable {
    private let value = UUID()

    public init() {}
}

/// Why a call failed: the one failure type of every call, so callers never see HTTP or JSON (LESSONS.md §7.2).
public enum ChatCaveError: Error {
    /// No answer at all: URLSession's error, as it is.
    case transport(Error)
    /// 401: the credentials are missing or wrong. Not a decoding problem, and never a success.
    case unauthorized
    /// Any other status outside 200...299, with the body the server sent (ChatCave's `{"error": "…"}`).
    case server(statusCode: Int, body: String)
    /// A 2xx answer whose body is not what the model expects: the DecodingError.
    case decoding(Error)
}
