import Foundation

/// A parsed rule expression (Firebase Realtime Database Security Rules, "Rules language":
/// https://firebase.google.com/docs/reference/security/database).
indirect enum RuleExpression {
    case literal(RuleValue)
    case regex(NSRegularExpression)
    case variable(String)
    case member(RuleExpression, String)
    case index(RuleExpression, RuleExpression)
    case method(RuleExpression, String, [RuleExpression])
    case array([RuleExpression])
    case not(RuleExpression)
    case negate(RuleExpression)
    case binary(String, RuleExpression, RuleExpression)
    case conditional(RuleExpression, RuleExpression, RuleExpression)
}

extension RuleExpression {
    /// How deep the tree is, counted without recursion (the tree may be arbitrarily deep).
    var depth: Int {
        var deepest = 0
        var pending: [(RuleExpression, Int)] = [(self, 1)]
        while let (expression, level) = pending.popLast() {
            deepest = max(deepest, level)
            let children: [RuleExpression]
            switch expression {
            case .literal, .regex, .variable: children = []
            case .member(let base, _): children = [base]
            case .index(let base, let key): children = [base, key]
            case .method(let base, _, let arguments): children = [base] + arguments
            case .array(let elements): children = elements
            case .not(let operand), .negate(let operand): children = [operand]
            case .binary(_, let left, let right): children = [left, right]
            case .conditional(let condition, let then, let otherwise): children = [condition, then, otherwise]
            }
            pending += children.map { ($0, level + 1) }
        }
        return deepest
    }
}

/// Reads a rule expression, checking what can be checked before any request: every variable is one the rule can
/// see (`auth`, `now`, `root`, `data`, `newData` outside `.read`, the `$` variables of its path), every method is
/// one the language has, every regular expression compiles. Precedence as in JavaScript.
struct RuleParser {
    static let methods: Set<String> = [
        "val", "child", "parent", "hasChild", "hasChildren", "exists", "getPriority", "isNumber", "isString", "isBoolean",
        "contains", "beginsWith", "endsWith", "replace", "toLowerCase", "toUpperCase", "matches",
    ]
    /// Deeper nesting is refused rather than risk the stack (Firebase's own limits are far below it in practice).
    static let maximumNesting = 100

    private let tokens: [RuleToken]
    private var position = 0
    private var nesting = 0
    private let variables: Set<String>

    static func parse(_ text: String, variables: Set<String>) throws -> RuleExpression {
        var parser = RuleParser(tokens: try RuleLexer.tokens(text), variables: variables)
        let expression = try parser.conditional()
        guard case .end = parser.current.kind else { throw parser.unexpected() }
        // Evaluation recurses through the tree: a long `a && b && …` chain is as deep as it is long.
        guard expression.depth <= Self.maximumDepth else {
            throw RuleSyntaxError(message: "Expression too deep to evaluate (more than \(Self.maximumDepth) levels of operators)")
        }
        return expression
    }

    static let maximumDepth = 200

    private init(tokens: [RuleToken], variables: Set<String>) {
        self.tokens = tokens
        self.variables = variables
    }

    private var current: RuleToken { tokens[position] }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private mutating func accept(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws {
        guard accept(symbol) else { throw RuleSyntaxError(message: "Expected '\(symbol)' at character \(current.offset)") }
    }

    private func unexpected() -> RuleSyntaxError {
        switch current.kind {
        case .end: return RuleSyntaxError(message: "Unexpected end of expression")
        case .symbol(let symbol): return RuleSyntaxError(message: "Unexpected '\(symbol)' at character \(current.offset)")
        default: return RuleSyntaxError(message: "Unexpected token at character \(current.offset)")
        }
    }

    private mutating func nested<T>(_ body: (inout RuleParser) throws -> T) throws -> T {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maximumNesting else { throw RuleSyntaxError(message: "Expression nested too deeply (more than \(Self.maximumNesting) levels)") }
        return try body(&self)
    }

    private mutating func conditional() throws -> RuleExpression {
        try nested { parser in
            let condition = try parser.binary(level: 0)
            guard parser.accept("?") else { return condition }
            let then = try parser.conditional()
            try parser.expect(":")
            return .conditional(condition, then, try parser.conditional())
        }
    }

    private static let levels: [[String]] = [["||"], ["&&"], ["==", "===", "!=", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(level: Int) throws -> RuleExpression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .symbol(let symbol) = current.kind, Self.levels[level].contains(symbol) {
            position += 1
            left = .binary(symbol, left, try binary(level: level + 1))
        }
        return left
    }

    private mutating func unary() throws -> RuleExpression {
        try nested { parser in
            if parser.accept("!") { return .not(try parser.unary()) }
            if parser.accept("-") { return .negate(try parser.unary()) }
            return try parser.postfix()
        }
    }

    private mutating func postfix() throws -> RuleExpression {
        var expression = try primary()
        while true {
            if accept(".") {
                guard case .identifier(let name) = current.kind else { throw RuleSyntaxError(message: "Expected a name after '.' at character \(current.offset)") }
                position += 1
                if accept("(") {
                    guard Self.methods.contains(name) else { throw RuleSyntaxError(message: "Unknown method '\(name)'") }
                    expression = .method(expression, name, try arguments(closing: ")"))
                } else {
                    expression = .member(expression, name)
                }
            } else if accept("[") {
                let key = try conditional()
                try expect("]")
                expression = .index(expression, key)
            } else if isSymbol("(") {
                throw RuleSyntaxError(message: "Only methods can be called (like data.child('x')), at character \(current.offset)")
            } else {
                return expression
            }
        }
    }

    private mutating func arguments(closing: String) throws -> [RuleExpression] {
        var list: [RuleExpression] = []
        if accept(closing) { return list }
        repeat { list.append(try conditional()) } while accept(",")
        try expect(closing)
        return list
    }

    private mutating func primary() throws -> RuleExpression {
        let token = current
        position += 1
        switch token.kind {
        case .number(let number): return .literal(.number(number))
        case .string(let string): return .literal(.string(string))
        case .regex(let pattern, let flags):
            guard flags.allSatisfy({ $0 == "i" }) else { throw RuleSyntaxError(message: "Unsupported regular expression flags '\(flags)' (only i)") }
            do {
                return .regex(try NSRegularExpression(pattern: pattern, options: flags.isEmpty ? [] : [.caseInsensitive]))
            } catch {
                throw RuleSyntaxError(message: "Invalid regular expression /\(pattern)/")
            }
        case .identifier("true"): return .literal(.bool(true))
        case .identifier("false"): return .literal(.bool(false))
        case .identifier("null"): return .literal(.null)
        case .identifier(let name):
            guard variables.contains(name) else { throw RuleSyntaxError(message: "Unknown variable '\(name)'") }
            return .variable(name)
        case .symbol("("):
            let inner = try conditional()
            try expect(")")
            return inner
        case .symbol("["):
            return .array(try arguments(closing: "]"))
        default:
            position -= 1
            throw unexpected()
        }
    }
}
