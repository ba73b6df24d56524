import Foundation

/// A Realtime Database rules file (`database.rules.json`): `{"rules": {…}}` with `.read`, `.write`, `.validate`
/// and `.indexOn` at any location, named children and one `$wildcard` child per location
/// (https://firebase.google.com/docs/database/security/core-syntax). Comments (`//`, `/* */`) are allowed, as in
/// Firebase's own files.
///
/// Loading checks everything it can: a rule the kit cannot read or evaluate is refused with its line and path,
/// never silently allowed. `.indexOn` is accepted and left to the query code; it grants and denies nothing.
public struct SecurityRules {
    /// Firebase refuses rules files over 256 KB; so does the kit.
    public static let maximumBytes = 256 * 1024
    /// One rule's text beyond this is refused (real rules are a few hundred characters).
    public static let maximumRuleLength = 16 * 1024

    final class Node {
        var read: RuleExpression?
        var write: RuleExpression?
        var validate: RuleExpression?
        var indexOn: [String] = []
        var children: [String: Node] = [:]
        /// `$name` and its rules: any child without a named rule of its own.
        var wildcard: (name: String, node: Node)?

        /// The rules for child `key`, and the `$` variable it binds (if it is the wildcard's).
        func child(_ key: String) -> (node: Node, binding: (String, String)?)? {
            if let named = children[key] { return (named, nil) }
            return wildcard.map { ($0.node, ($0.name, key)) }
        }
    }

    let root: Node
    /// The file's text, as loaded.
    public let text: String

    /// Reads rules from their JSON text; `file` only names it in errors.
    public init(json text: String, file: String = "database.rules.json") throws {
        self.text = text
        guard text.utf8.count <= Self.maximumBytes else {
            throw SecurityRulesError(file: file, line: nil, path: [], message: "the rules are \(text.utf8.count) bytes; Firebase's limit is 256 KB")
        }
        let parsed: JSONParser.Result
        do {
            parsed = try JSONParser.parse(Data(RulesComments.stripped(text).utf8))
        } catch let error as JSONParseError {
            throw SecurityRulesError(file: file, line: error.line, path: [], message: "not valid JSON: \(error.message) (column \(error.column))")
        }
        var loader = RulesLoader(file: file, keys: parsed.keys)
        root = try loader.load(parsed.value)
    }

    /// The rules' `.indexOn` entries, for queries (`orderBy` a child needs one, as on Firebase).
    public var queryIndexes: QueryIndexes {
        var entries: [QueryIndexes.Entry] = []
        var pending: [([String], Node)] = [([], root)]
        while let (path, node) = pending.popLast() {
            if !node.indexOn.isEmpty { entries.append(.init(path: path, children: node.indexOn)) }
            pending += node.children.map { (path + [$0.key], $0.value) }
            if let (name, child) = node.wildcard { pending.append((path + [name], child)) }
        }
        return QueryIndexes(entries: entries)
    }

    /// Reads a rules file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SecurityRulesError(file: url.path, line: nil, path: [], message: "cannot be read (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SecurityRulesError(file: url.path, line: nil, path: [], message: "is not UTF-8 text")
        }
        try self.init(json: text, file: url.path)
    }
}

/// A rules file refused when it loads: which file, line and rule, and why.
public struct SecurityRulesError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public let file: String
    public let line: Int?
    /// Keys from the top of the file to the rule: ["rules", "users", "$uid", ".write"].
    public let path: [String]
    public let message: String

    public var description: String {
        var where_ = file
        if let line = line { where_ += ", line \(line)" }
        if !path.isEmpty { where_ += ", " + path.joined(separator: "/") }
        return "Cannot load the security rules (\(where_)): \(message)"
    }

    public var errorDescription: String? { description }
}

/// `//` and `/* */` comments replaced by spaces (newlines kept, so line numbers stay right); strings untouched.
enum RulesComments {
    static func stripped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if inString {
                out.append(scalar)
                if scalar == "\\", let escaped = next { out.append(escaped); index += 2; continue }
                if scalar == "\"" { inString = false }
                index += 1
            } else if scalar == "\"" {
                inString = true
                out.append(scalar)
                index += 1
            } else if scalar == "/", next == "/" {
                while index < scalars.count, scalars[index] != "\n" { out.append(" "); index += 1 }
            } else if scalar == "/", next == "*" {
                out.append(" "); out.append(" ")
                index += 2
                while index < scalars.count, !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
                    out.append(scalars[index] == "\n" ? "\n" : " ")
                    index += 1
                }
                index = min(index + 2, scalars.count)
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }
}
