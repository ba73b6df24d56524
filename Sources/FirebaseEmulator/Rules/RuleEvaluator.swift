import Foundation

/// Why a rule could not be evaluated for this request (a type error, a property of null): the rule then fails, as
/// Firebase treats an error in a rule as `false`.
struct RuleEvaluationError: Error {
    let message: String
}

/// Evaluates a parsed rule against one request: the variables it sees and the methods of snapshots and strings
/// (https://firebase.google.com/docs/reference/security/database).
struct RuleEvaluator {
    let variables: [String: RuleValue]

    /// True only when the rule evaluates to the boolean `true`; any error or other value denies.
    func allows(_ expression: RuleExpression) -> Bool {
        (try? evaluate(expression)) == .bool(true)
    }

    func evaluate(_ expression: RuleExpression) throws -> RuleValue {
        switch expression {
        case .literal(let value): return value
        case .regex: throw RuleEvaluationError(message: "a regular expression can only be the argument of matches()")
        case .variable(let name): return variables[name] ?? .null
        case .array(let elements): return .list(try elements.map(evaluate))
        case .member(let base, let name): return try member(name, of: try evaluate(base))
        case .index(let base, let key):
            guard case .string(let name) = try evaluate(key) else { throw RuleEvaluationError(message: "[] needs a string") }
            return try member(name, of: try evaluate(base))
        case .method(let base, let name, let arguments): return try call(name, on: try evaluate(base), arguments)
        case .not(let operand):
            guard case .bool(let bool) = try evaluate(operand) else { throw RuleEvaluationError(message: "! needs a boolean") }
            return .bool(!bool)
        case .negate(let operand):
            guard case .number(let number) = try evaluate(operand) else { throw RuleEvaluationError(message: "- needs a number") }
            return .number(-number)
        case .conditional(let condition, let then, let otherwise):
            guard case .bool(let bool) = try evaluate(condition) else { throw RuleEvaluationError(message: "?: needs a boolean") }
            return try evaluate(bool ? then : otherwise)
        case .binary(let symbol, let left, let right):
            return try binary(symbol, left, right)
        }
    }

    private func member(_ name: String, of value: RuleValue) throws -> RuleValue {
        switch value {
        case .map(let map): return map[name] ?? .null
        case .string(let string) where name == "length": return .number(Double(string.utf16.count))
        default: throw RuleEvaluationError(message: "no property \(name) of a \(value.typeName)")
        }
    }

    private func binary(_ symbol: String, _ leftExpression: RuleExpression, _ rightExpression: RuleExpression) throws -> RuleValue {
        let left = try evaluate(leftExpression)
        if symbol == "&&" || symbol == "||" {
            guard case .bool(let first) = left else { throw RuleEvaluationError(message: "\(symbol) needs booleans") }
            if symbol == "&&" ? !first : first { return .bool(first) }
            guard case .bool(let second) = try evaluate(rightExpression) else { throw RuleEvaluationError(message: "\(symbol) needs booleans") }
            return .bool(second)
        }
        let right = try evaluate(rightExpression)
        switch (symbol, left, right) {
        case ("==", _, _), ("===", _, _): return .bool(try equal(left, right))
        case ("!=", _, _), ("!==", _, _): return .bool(!(try equal(left, right)))
        case ("+", .number(let a), .number(let b)): return .number(a + b)
        case ("+", .string, _), ("+", _, .string): return .string(try text(left) + text(right))
        case ("-", .number(let a), .number(let b)): return .number(a - b)
        case ("*", .number(let a), .number(let b)): return .number(a * b)
        case ("/", .number(let a), .number(let b)): return .number(a / b)
        case ("%", .number(let a), .number(let b)): return .number(a.truncatingRemainder(dividingBy: b))
        case (_, .number(let a), .number(let b)): return .bool(compare(symbol, a, b))
        case (_, .string(let a), .string(let b)): return .bool(compare(symbol, a, b))
        default: throw RuleEvaluationError(message: "\(symbol) cannot combine a \(left.typeName) and a \(right.typeName)")
        }
    }

    private func compare<T: Comparable>(_ symbol: String, _ a: T, _ b: T) -> Bool {
        switch symbol {
        case "<": return a < b
        case "<=": return a <= b
        case ">": return a > b
        default: return a >= b
        }
    }

    /// Equality of values; a snapshot is not a value (compare `data.val()`), as in Firebase.
    private func equal(_ left: RuleValue, _ right: RuleValue) throws -> Bool {
        if case .snapshot = left { throw RuleEvaluationError(message: "compare a snapshot's val(), not the snapshot") }
        if case .snapshot = right { throw RuleEvaluationError(message: "compare a snapshot's val(), not the snapshot") }
        return left == right
    }

    private func text(_ value: RuleValue) throws -> String {
        switch value {
        case .string(let string): return string
        case .number(let number): return JSONValue.number(number).description
        case .bool(let bool): return bool ? "true" : "false"
        case .null: return "null"
        default: throw RuleEvaluationError(message: "+ cannot join a \(value.typeName)")
        }
    }

    private func call(_ name: String, on base: RuleValue, _ argumentExpressions: [RuleExpression]) throws -> RuleValue {
        if name == "matches" {
            guard case .string(let string) = base, argumentExpressions.count == 1, case .regex(let regex) = argumentExpressions[0] else {
                throw RuleEvaluationError(message: "matches() takes a /regular expression/ and is called on a string")
            }
            return .bool(regex.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil)
        }
        let arguments = try argumentExpressions.map(evaluate)
        switch base {
        case .snapshot(let snapshot): return try RuleSnapshotMethods.call(name, on: snapshot, arguments)
        case .string(let string): return try Self.stringMethod(name, on: string, arguments)
        default: throw RuleEvaluationError(message: "no method \(name)() of a \(base.typeName)")
        }
    }

    private static func stringMethod(_ name: String, on string: String, _ arguments: [RuleValue]) throws -> RuleValue {
        let strings = arguments.compactMap { argument -> String? in
            if case .string(let text) = argument { return text }
            return nil
        }
        guard strings.count == arguments.count else { throw RuleEvaluationError(message: "\(name)() takes strings") }
        switch (name, strings.count) {
        case ("contains", 1): return .bool(strings[0].isEmpty || string.contains(strings[0]))
        case ("beginsWith", 1): return .bool(string.hasPrefix(strings[0]))
        case ("endsWith", 1): return .bool(string.hasSuffix(strings[0]))
        case ("replace", 2): return .string(strings[0].isEmpty ? string : string.replacingOccurrences(of: strings[0], with: strings[1]))
        case ("toLowerCase", 0): return .string(string.lowercased())
        case ("toUpperCase", 0): return .string(string.uppercased())
        default: throw RuleEvaluationError(message: "no method \(name)() with \(strings.count) arguments on a string")
        }
    }
}

/// The methods of a RuleDataSnapshot (https://firebase.google.com/docs/reference/security/database#ruledatasnapshot_methods).
enum RuleSnapshotMethods {
    static func call(_ name: String, on snapshot: RuleSnapshot, _ arguments: [RuleValue]) throws -> RuleValue {
        let argument = arguments.first
        switch (name, arguments.count) {
        case ("val", 0): return RuleValue(DataTree.presented(snapshot.value))
        case ("exists", 0): return .bool(snapshot.value != .null)
        case ("getPriority", 0): return .null  // priorities are not stored by the kit
        case ("isNumber", 0): return .bool(snapshot.value.numberValue != nil)
        case ("isString", 0): return .bool(snapshot.value.stringValue != nil)
        case ("isBoolean", 0): return .bool(snapshot.value.boolValue != nil)
        case ("parent", 0):
            guard !snapshot.path.isEmpty else { throw RuleEvaluationError(message: "the root has no parent()") }
            return .snapshot(RuleSnapshot(tree: snapshot.tree, path: Array(snapshot.path.dropLast())))
        case ("child", 1):
            return .snapshot(snapshot.child(try path(argument, for: "child")))
        case ("hasChild", 1):
            return .bool(snapshot.child(try path(argument, for: "hasChild")).value != .null)
        case ("hasChildren", 0):
            return .bool(!(snapshot.value.objectValue?.isEmpty ?? true))
        case ("hasChildren", 1):
            guard case .list(let names)? = argument, !names.isEmpty else {
                throw RuleEvaluationError(message: "hasChildren() takes a non-empty list of names")
            }
            return .bool(try names.allSatisfy { snapshot.child(try path($0, for: "hasChildren")).value != .null })
        default:
            throw RuleEvaluationError(message: "no method \(name)() with \(arguments.count) arguments on a snapshot")
        }
    }

    private static func path(_ argument: RuleValue?, for method: String) throws -> String {
        guard case .string(let path)? = argument, !path.isEmpty else { throw RuleEvaluationError(message: "\(method)() needs a non-empty path") }
        return path
    }
}
