import Foundation

/// ChatCave's resources, each answered as the course's API does:
/// ```
/// GET    /rooms                          200 [room]
/// POST   /rooms            {"name"}      201 room, Location: /rooms/<id>
/// GET    /rooms/<id>                     200 room
/// DELETE /rooms/<id>                     204 (its creator only)
/// GET    /rooms/<id>/chatters            200 [{"user_id"}]
/// PUT    /rooms/<id>/chatters/<user_id>  204 (yourself only; joining twice is fine)
/// DELETE /rooms/<id>/chatters/<user_id>  204 (yourself only), 404 when not in the room
/// GET    /rooms/<id>/messages[?since=<message id>]  200 [message] with a larger id, oldest first
/// POST   /rooms/<id>/messages  {"text"}  201 message (chatters only)
/// ```
/// Any request without valid Basic credentials: 401. A `.json` suffix is accepted, as Rails-style APIs do.
enum ChatCaveRoutes {
    static func respond(to request: ServiceRequest, state: inout ChatCaveAPI) -> EmulatorResponse {
        let user: String
        switch ChatCaveAuth.user(of: request, users: state.users) {
        case .success(let signedIn): user = signedIn
        case .failure(let refusal): return ChatCaveJSON.error(401, refusal.message)
        }
        guard let segments = request.segments, segments.first == "rooms" else {
            return ChatCaveJSON.error(404, "no such resource: \(request.path) (ChatCave's resources are under /rooms)")
        }
        if segments.count == 1 { return rooms(request, user: user, state: &state) }
        guard let roomID = Int(segments[1]), let index = state.rooms.firstIndex(where: { $0.id == roomID }) else {
            return ChatCaveJSON.error(404, "no room with id \(segments[1])")
        }
        let call = Call(request: request, user: user, roomIndex: index)
        switch segments.count {
        case 2: return call.room(&state)
        case 3 where segments[2] == "chatters": return call.chatters(&state)
        case 4 where segments[2] == "chatters": return call.chatter(segments[3], &state)
        case 3 where segments[2] == "messages": return call.messages(&state)
        default: return ChatCaveJSON.error(404, "no such resource: \(request.path)")
        }
    }

    private static func rooms(_ request: ServiceRequest, user: String, state: inout ChatCaveAPI) -> EmulatorResponse {
        switch request.method {
        case "GET":
            return ChatCaveJSON.json(.array(state.rooms.map(ChatCaveJSON.room)))
        case "POST":
            guard let name = field("name", of: request) else { return missing("name", in: request) }
            let room = state.addRoom(named: name, by: user)
            return ChatCaveJSON.json(ChatCaveJSON.room(room), status: 201, location: "/rooms/\(room.id)")
        default:
            return notAllowed(request, allow: "GET, POST")
        }
    }

    /// A request about one existing room.
    private struct Call {
        let request: ServiceRequest
        let user: String
        let roomIndex: Int

        func room(_ state: inout ChatCaveAPI) -> EmulatorResponse {
            let room = state.rooms[roomIndex]
            switch request.method {
            case "GET":
                return ChatCaveJSON.json(ChatCaveJSON.room(room))
            case "DELETE":
                guard room.createdBy == user else { return ChatCaveJSON.error(403, "only \(room.createdBy), who created room \(room.id), may delete it") }
                state.rooms.remove(at: roomIndex)
                state.messages.removeAll { $0.roomID == room.id }
                return ChatCaveJSON.noContent
            default:
                return notAllowed(request, allow: "GET, DELETE")
            }
        }

        func chatters(_ state: inout ChatCaveAPI) -> EmulatorResponse {
            guard request.method == "GET" else { return notAllowed(request, allow: "GET") }
            return ChatCaveJSON.json(.array(state.rooms[roomIndex].chatters.map { ["user_id": .string($0)] }))
        }

        func chatter(_ chatter: String, _ state: inout ChatCaveAPI) -> EmulatorResponse {
            let room = state.rooms[roomIndex]
            guard ["PUT", "DELETE"].contains(request.method) else { return notAllowed(request, allow: "PUT, DELETE") }
            guard chatter == user else {
                return ChatCaveJSON.error(403, "you are signed in as \(user): you can add or remove only yourself (/rooms/\(room.id)/chatters/\(user)), not \(chatter)")
            }
            if request.method == "PUT" {
                state.join(roomID: room.id, user: user)
                return ChatCaveJSON.noContent
            }
            guard let position = room.chatters.firstIndex(of: user) else {
                return ChatCaveJSON.error(404, "\(user) is not in room \(room.id)")
            }
            state.rooms[roomIndex].chatters.remove(at: position)
            return ChatCaveJSON.noContent
        }

        func messages(_ state: inout ChatCaveAPI) -> EmulatorResponse {
            let room = state.rooms[roomIndex]
            switch request.method {
            case "GET":
                var since = 0
                if let text = request.query["since"] {
                    guard let value = Int(text), value >= 0 else {
                        return ChatCaveJSON.error(400, "since must be a message id (a whole number), not \"\(text)\"")
                    }
                    since = value
                }
                let found = state.messages.filter { $0.roomID == room.id && $0.id > since }
                return ChatCaveJSON.json(.array(found.map(ChatCaveJSON.message)))
            case "POST":
                guard room.chatters.contains(user) else {
                    return ChatCaveJSON.error(403, "\(user) has not joined room \(room.id): join it (PUT /rooms/\(room.id)/chatters/\(user)) before posting")
                }
                guard let text = field("text", of: request) else { return missing("text", in: request) }
                let message = state.addMessage(text, roomID: room.id, user: user)
                return ChatCaveJSON.json(ChatCaveJSON.message(message), status: 201, location: "/rooms/\(room.id)/messages/\(message.id)")
            default:
                return notAllowed(request, allow: "GET, POST")
            }
        }
    }

    /// A non-empty string field of the JSON object body.
    private static func field(_ name: String, of request: ServiceRequest) -> String? {
        guard let body = request.body, let value = (try? JSONValue(data: body))?.objectValue?[name]?.stringValue,
            !value.isEmpty
        else { return nil }
        return value
    }

    private static func missing(_ name: String, in request: ServiceRequest) -> EmulatorResponse {
        guard let body = request.body else {
            return ChatCaveJSON.error(400, "this request needs a JSON body: {\"\(name)\": \"…\"}")
        }
        guard (try? JSONValue(data: body)) != nil else { return ChatCaveJSON.error(400, "the body is not valid JSON") }
        return ChatCaveJSON.error(422, "the body needs a non-empty string \"\(name)\"")
    }

    private static func notAllowed(_ request: ServiceRequest, allow: String) -> EmulatorResponse {
        ChatCaveJSON.error(405, "\(request.method) is not allowed on \(request.path); use \(allow)", allow: allow)
    }
}
