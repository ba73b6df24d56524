import Foundation

/// Firebase push IDs by the real algorithm (firebase-js-sdk NextPushId.ts, the same in firebase-ios-sdk):
/// 8 characters of milliseconds since 1970, most significant first, then 12 random characters; within one
/// millisecond the random part is incremented (with carry) so IDs made in a row sort in creation order.
/// A value type: the emulator keeps one under its lock, which is what makes its use thread-safe.
public struct PushIDGenerator {
    /// Modified base 64, in ASCII order so that IDs compare like their timestamps.
    public static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    /// Where the 12 random characters come from: a function returning 0..<64.
    /// `seeded` and `characters` keep state: give each emulator its own, as its lock guards only its own use.
    public struct Randomness {
        let next: () -> Int

        /// Values outside 0..<64 are wrapped into range rather than trusted.
        public init(_ next: @escaping () -> Int) {
            self.next = { ((next() % 64) + 64) % 64 }
        }

        public static let system = Randomness { Int.random(in: 0..<64) }

        /// A deterministic sequence (SplitMix64) so tests can predict push IDs.
        public static func seeded(_ seed: UInt64) -> Randomness {
            let state = SplitMix64(seed: seed)
            return Randomness { Int(state.next() >> 58) }  // top 6 bits: 0..<64
        }

        /// Cycles through the given characters of the push-ID alphabet; characters outside it count as "-".
        /// `characters("eL4bwG1qpwYB")` makes the first ID at 2018-08-08T07:24:32.088Z `-LJNQ2zNeL4bwG1qpwYB`.
        public static func characters(_ text: String) -> Randomness {
            let values = text.map { PushIDGenerator.alphabet.firstIndex(of: $0) ?? 0 }
            let cursor = Cursor()
            return Randomness {
                guard !values.isEmpty else { return 0 }
                defer { cursor.position += 1 }
                return values[cursor.position % values.count]
            }
        }
    }

    private let clock: () -> Date
    private let randomness: Randomness
    private var lastTime: Int64 = -1
    private var lastRandom: [Int] = Array(repeating: 0, count: 12)

    public init(clock: @escaping () -> Date = { Date() }, randomness: Randomness = .system) {
        self.clock = clock
        self.randomness = randomness
    }

    public mutating func next() -> String {
        var now = Self.milliseconds(clock())
        if now <= lastTime {
            // Same millisecond: increment. Deviation from the SDK: a clock that went backwards also lands here,
            // so IDs from one emulator always increase (the SDK would start a fresh, smaller ID).
            now = lastTime
            if !incrementRandom() { now += 1 }  // all 12 were "z": move to the next millisecond instead of wrapping
        } else {
            lastRandom = (0..<12).map { _ in randomness.next() }
        }
        lastTime = now

        var timeCharacters: [Character] = []
        var remaining = now
        for _ in 0..<8 {
            timeCharacters.append(Self.alphabet[Int(remaining % 64)])
            remaining /= 64
        }
        return String(timeCharacters.reversed()) + String(lastRandom.map { Self.alphabet[$0] })
    }

    /// Adds one to the random part as a base-64 number; false when it overflowed (and wrapped to all "-").
    private mutating func incrementRandom() -> Bool {
        for position in stride(from: 11, through: 0, by: -1) {
            if lastRandom[position] < 63 {
                lastRandom[position] += 1
                return true
            }
            lastRandom[position] = 0
        }
        return false
    }

    /// The creation time encoded in a push ID's first 8 characters; nil when `pushID` is not a push ID.
    public static func timestamp(of pushID: String) -> Date? {
        let characters = Array(pushID)
        guard characters.count == 20 else { return nil }
        var milliseconds: Int64 = 0
        for (offset, character) in characters.enumerated() {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            if offset < 8 { milliseconds = milliseconds * 64 + Int64(value) }
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return Int64(max(0, min(value, 281_474_976_710_655)))  // 64^8 - 1: what 8 characters can hold
    }
}

/// SplitMix64: tiny, well-distributed, and deterministic across platforms (unlike the system generator).
/// A class so the `Randomness` closure can advance it; guarded by the emulator's lock, like the generator.
final class SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A position the `characters` randomness advances from inside its closure.
final class Cursor {
    var position = 0
}
