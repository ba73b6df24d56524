import Foundation

/// `?ns=<name>` picks a database, as in Firebase's emulator [EMU: https://firebase.google.com/docs/emulator-suite/connect_rtdb]:
/// each name is its own database (empty at first) with its own streams. A request without `ns` uses the default
/// database, the one `FirebaseEmulator.database` shows and `lab serve` loads. Each has its own rules and indexes, as in
/// Firebase's emulator, where firebase-tools loads a rules file into one instance (`PUT /.settings/rules.json?ns=…`):
/// a new namespace starts with none (everything allowed, as the emulator's default open rules).
extension FirebaseService {
    /// A database other than the default: its tree and the streams listening to it.
    struct Namespace {
        var tree = DataTree()
        var listeners: [Listener] = []
        var rules: SecurityRules?
        var indexes = QueryIndexes()
    }

    /// Answers `request` in the database its `ns` names. The named database is swapped in for the call (its values
    /// are copy-on-write, so nothing is copied) and kept afterwards only while it holds data, streams or rules.
    mutating func inNamespace(of request: ServiceRequest, _ answer: (inout FirebaseService) -> ServiceReply) -> ServiceReply {
        guard let name = request.query["ns"], !name.isEmpty else { return answer(&self) }
        var named = namespaces.removeValue(forKey: name) ?? Namespace()
        named.swap(with: &self)
        let reply = answer(&self)
        named.swap(with: &self)
        named.listeners.removeAll { $0.stream.isCancelled }
        if named.tree.root != .null || !named.listeners.isEmpty || named.rules != nil { namespaces[name] = named }
        return reply
    }
}

extension FirebaseService.Namespace {
    /// Exchanges this database with the one `service` serves now.
    mutating func swap(with service: inout FirebaseService) {
        Swift.swap(&tree, &service.tree)
        Swift.swap(&listeners, &service.listeners)
        Swift.swap(&rules, &service.rules)
        Swift.swap(&indexes, &service.indexes)
    }
}

extension Emulator where Service == FirebaseService {
    /// The database `?ns=<name>` reaches, as `GET /.json?ns=<name>` returns it; `.null` when empty.
    public func database(namespace name: String) -> JSONValue {
        withService { $0.namespaces[name]?.tree.read(at: []) ?? .null }
    }
}
