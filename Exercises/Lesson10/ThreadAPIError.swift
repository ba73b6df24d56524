// Given: already written for you. Every way this lesson's calls can fail, as one type (LESSONS.md §10.3, §10.6).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `ThreadPages` or `LikeCounter` call failed. The caller switches over these cases and never sees
/// URLSession's or JSONDecoder's own error types.
public enum ThreadAPIError: Error {
    /// No answer at all: no connection, a time-out. The URLError URLSession threw.
    case transport(URLError)
    /// 400, because the query orders by a child the rules do not index. Firebase's own text, which names the rule
    /// to add: `Index not defined, add ".indexOn": "timestamp", for path "/t1/messages", to the rules`.
    case indexNotDefined(String)
    /// Any other 400: Firebase refused the query (`orderBy must be a valid JSON encoded path`, …). Its text.
    case badQuery(String)
    /// Any other status outside 200...299 (401, 404, 500, …). A 412 that `like` handles is not one of these.
    case status(Int)
    /// A 2xx answer whose body is not what was expected: the decoder's error, as it was thrown.
    case decoding(DecodingError)
    /// Every conditional write was refused (412): another client changed the value each time. `attempts` writes were sent.
    case tooManyConflicts(attempts: Int)
    /// Anything else: kept so that no error is lost.
    case unexpected(Error)
}
