/// Header names compare without regard to ASCII case (RFC 9110). Byte by byte: Foundation's case-insensitive
/// compare is locale-aware and, at thousands of requests a second, shows up in a profile.
package enum HeaderName {
    package static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte | 0x20 : byte
    }
}
