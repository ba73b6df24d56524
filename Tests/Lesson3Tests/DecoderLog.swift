import Foundation

/// What the learner's `init(from:)` asked its decoder for, so that a failure message can name a cause the test has
/// seen (the key it asked for, `decode` or `decodeIfPresent`, an error it swallowed) instead of guessing one.
///
/// `SpyDecoder` wraps the real JSONDecoder's decoder and forwards every call to it unchanged, so the learner's code
/// decodes exactly as it would in an app; only the thread's own top-level calls are recorded (a message decodes
/// itself through the real decoder).
final class DecoderLog: @unchecked Sendable {
    struct Call {
        /// `decode`, `decodeIfPresent`, `contains`, `decodeNil`, `nestedContainer`, `nestedUnkeyedContainer`, …
        let method: String
        let key: String
        /// The type asked for, as Swift prints it: `Dictionary<String, Message>`.
        let type: String
        /// What the real decoder threw for this call, if it threw.
        var error: Error?
        /// How many elements the call returned, when it returned a collection (nil: not one, or nil).
        var count: Int?

        /// "decodeIfPresent(Dictionary<String, Message>) for "messages"".
        var description: String {
            type.isEmpty ? "\(method) for \"\(key)\"" : "\(method)(\(type)) for \"\(key)\""
        }
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "lab.lesson3.decoderLog")!

    /// The containers asked of the thread's decoder: `keyed`, `unkeyed`, `singleValue`.
    private(set) var containers: [String] = []
    private(set) var calls: [Call] = []
    /// The thread's `messages` the moment its init(from:) returned (recorded on the decoding thread): work it left
    /// running on another thread may reorder them before the test looks.
    var messagesAtReturn: Any?

    func container(_ kind: String) { containers.append(kind) }

    func run<T>(_ method: String, _ key: CodingKey, _ type: String = "", _ body: () throws -> T) throws -> T {
        let index = calls.count
        calls.append(Call(method: method, key: key.stringValue, type: type, error: nil, count: nil))
        do {
            let value = try body()
            calls[index].count = Self.count(of: value)
            return value
        } catch {
            calls[index].error = error
            throw error
        }
    }

    /// The number of elements of `value` when it is a collection, or an optional one that is not nil; for a keyed
    /// container, the number of keys its `allKeys` lists.
    private static func count(of value: Any) -> Int? {
        if let collection = value as? any Collection { return collection.count }
        if let container = value as? KeyCounting { return container.keyCount }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value {
            return (wrapped as? any Collection)?.count
        }
        return nil
    }

    /// Every key the thread's init(from:) asked about, in order, without repeats.
    var keysAskedFor: [String] {
        calls.reduce(into: [String]()) { keys, call in if !keys.contains(call.key) { keys.append(call.key) } }
    }

    func calls(forKey key: String) -> [Call] { calls.filter { $0.key == key } }

    /// The calls whose error the real decoder threw (when init(from:) then returned, something swallowed them).
    var callsThatThrew: [Call] { calls.filter { $0.error != nil } }
}

/// A keyed container's number of keys, as its `allKeys` lists them: only those its key type can make from a string
/// (an enum such as CodingKeys knows only its own cases).
protocol KeyCounting {
    var keyCount: Int { get }
}

extension KeyedDecodingContainer: KeyCounting {
    var keyCount: Int { allKeys.count }
}

/// The key `superDecoder()` reads: "super".
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// A `Decoder` that forwards to `base` and records in `log` what the thread's `init(from:)` asks of it.
struct SpyDecoder: Decoder {
    let base: Decoder
    let log: DecoderLog

    var codingPath: [CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        log.container("keyed")
        return KeyedDecodingContainer(SpyKeyedContainer(base: try base.container(keyedBy: type), log: log))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        log.container("unkeyed")
        return try base.unkeyedContainer()
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        log.container("singleValue")
        return SpySingleValueContainer(base: try base.singleValueContainer(), log: log)
    }
}

/// The key under which `DecoderLog` records what the thread's single-value container was asked for.
struct WholeThreadKey: CodingKey {
    var stringValue: String { "(the whole thread)" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// Forwards every call to the real single-value container, recording the type asked for and whether it threw.
struct SpySingleValueContainer: SingleValueDecodingContainer {
    let base: SingleValueDecodingContainer
    let log: DecoderLog

    var codingPath: [CodingKey] { base.codingPath }

    private func run<T>(_ type: T.Type, _ body: () throws -> T) throws -> T {
        try log.run("singleValue.decode", WholeThreadKey(), "\(type)", body)
    }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try run(type) { try base.decode(type) } }
    func decode(_ type: String.Type) throws -> String { try run(type) { try base.decode(type) } }
    func decode(_ type: Double.Type) throws -> Double { try run(type) { try base.decode(type) } }
    func decode(_ type: Float.Type) throws -> Float { try run(type) { try base.decode(type) } }
    func decode(_ type: Int.Type) throws -> Int { try run(type) { try base.decode(type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try run(type) { try base.decode(type) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try run(type) { try base.decode(type) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try run(type) { try base.decode(type) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try run(type) { try base.decode(type) } }
    func decode(_ type: UInt.Type) throws -> UInt { try run(type) { try base.decode(type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try run(type) { try base.decode(type) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try run(type) { try base.decode(type) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try run(type) { try base.decode(type) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try run(type) { try base.decode(type) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try run(type) { try base.decode(type) } }
}

/// Forwards every call to the real keyed container, recording it.
struct SpyKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let log: DecoderLog

    var codingPath: [CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool {
        (try? log.run("contains", key) { base.contains(key) }) ?? false
    }

    func decodeNil(forKey key: Key) throws -> Bool { try log.run("decodeNil", key) { try base.decodeNil(forKey: key) } }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try log.run("decode", key, "\(type)") { try base.decode(type, forKey: key) } }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try log.run("decodeIfPresent", key, "\(type)") { try base.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try log.run("decodeIfPresent", key, "\(type)") { try base.decodeIfPresent(type, forKey: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try log.run("nestedContainer", key, "\(type)") { try base.nestedContainer(keyedBy: type, forKey: key) }
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try log.run("nestedUnkeyedContainer", key) { try base.nestedUnkeyedContainer(forKey: key) }
    }
    func superDecoder() throws -> Decoder { try log.run("superDecoder()", SuperKey()) { try base.superDecoder() } }
    func superDecoder(forKey key: Key) throws -> Decoder {
        try log.run("superDecoder", key) { try base.superDecoder(forKey: key) }
    }
}
