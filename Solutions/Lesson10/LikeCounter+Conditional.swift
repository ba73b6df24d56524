// Lesson 10 — a lost update, and the conditional write that prevents it. Your exercise is the function marked
// EXERCISE (LESSONS.md §10.5, §10.6).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension LikeCounter {
    /// EXERCISE 10.6 — adds one like and returns the count it wrote. Read the count with `X-Firebase-ETag: true`
    /// (nothing there counts as 0), then PUT the count + 1 with `if-match: <that ETag>`. A 412 means another client
    /// wrote first: its body is the count now and its `ETag` header the tag now — write from those, up to
    /// `maxAttempts` writes in all, then throw `.tooManyConflicts(attempts: maxAttempts)`. Throws only `ThreadAPIError`s.
    public func like(_ messageKey: String) async throws -> Int {
        // BEGIN SOLUTION
        let url = likesURL(of: messageKey)
        var read = URLRequest(url: url)
        read.setValue("true", forHTTPHeaderField: "X-Firebase-ETag")
        let (data, response) = try await firebaseAnswer(to: read, through: session)
        guard (200...299).contains(response.statusCode) else { throw failure(status: response.statusCode, body: data) }
        var count = try decoded(Int?.self, from: data) ?? 0
        guard var etag = response.value(forHTTPHeaderField: "ETag") else { throw ThreadAPIError.unexpected(URLError(.badServerResponse)) }
        for _ in 0..<maxAttempts {
            var write = URLRequest(url: url)
            write.httpMethod = "PUT"
            write.setValue(etag, forHTTPHeaderField: "if-match")
            write.httpBody = Data(String(count + 1).utf8)
            let (body, answer) = try await firebaseAnswer(to: write, through: session)
            if (200...299).contains(answer.statusCode) { return count + 1 }
            guard answer.statusCode == 412, let current = answer.value(forHTTPHeaderField: "ETag") else {
                throw failure(status: answer.statusCode, body: body)
            }
            // Someone else wrote first: the 412 carries the count and its tag now. Count from them, not from ours.
            count = try decoded(Int?.self, from: body) ?? 0
            etag = current
        }
        throw ThreadAPIError.tooManyConflicts(attempts: maxAttempts)
        // END SOLUTION
        // STUB: throw NotImplemented("LikeCounter.like(_:)", section: "10.6")
    }
}
