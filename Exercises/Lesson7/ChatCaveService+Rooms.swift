// Lesson 7 — rooms: create (POST), join (PUT), leave (DELETE). LESSONS.md §7.4 explains them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ChatCaveService {
    /// EXERCISE 7.4 — Creates a room named `name` (LESSONS.md §7.4). The server makes its id, so the client cannot
    /// know the room's URL yet: `POST <baseURL>/rooms` with the JSON body `{"name": <name>}`.
    /// Success (201): `success` with the new `Room` from the answer. Failure as in §7.3.
    @discardableResult
    public func createRoom(named name: String, success: @escaping (Room) -> Void,
                           failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        _ = NotImplemented("createRoom(named:success:failure:)", section: "7.4")
        return RequestID()
    }

    /// EXERCISE 7.4 — Joins room `id` as the signed-in user (LESSONS.md §7.4). The client knows both ids, so it
    /// puts itself at its own URL: `PUT <baseURL>/rooms/<id>/chatters/<credentials.user>`, no body.
    /// Success (204, no body): `success()`. Joining twice is fine. Failure as in §7.3.
    @discardableResult
    public func joinRoom(id: Int, success: @escaping () -> Void, failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        _ = NotImplemented("joinRoom(id:success:failure:)", section: "7.4")
        return RequestID()
    }

    /// EXERCISE 7.4 — Leaves room `id` (LESSONS.md §7.4): `DELETE <baseURL>/rooms/<id>/chatters/<credentials.user>`.
    /// Success (204, no body): `success()`. Failure as in §7.3 (404 when you were not in the room).
    @discardableResult
    public func leaveRoom(id: Int, success: @escaping () -> Void, failure: @escaping (ChatCaveError) -> Void) -> RequestID {
        _ = NotImplemented("leaveRoom(id:success:failure:)", section: "7.4")
        return RequestID()
    }
}
