import Foundation
import FirebaseAuthEmulator
import FirebaseEmulator

/// `lab serve`'s second server: Firebase Auth's REST sign-in, on the Auth emulator's port (9099) beside the
/// database, so a learner's sign-in code and `auth=` tokens work against both.
extension ServeCommand {
    /// The Firebase Auth emulator's own port.
    static let authDefaultPort: UInt16 = 9099

    /// The database server and the Auth server, stopped together.
    struct Servers {
        let database: EmulatorServer
        let auth: EmulatorServer

        /// The database's port.
        var port: UInt16 { database.port }

        /// Stops both, then drops their request loggers: `lab`'s output closure must not outlive `run` (a server's
        /// last thread can still hold the server an instant after `stop()` returns).
        func stop() {
            auth.stop()
            database.stop()
            auth.onRequest = nil
            database.onRequest = nil
        }
    }

    static func startAuth(port: UInt16, log: ((ServedRequest) -> Void)?) throws -> EmulatorServer {
        let emulator = FirebaseAuthEmulator()
        emulator.keepsLatestRequests = 1000
        emulator.keepsLatestRequestBytes = 64 << 20
        let server = EmulatorServer(serving: emulator, port: port)
        server.onRequest = log
        do {
            try server.start()
        } catch EmulatorServer.StartError.portInUse(let port) {
            throw EmulatorServer.StartError.cannotListen(
                "port \(port) (sign-in) is already in use (another `lab serve`, or Firebase's own Auth emulator?); pick another with --auth-port")
        }
        return server
    }

    static func authBanner(port: UInt16) -> String {
        let url = "http://127.0.0.1:\(port)"
        return """
            Sign-in (Firebase Auth emulator's REST API) on \(url)/  (any API key; ID tokens last 3600 s)
              sign up:   curl -H 'Content-Type: application/json' -d '{"email":"ada@example.com","password":"secret1","returnSecureToken":true}' '\(url)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any'
              sign in:   the same body to '\(url)/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any'
              refresh:   curl -d 'grant_type=refresh_token&refresh_token=<refreshToken>' '\(url)/securetoken.googleapis.com/v1/token?key=any'
              use it:    add ?auth=<idToken> to database URLs (checked against the rules given with --rules)
            """
    }
}

/// `lab serve --rules`: the security rules, loaded before the server starts so a bad rule stops it with its line.
extension ServeCommand {
    static func rules(for options: Options) throws -> SecurityRules? {
        guard let path = options.rules else { return nil }
        do {
            return try SecurityRules(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("--rules: \(error)")
        }
    }

    static func rulesBanner(_ options: Options) -> String {
        guard let path = options.rules else {
            return "Rules:     none: every request is allowed and auth= is ignored (--rules database.rules.json to check them)"
        }
        // The curl lines above it carry no auth=: under rules such as Lesson 9's they are refused, which must not
        // look like a broken server to a learner who tries them first.
        return """
            Rules:     \(path): requests need what they allow; a denied one gets 401 Permission denied
                       (the curl lines above send no auth=, so these rules may refuse them: sign in below, add ?auth=<idToken>)
            """
    }
}
