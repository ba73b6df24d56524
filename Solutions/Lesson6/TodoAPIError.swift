// Given: already written for you. Every way a call to the /todos API can fail, as one type (LESSONS.md §6.3).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `TodoAPI` call failed. The caller switches over these cases and never sees URLSession's or JSONDecoder's
/// own error types.
public enum TodoAPIError: Error {
    /// No answer at all: no connection, a time-out, a lost connection. The data task's `error`, as a URLError.
    case transport(URLError)
    /// The server answered, but with a status outside 200...299: 404 when there is no such todo, 500 when it broke.
    case status(Int)
    /// A 2xx answer whose body is not a todo: the decoder's error, as it was thrown.
    case decoding(DecodingError)
    /// The todo could not be encoded for sending (JSONEncoder's error). A `Todo` always encodes; kept for completeness.
    case encoding(EncodingError)
    /// Anything else (URLSession and JSONDecoder give none of these in practice): kept so that no error is lost.
    case unexpected(Error)
}
