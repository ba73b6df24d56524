@_exported import EmulatorCore  // one `import ChatCaveEmulator` gives tests the log, faults, JSON and the transports
import Foundation

/// The ChatCave chat API (Lesson 7): rooms, who is in them, and their messages, behind HTTP Basic authentication.
///
/// Give learner code `baseURL` and `session`; then assert on `requests` (each with `wasCancelled`) and on `rooms` /
/// `messages`. `holdResponses()` keeps answers in flight until `releaseHeldResponses()`, for cancellation tests.
public typealias ChatCaveEmulator = Emulator<ChatCaveAPI>

extension Emulator where Service == ChatCaveAPI {
    /// An empty ChatCave with `users` (name → password) able to sign in, ids counted from 1, and `clock` stamping
    /// rooms and messages.
    public convenience init(users: [String: String] = ChatCaveAPI.courseUsers, clock: @escaping () -> Date = { Date() }) {
        self.init(ChatCaveAPI(users: users, clock: clock))
    }

    /// The rooms, oldest first.
    public var rooms: [ChatCaveAPI.Room] { withService { $0.rooms } }

    /// Every message in every room, oldest first.
    public var messages: [ChatCaveAPI.Message] { withService { $0.messages } }

    /// Adds a room as if `creator` had POSTed it (no request is logged); returns it with its new id.
    @discardableResult
    public func seedRoom(named name: String, by creator: String, chatters: [String] = []) -> ChatCaveAPI.Room {
        withService { service in
            let room = service.addRoom(named: name, by: creator)
            chatters.forEach { service.join(roomID: room.id, user: $0) }
            return service.rooms.first { $0.id == room.id } ?? room
        }
    }

    /// Adds a message as if `user` had POSTed it to room `roomID` (no request is logged); returns it.
    @discardableResult
    public func seedMessage(_ text: String, in roomID: Int, from user: String) -> ChatCaveAPI.Message {
        withService { $0.addMessage(text, roomID: roomID, user: user) }
    }
}
