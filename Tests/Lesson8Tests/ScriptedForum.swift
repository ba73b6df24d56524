import Foundation
import FirebaseEmulator

/// Firebase's side of one thread's stream, with the test holding the pen: `GET /threads/t1/messages.json` with
/// `Accept: text/event-stream` opens a stream, and the test writes into it exactly the bytes it wants, in the pieces
/// it wants (a real database decides its own timing and framing; a grader must not). Any other request is refused
/// with 400, as Firebase refuses what it cannot serve, and stays in the log for the message.
struct ScriptedForum: EmulatedService {
    static let hostDomain = "forum.invalid"
    static let threadID = "t1"
    static let streamPath = "/threads/\(threadID)/messages"

    private(set) var streams: [EventStream] = []
    /// When set, the stream is refused as Firebase refuses a read the rules do not allow.
    var refuses = false

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        let accept = (request.header("Accept") ?? "").lowercased()
        guard request.method == "GET", request.path == Self.streamPath, request.hasJSONSuffix,
              accept.contains("text/event-stream") else {
            return .response(errorResponse(status: 400, message: "this server streams GET \(Self.streamPath).json with Accept: text/event-stream"))
        }
        if refuses { return .response(errorResponse(status: 401, message: "Permission denied")) }
        let stream = EventStream(headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"])
        streams.append(stream)
        return .stream(stream)
    }
}
