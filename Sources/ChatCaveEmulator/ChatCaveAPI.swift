import Foundation

/// The ChatCave API as a service on the emulator core (named apart from Lesson 7's client, `ChatCaveService`):
/// users who may sign in, rooms, chatters and messages, with ids the server makes (counting from 1, rooms and
/// messages separately). Every request needs `Authorization: Basic …`.
public struct ChatCaveAPI: EmulatedService {
    public static let hostDomain = "chatcave.invalid"
    /// The course's two accounts.
    public static let courseUsers = ["ada": "lovelace", "grace": "hopper"]

    public struct Room: Equatable {
        public let id: Int
        public let name: String
        public let createdBy: String
        public let createdAt: Date
        /// In the order they joined.
        public internal(set) var chatters: [String]
    }

    public struct Message: Equatable {
        public let id: Int
        public let roomID: Int
        public let userID: String
        public let text: String
        public let sentAt: Date
    }

    let users: [String: String]
    let clock: () -> Date
    public internal(set) var rooms: [Room] = []
    public internal(set) var messages: [Message] = []
    var nextRoomID = 1
    var nextMessageID = 1

    public init(users: [String: String] = ChatCaveAPI.courseUsers, clock: @escaping () -> Date = { Date() }) {
        self.users = users
        self.clock = clock
    }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        .response(ChatCaveRoutes.respond(to: request, state: &self))
    }

    // MARK: Changing the state (shared by the routes and the seeding helpers)

    mutating func addRoom(named name: String, by creator: String) -> Room {
        let room = Room(id: nextRoomID, name: name, createdBy: creator, createdAt: clock(), chatters: [])
        nextRoomID += 1
        rooms.append(room)
        return room
    }

    mutating func join(roomID: Int, user: String) {
        guard let index = rooms.firstIndex(where: { $0.id == roomID }), !rooms[index].chatters.contains(user) else { return }
        rooms[index].chatters.append(user)
    }

    mutating func addMessage(_ text: String, roomID: Int, user: String) -> Message {
        let message = Message(id: nextMessageID, roomID: roomID, userID: user, text: text, sentAt: clock())
        nextMessageID += 1
        messages.append(message)
        return message
    }
}
