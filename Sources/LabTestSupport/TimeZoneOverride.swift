import Foundation

/// The process's time zone set to another for a while: `TZ`, then `NSTimeZone.resetSystemTimeZone()`, which is what
/// moves `TimeZone.current` on Linux (`NSTimeZone.default` alone does not). The tests that catch a timestamp shifted
/// by the device's time zone run in one whose offset is not zero, whatever the machine's.
public struct TimeZoneOverride {
    private let saved: String?

    /// Sets the time zone to `identifier` (e.g. "Asia/Kolkata") until `restore()`.
    public init(_ identifier: String) {
        saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", identifier, 1)
        NSTimeZone.resetSystemTimeZone()
    }

    /// Puts back the time zone there was before.
    public func restore() {
        if let saved = saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        NSTimeZone.resetSystemTimeZone()
    }
}
