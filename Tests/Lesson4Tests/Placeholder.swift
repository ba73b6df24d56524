import XCTest
final class Lesson4PlaceholderTests: XCTestCase {}
