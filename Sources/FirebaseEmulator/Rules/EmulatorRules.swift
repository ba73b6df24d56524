import Foundation

extension Emulator where Service == FirebaseService {
    /// The security rules in force; nil (the default) allows every request and ignores `auth=`. Setting them sends
    /// `cancel` to the streams they no longer allow (their indexes are `queryIndexes`, set apart).
    public var rules: SecurityRules? {
        get { withService { $0.rules } }
        set { withService { $0.rules = newValue; $0.cancelStreamsTheRulesNoLongerAllow() } }
    }

    /// Loads rules from the text of a `database.rules.json`; throws `SecurityRulesError` (line, path, reason) for a
    /// rule the kit cannot read, and then leaves the rules as they were.
    /// Their `.indexOn` entries become the query indexes. Open streams the new rules no longer allow get `cancel`.
    public func setRules(_ json: String) throws {
        let loaded = try SecurityRules(json: json)
        withService { $0.replaceRules(with: loaded) }
    }
}
