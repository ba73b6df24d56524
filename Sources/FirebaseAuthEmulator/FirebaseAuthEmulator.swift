@_exported import EmulatorCore
import Foundation

/// Firebase Authentication's REST API in-process: give learner code `identityToolkitURL`/`secureTokenURL` (or
/// `baseURL`) and `session`, then assert on `requests` and `users`. Serve it on a port (`lab serve` uses 9099,
/// the Auth emulator's) with `EmulatorServer`.
public typealias FirebaseAuthEmulator = Emulator<FirebaseAuthService>

extension Emulator where Service == FirebaseAuthService {
    public convenience init(projectId: String = "demo-restlab", tokenLifetime: Int = 3600,
                            clock: @escaping () -> Date = { Date() }) {
        self.init(FirebaseAuthService(projectId: projectId, tokenLifetime: tokenLifetime, clock: clock))
    }

    /// `<base>/identitytoolkit.googleapis.com/v1/`: append `accounts:signUp?key=…` and the like.
    public var identityToolkitURL: URL { baseURL.appendingPathComponent("identitytoolkit.googleapis.com/v1/") }

    /// `<base>/securetoken.googleapis.com/v1/token`: the refresh endpoint (add `?key=…`).
    public var secureTokenURL: URL { baseURL.appendingPathComponent("securetoken.googleapis.com/v1/token") }

    /// Every user, oldest first.
    public var users: [AuthAccount] { withService { $0.users } }

    /// Seconds an ID token lives from now on (default 3600).
    public var tokenLifetime: Int {
        get { withService { $0.tokenLifetime } }
        set { withService { $0.tokenLifetime = max(1, newValue) } }
    }
}
