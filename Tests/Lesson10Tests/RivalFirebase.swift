import Foundation
import FirebaseEmulator

/// Firebase with another client that likes the same message at the worst moment: just before each write the
/// learner's code sends to the counter (while `rivalLikes` lasts), the rival adds `likesPerTurn` likes. So a write
/// based on a read made before it is stale — every time, in the same order, with no timing luck. The rival's writes
/// are not in the request log: only the learner's requests are. `refusesWrites` answers every write to the counter
/// with that status instead (Firebase's error body), for a failure that is not a conflict.
struct RivalFirebase: EmulatedService {
    static let hostDomain = FirebaseService.hostDomain

    var firebase: FirebaseService
    /// The path of the counter the rival likes, e.g. "/likes/m1".
    let counterPath: String
    /// How many more writes the rival gets in before.
    var rivalLikes: Int
    /// How many likes the rival adds each time it gets in (another client's like, or several clients' likes).
    var likesPerTurn: Int
    /// When set, every write to the counter is answered with this status and nothing is written.
    var refusesWrites: Int?
    /// The rival's first turn removes the counter instead of liking (a moderator cleared the likes): the 412 then
    /// carries null and null_etag. Its later turns like again.
    var deletes = false
    private var deleted = false
    /// The rival likes once just before the second read of the counter (a GET after a GET, no write between): a
    /// client that takes the count from one read and the tag from another overwrites that like.
    var likesBeforeSecondRead = false
    /// The rival likes once just after the first write that succeeded: a client that reads the count again to return
    /// it returns that like as its own.
    var likesAfterSuccess = false
    /// The rival likes once just before the first read of the counter that follows a write refused with 412: a client
    /// that takes the count from the 412 and the tag from a read after it overwrites that like.
    var likesBeforeReadAfterConflict = false
    private var lastWriteRefused = false
    private var readsBeforeAWrite = 0
    /// How many likes the rival added.
    private(set) var rivalLiked = 0

    init(database: JSONValue, counterPath: String, rivalLikes: Int, likesPerTurn: Int = 1, refusesWrites: Int? = nil) {
        firebase = FirebaseService(database: database)
        self.counterPath = counterPath
        self.rivalLikes = rivalLikes
        self.likesPerTurn = likesPerTurn
        self.refusesWrites = refusesWrites
    }

    var jsonHeaders: [String: String] { firebase.jsonHeaders }

    mutating func respond(to request: ServiceRequest) -> ServiceReply {
        // A write at the counter or above it (a PATCH of its parent, a multi-location update) writes the counter.
        let writesCounter = request.method != "GET" && (request.path == counterPath || request.path == "/" || counterPath.hasPrefix(request.path + "/"))
        if let status = refusesWrites, writesCounter {
            return .response(firebase.errorResponse(status: status, message: "Internal server error."))
        }
        if request.path == counterPath, request.method == "GET" {
            readsBeforeAWrite += 1
            if likesBeforeSecondRead, readsBeforeAWrite == 2 {
                likesBeforeSecondRead = false
                rivalLike(at: counterURL(like: request.url))
            }
            if likesBeforeReadAfterConflict, lastWriteRefused {
                likesBeforeReadAfterConflict = false
                rivalLike(at: counterURL(like: request.url))
            }
        } else if writesCounter {
            readsBeforeAWrite = 0
        }
        if rivalLikes > 0, writesCounter {
            rivalLikes -= 1
            if deletes && !deleted {
                deleted = true
                _ = firebase.respond(to: ServiceRequest(method: "DELETE", url: counterURL(like: request.url), headers: [:], body: nil))
            } else {
                rivalLike(at: counterURL(like: request.url), likes: likesPerTurn)
            }
        }
        let reply = firebase.respond(to: request)
        if writesCounter, case .response(let response) = reply { lastWriteRefused = response.statusCode == 412 }
        if likesAfterSuccess, writesCounter, case .response(let response) = reply, (200...299).contains(response.statusCode) {
            likesAfterSuccess = false
            rivalLike(at: counterURL(like: request.url))
        }
        return reply
    }

    /// The counter's URL on the server `url` was sent to (its scheme and host), without a query.
    private func counterURL(like url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true) ?? URLComponents()
        components.path = counterPath + ".json"
        components.query = nil
        return components.url ?? url
    }

    /// Another client's like(s): the server value that adds them, written at the counter.
    private mutating func rivalLike(at url: URL, likes: Int = 1) {
        rivalLiked += likes
        let like = ServiceRequest(method: "PUT", url: url, headers: [:], body: Data(#"{".sv":{"increment":\#(likes)}}"#.utf8))
        _ = firebase.respond(to: like)
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
