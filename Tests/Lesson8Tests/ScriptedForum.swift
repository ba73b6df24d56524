import Foundation
import FirebaseEmulator

/// Firebase's side of one thread's stream, with the test holding the pen: `GET /<threadID>/messages.json` with
/// `Accept: text/event-stream` opens a stream, and the test writes into it exactly the bytes it wants, in the pieces
/// it wants (a real database decides its own timing and framing; a grader must not). Any other request is refused
/// with 400, as Firebase refuses what it cannot serve, and stays in the log for the message.
struct ScriptedForum: EmulatedService {
    static let hostDomain = "forum.invalid"
    /// A thread's key, as Lesson 1 makes them.
    static let threadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let streamPath = "/\(threadID)/messages"

    private(set) var streams: [EventStream] = []
    /// When set, the stream is refused as Firebase refuses a read the rules do not allow.
    var refuses = false
    /// The status of a refusal: Firebase's 401 Permission denied, unless a test wants another.
    var refusal = (status: 401, message: "Permission denied")

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        let accept = (request.header("Accept") ?? "").lowercased()
        guard request.method == "GET", request.path == Self.streamPath, request.hasJSONSuffix,
              accept.contains("text/event-stream") else {
            return .response(errorResponse(status: 400, message: "this server streams GET \(Self.streamPath).json with Accept: text/event-stream"))
        }
        if refuses { return .response(errorResponse(status: refusal.status, message: refusal.message)) }
        let stream = EventStream(headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"])
        streams.append(stream)
        return .stream(stream)
    }
}
