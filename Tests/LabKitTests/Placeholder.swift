import XCTest
final class PlaceholderTests: XCTestCase {}
