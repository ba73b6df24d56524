import Foundation
import FirebaseEmulator

/// Firebase with another client that likes the same message at the worst moment: just before each write the
/// learner's code sends to the counter (while `rivalLikes` lasts), the rival adds one like. So a write based on a
/// read made before it is stale — every time, in the same order, with no timing luck. The rival's writes are not in
/// the request log: only the learner's requests are.
struct RivalFirebase: EmulatedService {
    static let hostDomain = FirebaseService.hostDomain

    var firebase: FirebaseService
    /// The path of the counter the rival likes, e.g. "/likes/m1".
    let counterPath: String
    /// How many more writes the rival gets in before.
    var rivalLikes: Int
    /// How many likes the rival added.
    private(set) var rivalLiked = 0

    init(database: JSONValue, counterPath: String, rivalLikes: Int) {
        firebase = FirebaseService(database: database)
        self.counterPath = counterPath
        self.rivalLikes = rivalLikes
    }

    var jsonHeaders: [String: String] { firebase.jsonHeaders }

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        if rivalLikes > 0, request.method != "GET", request.path == counterPath {
            rivalLikes -= 1
            rivalLiked += 1
            let like = ServiceRequest(method: "PUT", url: request.url, headers: [:], body: Data(#"{".sv":{"increment":1}}"#.utf8))
            _ = firebase.respond(to: like)
        }
        return firebase.respond(to: request)
    }

    func errorResponse(status: Int, message: String) -> EmulatorResponse {
        firebase.errorResponse(status: status, message: message)
    }

    /// The counter now, as a GET would read it (nil when nothing is there or it is not a number).
    mutating func count() -> Int? {
        let read = ServiceRequest(method: "GET", url: URL(string: "https://rival.invalid\(counterPath).json")!, headers: [:], body: nil)
        guard case .response(let response) = firebase.respond(to: read) else { return nil }
        return response.bodyJSON?.numberValue.map { Int($0) }
    }
}
