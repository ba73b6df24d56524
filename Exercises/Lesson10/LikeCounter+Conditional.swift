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
        throw NotImplemented("LikeCounter.like(_:)", section: "10.6")
    }
}
