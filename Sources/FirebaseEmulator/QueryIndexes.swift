import Foundation

/// The `.indexOn` entries of a Realtime Database rules document: which children a query may order by, and where.
/// `{"rules": {"dinosaurs": {".indexOn": ["height", "length"]}, "scores": {".indexOn": ".value"}}}`
/// [https://firebase.google.com/docs/database/security/indexing-data]. A `$name` level matches any key. Only
/// `.indexOn` is read here; `.read`, `.write` and `.validate` belong to the rules engine, which can reuse this type.
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

    /// Why a rules document cannot be read, naming the place.
    public struct RulesError: Error, CustomStringConvertible, Equatable {
        public let message: String
        public var description: String { message }
    }

    /// Reads every `.indexOn` of a rules document (the object with a top-level `"rules"` key).
    public init(rules document: JSONValue) throws {
        guard let rules = document.objectValue?["rules"] else {
            throw RulesError(message: "a rules document is an object with a \"rules\" key, e.g. {\"rules\": {\".read\": true}}")
        }
        var pending: [([String], JSONValue)] = [([], rules)]
        while let (path, node) = pending.popLast() {
            guard let object = node.objectValue else { continue }  // a rule's expression, not a location
            for (key, child) in object {
                if key == ".indexOn" {
                    entries.append(Entry(path: path, children: try Self.indexed(child, at: path)))
                } else if !key.hasPrefix(".") {
                    pending.append((path + [key], child))
                }
            }
        }
        entries.sort { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// Reads a rules file (`database.rules.json`).
    public init(rulesFile url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RulesError(message: "\(url.path) cannot be read (\(error.localizedDescription))")
        }
        do {
            try self.init(rules: try JSONValue(data: data))
        } catch let error as RulesError {
            throw RulesError(message: "\(url.path): \(error.message)")
        } catch {
            throw RulesError(message: "\(url.path) is not valid JSON: \(error)")
        }
    }

    private static func indexed(_ value: JSONValue, at path: [String]) throws -> [String] {
        if let one = value.stringValue { return [one] }
        if let many = value.arrayValue, case let names = many.compactMap(\.stringValue), names.count == many.count {
            return names
        }
        throw RulesError(message: "\".indexOn\" at /\(path.joined(separator: "/")) must be a child name or an array of them, not \(value)")
    }

    /// True when a rule at `path` indexes `child` (a child path such as "height", or ".value").
    public func isIndexed(_ child: String, at path: [String]) -> Bool {
        entries.contains { entry in
            entry.path.count == path.count && entry.children.contains(child)
                && zip(entry.path, path).allSatisfy { pattern, key in pattern.hasPrefix("$") || pattern == key }
        }
    }
}
