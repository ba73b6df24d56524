// Lesson 7 — messages, and polling for new ones. LESSONS.md §7.5 explains them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ChatCaveService {
    /// EXERCISE 7.5 — Fetches every message in room `roomID`, oldest first: `GET <baseURL>/rooms/<roomID>/messages`
    /// (LESSONS.md §7.5). Success: `success` with the messages; the service remembers the newest one it delivered
    /// from that room, for `fetchNewMessages`. Failure as in §7.3.
    @discardableResult
    public func fetchMessages(inRoom roomID: Int, success: @escaping ([Message]) -> Void,
                              failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        // BEGIN SOLUTION
        fetchMessages(inRoom: roomID, since: nil, success: success, failure: failure)
        // END SOLUTION
        // STUB: _ = NotImplemented("fetchMessages(inRoom:success:failure:)", section: "7.5")
        // STUB: return RequestID()
    }

    /// EXERCISE 7.5 — Polls room `roomID` for messages newer than the newest this service has delivered from it:
    /// `GET …/messages?since=<that message's id>` (LESSONS.md §7.5). Before any message was seen there, no `since`:
    /// every message. Success: only the new messages, oldest first (none: `[]`), each delivered once across polls.
    @discardableResult
    public func fetchNewMessages(inRoom roomID: Int, success: @escaping ([Message]) -> Void,
                                 failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        // BEGIN SOLUTION
        lock.lock()
        let since = lastSeenMessageIDs[roomID]
        lock.unlock()
        return fetchMessages(inRoom: roomID, since: since, success: success, failure: failure)
        // END SOLUTION
        // STUB: _ = NotImplemented("fetchNewMessages(inRoom:success:failure:)", section: "7.5")
        // STUB: return RequestID()
    }

    /// EXERCISE 7.5 — Posts `text` to room `roomID` as the signed-in user (who must have joined it):
    /// `POST <baseURL>/rooms/<roomID>/messages` with `{"text": <text>}` (LESSONS.md §7.5). The server makes the
    /// message's id and time. Success (201): `success` with the new `Message`. Failure as in §7.3.
    @discardableResult
    public func postMessage(_ text: String, inRoom roomID: Int, success: @escaping (Message) -> Void,
                            failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        // BEGIN SOLUTION
        send(request("POST", "rooms/\(roomID)/messages", body: ["text": text]), decoding: Message.self,
             success: success, failure: failure)
        // END SOLUTION
        // STUB: _ = NotImplemented("postMessage(_:inRoom:success:failure:)", section: "7.5")
        // STUB: return RequestID()
    }
    // BEGIN SOLUTION

    private func fetchMessages(inRoom roomID: Int, since: Int?, success: @escaping ([Message]) -> Void,
                               failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        let query = since.map { [URLQueryItem(name: "since", value: String($0))] } ?? []
        return send(request("GET", "rooms/\(roomID)/messages", query: query), decoding: [Message].self, success: { messages in
            self.lock.lock()
            if let newest = messages.map(\.id).max() {
                self.lastSeenMessageIDs[roomID] = max(newest, self.lastSeenMessageIDs[roomID] ?? 0)
            }
            self.lock.unlock()
            success(messages)
        }, failure: failure)
    }
    // END SOLUTION
}
