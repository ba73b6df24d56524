import Foundation

/// `?ns=<name>` picks a database, as in Firebase's emulator [EMU: https://firebase.google.com/docs/emulator-suite/connect_rtdb]:
/// each name is its own database (empty at first) with its own streams. A request without `ns` uses the default
/// database, the one `FirebaseEmulator.database` shows and `lab serve` loads. The indexes are shared by all.
extension FirebaseService {
    /// A database other than the default: its tree and the streams listening to it.
    struct Namespace {
        var tree = DataTree()
        var listeners: [Listener] = []
    }

    /// Answers `request` in the database its `ns` names. The named database is swapped in for the call (its values
    /// are copy-on-write, so nothing is copied) and kept afterwards only while it holds data or streams.
    mutating func inNamespace(of request: ServiceRequest, _ answer: (inout FirebaseService) -> ServiceReply) -> ServiceReply {
        guard let name = request.query["ns"], !name.isEmpty else { return answer(&self) }
        var named = namespaces.removeValue(forKey: name) ?? Namespace()
        swap(&named.tree, &tree)
        swap(&named.listeners, &listeners)
        let reply = answer(&self)
        swap(&named.tree, &tree)
        swap(&named.listeners, &listeners)
        named.listeners.removeAll { $0.stream.isCancelled }
        if named.tree.root != .null || !named.listeners.isEmpty { namespaces[name] = named }
        return reply
    }
}

extension Emulator where Service == FirebaseService {
    /// The database `?ns=<name>` reaches, as `GET /.json?ns=<name>` returns it; `.null` when empty.
    public func database(namespace name: String) -> JSONValue {
        withService { $0.namespaces[name]?.tree.read(at: []) ?? .null }
    }
}
