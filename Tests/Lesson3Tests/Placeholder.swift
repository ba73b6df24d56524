import XCTest
final class Lesson3PlaceholderTests: XCTestCase {}
