// Lesson 10 — the same like, counted by the server. Your exercise is the function marked EXERCISE
// (LESSONS.md §10.7).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension LikeCounter {
    /// EXERCISE 10.7 — adds one like with one request and returns the count the server stored: PUT the server value
    /// `{".sv": {"increment": 1}}` to `likesURL(of:)`; Firebase adds 1 to whatever is there when the write arrives
    /// (nothing counts as 0) and answers the number it stored. Throws only `ThreadAPIError`s.
    public func likeWithIncrement(_ messageKey: String) async throws -> Int {
        // BEGIN SOLUTION
        var request = URLRequest(url: likesURL(of: messageKey))
        request.httpMethod = "PUT"
        request.httpBody = Data(#"{".sv": {"increment": 1}}"#.utf8)
        let (data, response) = try await firebaseAnswer(to: request, through: session)
        guard (200...299).contains(response.statusCode) else { throw failure(status: response.statusCode, body: data) }
        return try decoded(Int.self, from: data)
        // END SOLUTION
        // STUB: throw NotImplemented("LikeCounter.likeWithIncrement(_:)", section: "10.7")
    }
}
