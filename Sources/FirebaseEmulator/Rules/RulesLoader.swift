import Foundation

/// Builds the rules tree from the parsed file, checking each rule and naming the line of any it refuses.
struct RulesLoader {
    let file: String
    /// The line of each key, by its path from the top of the file.
    private var lines: [[String]: Int] = [:]

    init(file: String, keys: [JSONParser.Key]) {
        self.file = file
        var stack: [String] = []
        for key in keys {
            stack = Array(stack.prefix(max(0, key.depth - 1))) + [key.name]
            if lines[stack] == nil { lines[stack] = key.line }
        }
    }

    private func error(_ path: [String], _ message: String) -> SecurityRulesError {
        var line: Int?
        var prefix = path
        while line == nil, !prefix.isEmpty {
            line = lines[prefix]
            prefix.removeLast()
        }
        return SecurityRulesError(file: file, line: line, path: path, message: message)
    }

    mutating func load(_ document: JSONValue) throws -> SecurityRules.Node {
        guard let top = document.objectValue, let rules = top["rules"] else {
            throw error([], #"the file must be an object with "rules" at the top: {"rules": {…}}"#)
        }
        if let extra = top.keys.first(where: { $0 != "rules" }) { throw error([extra], #"only "rules" may be at the top of the file"#) }
        return try node(rules, path: ["rules"], variables: [])
    }

    private func node(_ value: JSONValue, path: [String], variables: [String]) throws -> SecurityRules.Node {
        guard let object = value.objectValue else {
            throw error(path, "expected an object of rules and children, found \(value.description.prefix(40))")
        }
        let node = SecurityRules.Node()
        for key in object.keys.sorted() {
            let child = object[key]!
            let childPath = path + [key]
            if key.hasPrefix(".") {
                try rule(key, child, path: childPath, variables: variables, into: node)
            } else if key.hasPrefix("$") {
                if let existing = node.wildcard { throw error(childPath, "only one $ wildcard per location (\(existing.name) is already here)") }
                if variables.contains(key) { throw error(childPath, "\(key) is already a wildcard above; give this one another name") }
                guard key.count > 1 else { throw error(childPath, "a wildcard needs a name after $") }
                node.wildcard = (key, try self.node(child, path: childPath, variables: variables + [key]))
            } else {
                node.children[key] = try self.node(child, path: childPath, variables: variables)
            }
        }
        return node
    }

    private func rule(_ kind: String, _ value: JSONValue, path: [String], variables: [String], into node: SecurityRules.Node) throws {
        if kind == ".indexOn" {
            switch value {
            case .string(let key): node.indexOn = [key]
            case .array(let keys) where keys.allSatisfy({ $0.stringValue != nil }): node.indexOn = keys.compactMap(\.stringValue)
            default: throw error(path, ".indexOn must be a key or a list of keys")
            }
            return
        }
        guard [".read", ".write", ".validate"].contains(kind) else {
            throw error(path, "unknown rule \(kind) (the kit knows .read, .write, .validate and .indexOn)")
        }
        let text: String
        switch value {
        case .bool(let bool): text = bool ? "true" : "false"
        case .string(let string): text = string
        default: throw error(path, "\(kind) must be true, false or an expression in a string")
        }
        guard text.utf8.count <= SecurityRules.maximumRuleLength else {
            throw error(path, "the rule is \(text.utf8.count) bytes; the kit reads rules up to \(SecurityRules.maximumRuleLength)")
        }
        var visible: Set<String> = ["auth", "now", "root", "data"]
        visible.formUnion(variables)
        if kind != ".read" { visible.insert("newData") }
        let expression: RuleExpression
        do {
            expression = try RuleParser.parse(text, variables: visible)
        } catch let syntax as RuleSyntaxError {
            throw error(path, "\(syntax.message) in \"\(text.prefix(200))\"")
        }
        switch kind {
        case ".read": node.read = expression
        case ".write": node.write = expression
        default: node.validate = expression
        }
    }
}
