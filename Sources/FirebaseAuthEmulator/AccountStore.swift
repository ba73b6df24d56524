import Foundation

/// The users, by id and by (lower-cased) email.
struct AccountStore {
    private var byId: [String: AuthAccount] = [:]
    private var idByEmail: [String: String] = [:]

    var all: [AuthAccount] { byId.values.sorted { $0.createdAt == $1.createdAt ? $0.localId < $1.localId : $0.createdAt < $1.createdAt } }

    subscript(localId: String) -> AuthAccount? { byId[localId] }

    func account(email: String) -> AuthAccount? { idByEmail[email].flatMap { byId[$0] } }

    mutating func insert(_ account: AuthAccount) {
        byId[account.localId] = account
        if let email = account.email { idByEmail[email] = account.localId }
    }

    mutating func update(_ localId: String, _ change: (inout AuthAccount) -> Void) {
        guard var account = byId[localId] else { return }
        if let email = account.email { idByEmail[email] = nil }
        change(&account)
        insert(account)
    }

    mutating func remove(_ localId: String) {
        guard let account = byId.removeValue(forKey: localId) else { return }
        if let email = account.email { idByEmail[email] = nil }
    }

    mutating func removeAll() {
        byId.removeAll()
        idByEmail.removeAll()
    }
}
