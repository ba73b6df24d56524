import Foundation

#if !canImport(Darwin)
extension NSError {
    /// `NSError()`, as on Apple platforms (NSObject's `init()`), where the course's original code passes it for a
    /// failure it has no better error for (`guard let data = data else { completion(NSError()); return }`).
    /// swift-corelibs-foundation's NSError has no `init()`, so without this such a lesson would compile in Xcode and
    /// fail to compile when graded on Linux. (The parameter only gives the initializer a signature of its own: an
    /// extension cannot declare `init()` itself, which NSObject declares.) An error that says what went wrong is
    /// better still: LESSONS.md §4.4.
    public convenience init(labEmptyError: Void = ()) {
        self.init(domain: "NSError", code: 0, userInfo: nil)
    }
}
#endif
