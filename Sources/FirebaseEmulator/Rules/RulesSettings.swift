import Foundation

/// `/.settings/rules.json` [RULES: https://firebase.google.com/docs/database/rest/app-management]: GET answers the
/// rules in force as their JSON text; PUT replaces them, as firebase-tools loads a rules file into its emulator
/// (`PUT /.settings/rules.json?ns=<instance>` with `Authorization: Bearer owner`). Each `?ns=` database has its own.
///
/// Who may: only the admin. Firebase production asks for an admin credential (a Google access token of the
/// project) whatever the rules say, and Firebase's emulators take `owner` as that credential; so here
/// `Authorization: Bearer owner` (or `auth=owner`) may, and anyone else gets 401 `Permission denied`, with rules
/// or without: a learner's app never changes the rules it is checked against.
extension FirebaseService {
    /// What GET answers when no rules are loaded: the Firebase emulator's default open rules (firebase-tools:
    /// "The emulator will default to allowing all reads and writes"). The exact bytes are inferred.
    static let openRulesText = "{\n  \"rules\": {\n    \".read\": true,\n    \".write\": true\n  }\n}"

    /// The answer when `request` is for `/.settings/rules.json`; nil for every other request.
    mutating func rulesSettings(_ request: ServiceRequest) -> EmulatorResponse? {
        guard request.hasJSONSuffix, request.segments == [".settings", "rules"] else { return nil }
        guard RequestAuth.of(request, now: clock()) == .admin else {
            return .firebaseError(status: 401, message: ErrorText.permissionDenied)
        }
        switch request.method {
        case "GET":
            return .raw(status: 200, headers: EmulatorResponse.jsonHeaders, body: Data((rules?.text ?? Self.openRulesText).utf8))
        case "PUT":
            guard let text = String(data: request.body ?? Data(), encoding: .utf8) else {
                return .firebaseError(status: 400, message: ErrorText.invalidJSON)
            }
            do {
                try replaceRules(with: SecurityRules(json: text, file: "rules"))
            } catch {
                return .firebaseError(status: 400, message: "\(error)")  // the old rules stay
            }
            return .json(["status": "ok"])
        default:
            return .firebaseError(status: 405, message: ErrorText.methodNotAllowed(request.method))
        }
    }

    /// New rules (and their indexes) for this database; streams they no longer let read get `cancel`.
    mutating func replaceRules(with new: SecurityRules?) {
        rules = new
        indexes = new?.queryIndexes ?? QueryIndexes()
        cancelStreamsTheRulesNoLongerAllow()
    }
}
