import XCTest
import FirebaseEmulator

final class PushIDGeneratorTests: XCTestCase {
    private let sampleTime = Date(timeIntervalSince1970: 1_533_713_072.088)  // 2018-08-08T07:24:32.088Z

    func test_timestamp_decodesTheSamplePushID() throws {
        let date = try XCTUnwrap(PushIDGenerator.timestamp(of: "-LJNQ2zNeL4bwG1qpwYB"), "Expected a push ID")
        XCTAssertEqual(date.timeIntervalSince1970, 1_533_713_072.088, accuracy: 0.0005, "Expected 2018-08-08T07:24:32.088Z")
    }

    func test_timestamp_isNilForOtherStrings() {
        for text in ["", "abc", "-LJNQ2zNeL4bwG1qpwY", "-LJNQ2zNeL4bwG1qpwY!", "695398C4-498C-40A8-AA76-CB2B20DFD9FA"] {
            XCTAssertNil(PushIDGenerator.timestamp(of: text), "Expected \(text.debugDescription) not to be a push ID")
        }
    }

    func test_next_reproducesTheSamplePushID() {
        var generator = PushIDGenerator(clock: { self.sampleTime }, randomness: .characters("eL4bwG1qpwYB"))
        XCTAssertEqual(generator.next(), "-LJNQ2zNeL4bwG1qpwYB", "Expected the sample's ID from its time and random characters")
    }

    func test_next_sameMillisecond_incrementsWithCarry() {
        var generator = PushIDGenerator(clock: { self.sampleTime }, randomness: .characters("zzzzzzzzzzzy"))
        XCTAssertEqual(generator.next(), "-LJNQ2zNzzzzzzzzzzzy", "Expected the first ID from the random characters")
        XCTAssertEqual(generator.next(), "-LJNQ2zNzzzzzzzzzzzz", "Expected the last character incremented")
        XCTAssertEqual(generator.next(), "-LJNQ2zO------------", "Expected the carry to overflow into the next millisecond")
    }

    func test_next_newMillisecond_drawsFreshRandomCharacters() {
        var now = sampleTime
        var generator = PushIDGenerator(clock: { now }, randomness: .characters("-0"))
        XCTAssertEqual(generator.next(), "-LJNQ2zN-0-0-0-0-0-0", "Expected random characters -0-0…")
        now += 0.001
        XCTAssertEqual(generator.next(), "-LJNQ2zO-0-0-0-0-0-0", "Expected the timestamp to advance by one millisecond")
    }

    func test_next_isStrictlyIncreasing_withSeededRandomness() {
        var generator = PushIDGenerator(clock: { self.sampleTime }, randomness: .seeded(7))
        var previous = ""
        for _ in 0..<1000 {
            let id = generator.next()
            XCTAssertEqual(id.count, 20, "Expected 20 characters")
            XCTAssertGreaterThan(id, previous, "Expected each ID to sort after the previous one")
            previous = id
        }
    }

    func test_next_staysIncreasing_whenTheClockGoesBackwards() {
        var now = sampleTime
        var generator = PushIDGenerator(clock: { now }, randomness: .seeded(1))
        let first = generator.next()
        now -= 60
        XCTAssertGreaterThan(generator.next(), first, "Expected IDs from one generator to keep increasing")
    }

    func test_seeded_isDeterministic_andSystemIsValid() {
        var a = PushIDGenerator(clock: { self.sampleTime }, randomness: .seeded(42))
        var b = PushIDGenerator(clock: { self.sampleTime }, randomness: .seeded(42))
        XCTAssertEqual(a.next(), b.next(), "Expected the same seed to give the same ID")
        var system = PushIDGenerator()
        let id = system.next()
        XCTAssertNotNil(PushIDGenerator.timestamp(of: id), "Expected a valid push ID from the system generator, got \(id)")
        XCTAssertEqual(PushIDGenerator.timestamp(of: id)!.timeIntervalSinceNow, 0, accuracy: 5, "Expected the current time")
    }
}
