import Foundation

/// What the socket server tolerates before it answers with an error and closes: it faces curl, browsers and hostile
/// input, so every wait has a time-out and every buffer a size.
public struct ServerLimits {
    /// Request line and headers together (431 beyond).
    public var maximumHeaderBytes = 16 * 1024
    /// Header lines (431 beyond).
    public var maximumHeaderCount = 100
    /// A request body, sent with Content-Length or chunked (413 beyond).
    public var maximumBodyBytes = 16 * 1024 * 1024
    /// Request bodies being received at once, across all connections (503 for a body that would pass it): one
    /// connection's body may be `maximumBodyBytes`, but not on every connection at once.
    public var maximumBufferedBodyBytes = 64 * 1024 * 1024
    /// From a request's first byte to its last (408 beyond): a client sending a byte a second is cut off.
    public var requestTimeout: TimeInterval = 10
    /// How long a kept-alive connection may sit idle between requests before it is closed (silently, as is usual).
    public var idleTimeout: TimeInterval = 60
    /// A write that cannot go out for this long (a client that stopped reading) ends the connection.
    public var sendTimeout: TimeInterval = 10
    /// After refusing a request, how long the server goes on reading (and discarding) what the client sends before
    /// it closes: a client that writes its whole body before reading (Python's urllib, URLSession) then reads the
    /// 413 rather than a connection reset.
    public var lingerTimeout: TimeInterval = 2
    /// Open connections, streams included; one more is answered 503 and closed.
    public var maximumConnections = 512
    /// The kernel's send buffer per connection, in bytes; nil keeps the system's, which grows to megabytes. A small
    /// one lets a test's stalled stream client reach its `StreamBudget` after kilobytes.
    public var sendBufferBytes: Int32?

    public init() {}
}
