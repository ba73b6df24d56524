import Foundation

/// The flags every `swift test` the kit runs gets.
enum SwiftFlags {
    /// The kit is XCTest; on Swift 6 toolchains this keeps Swift Testing's empty "0 tests" run out of the way.
    /// (The lab binary is built by the same toolchain that runs the tests, so the compiler version tells.)
    static var test: [String] {
        #if compiler(>=6.0)
        return ["--disable-swift-testing"]
        #else
        return []
        #endif
    }
}
