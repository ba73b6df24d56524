import Foundation

/// The todos, in the order they were added (id order for the published data), with json-server's id rules.
struct TodoStore {
    private(set) var all: [JSONValue]

    init(_ todos: [JSONValue]) {
        all = todos
    }

    /// json-server compares ids as text: `/todos/01` is not todo 1.
    static func idText(_ value: JSONValue) -> String? {
        switch value {
        // Below 2^53 a whole number is exact as an Int; a larger one (`1e300`) would trap in `Int(_:)`.
        case .number(let number) where number == number.rounded() && abs(number) < 9_007_199_254_740_992:
            return String(Int(number))
        case .number: return value.description
        case .string(let text): return text
        default: return nil
        }
    }

    private func index(of id: String) -> Int? {
        all.firstIndex { Self.idText($0["id"]) == id }
    }

    func find(_ id: String) -> JSONValue? {
        index(of: id).map { all[$0] }
    }

    /// One more than the largest numeric id; 1 for an empty collection (json-server's `createId`, in JavaScript's
    /// numbers: a Double, so a stored id of `1e300` cannot trap the way `Int(_:) + 1` would).
    var nextIDNumber: Double {
        let ids = all.compactMap { $0["id"].numberValue }.filter { $0 == $0.rounded() }
        return (ids.max() ?? 0) + 1
    }

    /// `nextIDNumber` as an Int (Int.max or Int.min when it is beyond).
    var nextID: Int {
        let next = nextIDNumber
        return abs(next) < 9.2e18 ? Int(next) : (next < 0 ? Int.min : Int.max)
    }

    enum InsertError: Error { case duplicateID }

    /// Stores `fields` as a new todo. A missing or null `id` gets `nextID`; a given one is kept, unless taken.
    mutating func insert(_ fields: [String: JSONValue]) throws -> JSONValue {
        var fields = fields
        if fields["id"] == nil || fields["id"] == .null {
            fields["id"] = .number(nextIDNumber)
        } else if let id = Self.idText(fields["id"]!), find(id) != nil {
            throw InsertError.duplicateID
        }
        let todo = JSONValue.object(fields)
        all.append(todo)
        return todo
    }

    /// PUT replaces every field, PATCH merges; the id stays the one in the URL. Nil when there is no such todo.
    mutating func update(_ id: String, with fields: [String: JSONValue], replacing: Bool) -> JSONValue? {
        guard let index = index(of: id), var stored = all[index].objectValue else { return nil }
        let keptID = stored["id"]
        stored = replacing ? fields : stored.merging(fields) { _, new in new }
        stored["id"] = keptID
        all[index] = .object(stored)
        return all[index]
    }

    mutating func remove(_ id: String) -> Bool {
        guard let index = index(of: id) else { return false }
        all.remove(at: index)
        return true
    }
}
