// Lesson 5 — what the server says an entry is. Your exercise is marked EXERCISE. LESSONS.md §5.5 explains it.
import Foundation
import LabSupport

/// EXERCISE 5.5 (part 1) — One entry as the server holds it: a plain value decoded from the entry's JSON object
/// (the keys `title`, `bodyText`, `timestamp`, `identifier`, `mood`; see Entry.swift).
/// What the tests need: it decodes from an entry's JSON keeping all five values as the server holds them (the mood
/// too, whatever string it is: a `String`, not an enum of the app's moods), and it is `Equatable`. Its property
/// names are yours: only your own code reads them. One way, the shortest: one `public let` per key, named exactly as
/// the key (the timestamp a `Date`) — the compiler then writes `Decodable` and `Equatable`, so the stub's
/// `init(from:)` goes. `CodingKeys`, or an `init(from:)` of your own, work as well.
/// The sync compares these with the store's entries, and copies them into entries (LESSONS.md §5.5).
public struct EntryRepresentation: Decodable, Equatable {
    public init(from decoder: Decoder) throws {
        throw NotImplemented("EntryRepresentation.init(from:)", section: "5.5")
    }
}

/// EXERCISE 5.5 (part 2) — An entry equals a representation when every value is the same: title, bodyText,
/// timestamp, identifier and mood. Write `==` and `!=` in both orders, so `entry == representation` and
/// `representation == entry` say the same, and `!=` is always the opposite of `==`.
public func == (lhs: Entry, rhs: EntryRepresentation) -> Bool {
    _ = NotImplemented("==(Entry, EntryRepresentation)", section: "5.5")
    return false
}

public func == (lhs: EntryRepresentation, rhs: Entry) -> Bool {
    _ = NotImplemented("==(EntryRepresentation, Entry)", section: "5.5")
    return false
}

public func != (lhs: Entry, rhs: EntryRepresentation) -> Bool {
    _ = NotImplemented("!=(Entry, EntryRepresentation)", section: "5.5")
    return false
}

public func != (lhs: EntryRepresentation, rhs: Entry) -> Bool {
    _ = NotImplemented("!=(EntryRepresentation, Entry)", section: "5.5")
    return false
}
