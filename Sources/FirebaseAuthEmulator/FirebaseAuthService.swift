import Foundation

/// Firebase Authentication's REST API (Identity Toolkit and Secure Token) as the Firebase Auth emulator serves it
/// (firebase-tools src/emulator/auth): email-and-password sign-up and sign-in, anonymous sign-up, token refresh,
/// account lookup and deletion, with the emulator's unsigned ID tokens and its error bodies.
///
/// URLs have the emulator's shape, `<base>/identitytoolkit.googleapis.com/v1/accounts:signUp?key=…` and
/// `<base>/securetoken.googleapis.com/v1/token?key=…`, where the base is `http://127.0.0.1:9099` under `lab serve`
/// (the emulator's port) and `baseURL` in-process. Any non-empty API key is accepted, as the emulator accepts it.
public struct FirebaseAuthService: EmulatedService {
    /// `.invalid` never resolves: a request that escapes the session reaches no real server.
    public static let hostDomain = "identitytoolkit.invalid"
    /// What the emulator answers as `project_id` from a refresh (its fixed, obviously fake project number).
    static let projectNumber = "12345"

    /// The project: the ID tokens' `aud` and `iss` (`https://securetoken.google.com/<projectId>`).
    public var projectId: String
    /// Seconds an ID token lives (`expiresIn`, `exp - iat`): Firebase's is 3600; tests set a few seconds.
    public var tokenLifetime: Int
    /// The project setting "email enumeration protection": sign-in failures all answer INVALID_LOGIN_CREDENTIALS
    /// instead of EMAIL_NOT_FOUND / INVALID_PASSWORD. Off, as in the emulator's default project (new production
    /// projects have it on).
    public var improvedEmailPrivacy = false
    var accounts = AccountStore()
    let clock: () -> Date

    public init(projectId: String = "demo-restlab", tokenLifetime: Int = 3600, clock: @escaping () -> Date = { Date() }) {
        self.projectId = projectId
        self.tokenLifetime = tokenLifetime
        self.clock = clock
    }

    public var jsonHeaders: [String: String] { ["Content-Type": "application/json; charset=utf-8"] }

    /// Every user, oldest first.
    public var users: [AuthAccount] { accounts.all }

    public mutating func respond(to request: ServiceRequest) -> ServiceReply {
        .response(answer(request))
    }

    /// Google's error shape with `message` as the code (for injected faults).
    public func errorResponse(status: Int, message: String) -> EmulatorResponse {
        json(AuthError(code: status, status: nil, message: message, reason: "invalid").body, status: status, request: nil)
    }

    private mutating func answer(_ request: ServiceRequest) -> EmulatorResponse {
        if request.httpMethod == "OPTIONS" { return preflight(request) }
        do {
            if request.path == "/" && request.httpMethod == "GET" { return json(Self.readiness, request: request) }
            if request.httpMethod == "DELETE" && request.path == "/emulator/v1/projects/\(projectId)/accounts" {
                accounts.removeAll()
                return json(.object([]), request: request)
            }
            guard request.httpMethod == "POST", let operation = Operation(path: request.path) else { throw AuthError.notFound }
            let key = request.query["key"] ?? request.header("x-goog-api-key")
            guard let key = key, !key.isEmpty else { throw AuthError.missingAPIKey }
            let body = try AuthRequestBody(request.body)
            return json(try perform(operation, body), request: request)
        } catch let error as AuthError {
            return json(error.body, status: error.code, request: request)
        } catch {
            return json(AuthError(code: 500, status: "INTERNAL", message: "\(error)", reason: "internal").body, status: 500, request: request)
        }
    }

    private mutating func perform(_ operation: Operation, _ body: AuthRequestBody) throws -> OrderedJSON {
        switch operation {
        case .signUp: return try signUp(body)
        case .signInWithPassword: return try signInWithPassword(body)
        case .lookup: return try lookup(body)
        case .delete: return try deleteAccount(body)
        case .token: return try grantToken(body)
        }
    }

    private func json(_ value: OrderedJSON, status: Int = 200, request: ServiceRequest?) -> EmulatorResponse {
        var headers = jsonHeaders
        if let origin = request?.header("Origin") { headers["Access-Control-Allow-Origin"] = origin }  // cors({origin: true})
        return .raw(status: status, headers: headers, body: Data(value.text.utf8))
    }

    /// CORS preflight, as the emulator's `cors({ origin: true })` answers it: origin and headers reflected.
    private func preflight(_ request: ServiceRequest) -> EmulatorResponse {
        var headers = ["Access-Control-Allow-Origin": request.header("Origin") ?? "*",
                       "Access-Control-Allow-Methods": "GET,HEAD,PUT,PATCH,POST,DELETE"]
        if let asked = request.header("Access-Control-Request-Headers") { headers["Access-Control-Allow-Headers"] = asked }
        return .raw(status: 204, headers: headers, body: Data())
    }

    private static let readiness = OrderedJSON.fields([("authEmulator", .fields([
        ("ready", .value(true)), ("docs", .string("https://firebase.google.com/docs/emulator-suite")),
    ]))])

    /// The endpoints served, by path (also the legacy v3 paths old SDKs and tutorials use).
    enum Operation {
        case signUp, signInWithPassword, lookup, delete, token

        init?(path: String) {
            switch path {
            case "/identitytoolkit.googleapis.com/v1/accounts:signUp", "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser":
                self = .signUp
            case "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword":
                self = .signInWithPassword
            case "/identitytoolkit.googleapis.com/v1/accounts:lookup", "/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo":
                self = .lookup
            case "/identitytoolkit.googleapis.com/v1/accounts:delete", "/www.googleapis.com/identitytoolkit/v3/relyingparty/deleteAccount":
                self = .delete
            case "/securetoken.googleapis.com/v1/token":
                self = .token
            default:
                return nil
            }
        }
    }
}
