import Foundation

/// One request the socket server answered, for a one-line log (`lab serve` prints one per request).
public struct ServedRequest {
    public let method: String
    /// As sent: path and query.
    public let target: String
    /// 0 when the connection was dropped on purpose (an injected transport fault).
    public let status: Int
    /// From the request's first byte to its answer (to the stream's head, for a stream).
    public let milliseconds: Double
    public let isStream: Bool

    /// `PUT /threads/a.json 200 0.4 ms`.
    public var line: String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(method) \(target) \(status == 0 ? "dropped" : String(status))\(isStream ? " stream" : "") \(tenths / 10).\(tenths % 10) ms"
    }
}
