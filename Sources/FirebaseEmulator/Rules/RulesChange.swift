import Foundation

/// When the rules change, a stream whose reader they no longer allow to read its location gets `cancel` with data
/// `null` and ends [REF "Streaming": https://firebase.google.com/docs/reference/rest/database]. Each stream keeps
/// who opened it (`Listener.reader`); the admin (`owner`) reads everything, and without rules everyone does.
extension FirebaseService {
    mutating func cancelStreamsTheRulesNoLongerAllow() {
        guard let rules = rules else { return }
        let now = clock()
        let root = tree.root
        listeners.removeAll { listener in
            let auth: RuleValue
            switch listener.reader {
            case .admin: return false
            case .user(let value, _): auth = value
            case .signedOut, .refused: auth = .null
            }
            guard !rules.canRead(listener.path, tree: root, context: .init(auth: auth, now: now)) else { return false }
            listener.stream.send(Self.event("cancel", data: "null"))
            listener.stream.finish()
            return true
        }
    }
}
