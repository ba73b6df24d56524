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

/// A lesson's test case whose tests run in a time zone that is not UTC (and whose offset is not whole hours),
/// whatever the machine's: code that "converts" a Date to local time or back (adding or subtracting
/// `TimeZone.current.secondsFromGMT()`) changes the instant, and on a machine set to UTC the shift would be zero and
/// go unseen. Asia/Kolkata has no daylight saving time.
open class TimeZonedTestCase: LabTestCase {
    public static let testTimeZone = "Asia/Kolkata"
    private static var zone: TimeZoneOverride?

    override open class func setUp() {
        super.setUp()
        zone = TimeZoneOverride(testTimeZone)
    }

    override open class func tearDown() {
        zone?.restore()
        zone = nil
        super.tearDown()
    }
}
