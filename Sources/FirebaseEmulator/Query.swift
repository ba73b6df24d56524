import Foundation

/// A REST query [RETR "Filtering Data": https://firebase.google.com/docs/database/rest/retrieve-data]: `orderBy`
/// (`"$key"`, `"$value"`, `"$priority"` or a child path, JSON-quoted) with `startAt`, `endAt`, `equalTo` (inclusive)
/// and `limitToFirst` or `limitToLast`. The answer is the matching children as one object (JSON keeps no order).
struct Query: Equatable {
    enum Order: Equatable {
        case key, value, priority
        case child([String])
    }

    enum Limit: Equatable {
        case first(Int), last(Int)
    }

    let order: Order
    var start: JSONValue?
    var end: JSONValue?
    var limit: Limit?

    /// A query refused with 400 and Firebase's text.
    struct Refusal: Error, Equatable {
        let message: String
    }

    static let filterParameters = ["startAt", "endAt", "equalTo", "limitToFirst", "limitToLast"]
    static let parameters = ["orderBy"] + filterParameters

    /// The query of a request's parameters; nil when it has none.
    static func parse(_ query: [String: String]) throws -> Query? {
        guard let orderText = query["orderBy"] else {
            if filterParameters.contains(where: { query[$0] != nil }) { throw Refusal(message: ErrorText.orderByMissing) }
            return nil
        }
        var parsed = Query(order: try order(orderText))
        if let equal = query["equalTo"] {
            guard query["startAt"] == nil, query["endAt"] == nil else { throw Refusal(message: ErrorText.equalToWithRange) }
            parsed.start = try bound(equal, for: parsed.order)
            parsed.end = parsed.start
        }
        parsed.start = try query["startAt"].map { try bound($0, for: parsed.order) } ?? parsed.start
        parsed.end = try query["endAt"].map { try bound($0, for: parsed.order) } ?? parsed.end
        switch (query["limitToFirst"], query["limitToLast"]) {
        case (.some, .some): throw Refusal(message: ErrorText.bothLimits)
        case (let first?, nil): parsed.limit = .first(try limit(first, "limitToFirst"))
        case (nil, let last?): parsed.limit = .last(try limit(last, "limitToLast"))
        case (nil, nil): break
        }
        return parsed
    }

    private static func order(_ text: String) throws -> Order {
        guard let path = (try? JSONValue(data: Data(text.utf8)))?.stringValue else {
            throw Refusal(message: ErrorText.orderByNotJSON)
        }
        switch path {
        case "$key": return .key
        case "$value": return .value
        case "$priority": return .priority
        default:
            let segments = path.split(separator: "/").map(String.init)
            guard !segments.isEmpty, segments.allSatisfy(Validation.isValidKey) else { throw Refusal(message: ErrorText.orderByNotJSON) }
            return .child(segments)
        }
    }

    private static func bound(_ text: String, for order: Order) throws -> JSONValue {
        guard let value = try? JSONValue(data: Data(text.utf8)), value.objectValue == nil, value.arrayValue == nil else {
            throw Refusal(message: ErrorText.constraintNotPrimitive)
        }
        if order == .key, value.stringValue == nil { throw Refusal(message: ErrorText.keyBoundNotString) }
        return value
    }

    private static func limit(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw Refusal(message: ErrorText.badLimit(name)) }
        return value
    }

    /// The child whose `.indexOn` this query needs, or nil ($key and $priority need none) [RETR].
    var requiredIndex: String? {
        switch order {
        case .key, .priority: return nil
        case .value: return ".value"
        case .child(let path): return path.joined(separator: "/")
        }
    }

    /// The matching children of a stored value (storage form); a value without children is returned as it is.
    func apply(to stored: JSONValue) -> JSONValue {
        guard case .object(let children) = stored else { return stored }
        var matching: [Entry] = []
        for (key, value) in children where key != DataTree.priorityKey {
            let entry = Entry(key: key, intKey: QueryOrder.int32Key(key), orderValue: orderValue(of: value, key: key), value: value)
            if isInRange(entry.orderValue) { matching.append(entry) }
        }
        if let limit = limit {
            switch limit {
            case .first(let count) where matching.count > count: matching = Array(matching.sorted(by: precedes).prefix(count))
            case .last(let count) where matching.count > count: matching = Array(matching.sorted(by: precedes).suffix(count))
            default: break
            }
        }
        return matching.isEmpty ? .null : .object(Dictionary(uniqueKeysWithValues: matching.map { ($0.key, $0.value) }))
    }

    /// A child with what it is sorted by, worked out once rather than at every comparison.
    private struct Entry {
        let key: String
        let intKey: Int64?
        let orderValue: JSONValue
        let value: JSONValue
    }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if order != .key {
            let comparison = QueryOrder.compare(a.orderValue, b.orderValue)
            if comparison != 0 { return comparison < 0 }
        }
        return QueryOrder.keyPrecedes(a.key, a.intKey, b.key, b.intKey)
    }

    /// What a child is ordered by: its key, its value, its priority or the value at the child path.
    private func orderValue(of child: JSONValue, key: String) -> JSONValue {
        switch order {
        case .key: return .string(key)
        case .value:
            let leaf = DataTree.leaf(child)
            return leaf.objectValue == nil ? leaf : .object([:])
        case .priority: return child[".priority"]
        case .child(let path): return path.reduce(child) { $0[$1] }
        }
    }

    private func isInRange(_ value: JSONValue) -> Bool {
        func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
            guard order == .key, let x = a.stringValue, let y = b.stringValue else { return QueryOrder.compare(a, b) }
            return x == y ? 0 : (QueryOrder.keyPrecedes(x, y) ? -1 : 1)
        }
        if let start = start, compare(value, start) < 0 { return false }
        if let end = end, compare(value, end) > 0 { return false }
        return true
    }
}

extension ErrorText {
    /// Firebase's texts, observed live (firebase-rest.md "Queries").
    static let orderByMissing = "orderBy must be defined when other query parameters are defined"
    static let orderByNotJSON = "orderBy must be a valid JSON encoded path"
    static let constraintNotPrimitive = "Constraint index field must be a JSON primitive"
    static func indexNotDefined(_ child: String, path: [String]) -> String {
        "Index not defined, add \".indexOn\": \"\(child)\", for path \"/\(path.joined(separator: "/"))\", to the rules"
    }
    /// Inferred wordings: Firebase answers 400; its texts for these are not documented.
    static let bothLimits = "limitToFirst and limitToLast cannot both be defined"
    static let equalToWithRange = "equalTo cannot be combined with startAt or endAt"
    static let keyBoundNotString = "When orderBy is \"$key\", startAt, endAt and equalTo must be strings"
    static func badLimit(_ name: String) -> String { "\(name) must be a positive integer" }
    static let shallowWithQuery = "shallow cannot be mixed with any other query parameters"
}
