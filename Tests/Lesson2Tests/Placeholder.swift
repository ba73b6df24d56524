import XCTest
final class Lesson2PlaceholderTests: XCTestCase {}
