import XCTest
final class EmulatorPlaceholderTests: XCTestCase {}
