import Foundation

/// The `.indexOn` entries of a Realtime Database rules document: which children a query may order by, and where.
/// `{"rules": {"dinosaurs": {".indexOn": ["height", "length"]}, "scores": {".indexOn": ".value"}}}`
/// [https://firebase.google.com/docs/database/security/indexing-data]. A `$name` level matches any key. The rules
/// loader reads them (`SecurityRules.queryIndexes`); queries only ask `isIndexed`.
public struct QueryIndexes: Equatable {
    /// One `.indexOn`: the rules location it sits at (`$…` segments are wildcards) and what it indexes.
    public struct Entry: Equatable {
        public let path: [String]
        public let children: [String]
    }

    public private(set) var entries: [Entry] = []

    /// No indexes: what a rules document without `.indexOn` gives (and `lab serve` without `--rules`).
    public init() {}

    /// The entries the rules engine read (`SecurityRules.queryIndexes`).
    init(entries: [Entry]) {
        self.entries = entries.sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// Reads every `.indexOn` of a rules document (the object with a top-level `"rules"` key), through the rules
    /// loader itself, so a document is read one way whether it grants access or only indexes; throws
    /// `SecurityRulesError` naming the place.
    public init(rules document: JSONValue) throws {
        self = try SecurityRules(json: String(decoding: document.jsonData, as: UTF8.self)).queryIndexes
    }

    /// True when a rule at `path` indexes `child` (a child path such as "height", or ".value").
    public func isIndexed(_ child: String, at path: [String]) -> Bool {
        entries.contains { entry in
            entry.path.count == path.count && entry.children.contains(child)
                && zip(entry.path, path).allSatisfy { pattern, key in pattern.hasPrefix("$") || pattern == key }
        }
    }
}
