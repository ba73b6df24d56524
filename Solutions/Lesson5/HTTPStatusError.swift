// Given: already written for you. Pass it to the completion when the server answers with a status outside 200...299.
import Foundation

/// The server answered, but refused: 401 Permission denied, 500 An internal error occurred, ...
/// URLSession reports these as a *successful* transfer (its `error` is nil), so your code has to check the status itself.
public struct HTTPStatusError: Error, CustomStringConvertible {
    public let statusCode: Int
    /// The response body as text; Firebase puts `{"error": "…"}` there.
    public let body: String

    public init(statusCode: Int, body: String = "") {
        self.statusCode = statusCode
        self.body = body
    }

    public var description: String { "HTTP \(statusCode): \(body)" }
}
