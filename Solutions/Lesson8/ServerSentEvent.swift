// Given: already written for you. One event of a stream, as your parser (§8.2) hands it on.
import Foundation

/// One Server-Sent Event: the `event:` line's name and the `data:` line's text.
///
/// Firebase sends each event as
/// ```
/// event: put
/// data: {"path":"/-LJNQ2zNeL4bwG1qpwYB","data":{"sender":"Spencer","text":"Hi","timestamp":5.55405872056162E8}}
///
/// ```
/// so `name` is "put" and `data` is the JSON text after `data: `.
public struct ServerSentEvent: Equatable, CustomStringConvertible {
    public let name: String
    public let data: String

    public init(name: String, data: String) {
        self.name = name
        self.data = data
    }

    public var description: String { "\(name) \(data)" }
}
