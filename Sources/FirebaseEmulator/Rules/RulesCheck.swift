import Foundation

/// Firebase's cascade (https://firebase.google.com/docs/database/security/core-syntax#read_and_write_rules_cascade):
/// a `.read` or `.write` that grants at a location grants everything below it, and nothing below can take it back;
/// `.validate` does not cascade: every `.validate` on the written locations and inside the written data must pass
/// (and is skipped where the data is being deleted).
extension SecurityRules {
    /// What every rule sees besides the data: `auth` (null when signed out) and `now` (ms since 1970).
    struct Context {
        let auth: RuleValue
        let now: Date
    }

    func canRead(_ path: [String], tree: JSONValue, context: Context) -> Bool {
        var node: Node? = root
        var variables = baseVariables(tree: tree, context: context)
        for depth in 0...path.count {
            guard let current = node else { return false }
            variables["data"] = .snapshot(RuleSnapshot(tree: tree, path: Array(path.prefix(depth))))
            if let read = current.read, RuleEvaluator(variables: variables).allows(read) { return true }
            guard depth < path.count, let next = current.child(path[depth]) else { return false }
            if let (name, value) = next.binding { variables[name] = .string(value) }
            node = next.node
        }
        return false
    }

    /// Whether a write that changes the locations `written` (one for PUT/POST/DELETE, one per key for PATCH),
    /// turning `old` into `new` (whole trees, storage form), is allowed.
    func canWrite(_ written: [[String]], old: JSONValue, new: JSONValue, context: Context) -> Bool {
        written.allSatisfy { canWrite(at: $0, old: old, new: new, context: context) }
    }

    private func canWrite(at path: [String], old: JSONValue, new: JSONValue, context: Context) -> Bool {
        var node: Node? = root
        var variables = baseVariables(tree: old, context: context)
        var granted = false
        for depth in 0...path.count {
            guard let current = node else { return granted }  // no rules below: what was granted stands
            let location = Array(path.prefix(depth))
            let newData = RuleSnapshot(tree: new, path: location)
            let exists = newData.value != .null
            if granted && !exists { return true }  // a delete: nothing left to validate
            variables["data"] = .snapshot(RuleSnapshot(tree: old, path: location))
            variables["newData"] = .snapshot(newData)
            let evaluator = RuleEvaluator(variables: variables)
            if !granted, let write = current.write, evaluator.allows(write) { granted = true }
            if exists, let validate = current.validate, !evaluator.allows(validate) { return false }
            if depth == path.count { break }
            guard let next = current.child(path[depth]) else { node = nil; continue }
            if let (name, value) = next.binding { variables[name] = .string(value) }
            node = next.node
        }
        guard granted else { return false }
        guard let written = node else { return true }
        return validatesBelow(written, at: path, old: old, new: new, variables: variables)
    }

    /// Every `.validate` inside the new data below `path`.
    private func validatesBelow(_ node: Node, at path: [String], old: JSONValue, new: JSONValue, variables: [String: RuleValue]) -> Bool {
        guard let children = RuleSnapshot(tree: new, path: path).value.objectValue else { return true }
        for key in children.keys.sorted() {
            guard let (child, binding) = node.child(key) else { continue }
            var scope = variables
            if let (name, value) = binding { scope[name] = .string(value) }
            let location = path + [key]
            scope["data"] = .snapshot(RuleSnapshot(tree: old, path: location))
            scope["newData"] = .snapshot(RuleSnapshot(tree: new, path: location))
            if let validate = child.validate, !RuleEvaluator(variables: scope).allows(validate) { return false }
            guard validatesBelow(child, at: location, old: old, new: new, variables: scope) else { return false }
        }
        return true
    }

    private func baseVariables(tree: JSONValue, context: Context) -> [String: RuleValue] {
        ["auth": context.auth, "now": .number((context.now.timeIntervalSince1970 * 1000).rounded(.down)),
         "root": .snapshot(RuleSnapshot(tree: tree, path: []))]
    }
}
