// Signing in, and posting as the signed-in user, through the learner's Lesson 9 `ForumSession`.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Lesson9

/// One `ForumSession` for the board's whole run, as an app keeps one: it holds the credentials its `signIn` kept, and
/// every post goes through its `database("POST", …)`, which adds the ID token.
final class Lesson9Session {
    private let forum: ForumSession
    /// Who signed in, as the learner's `signIn` returned them: a post carries this uid, as the rules require.
    private(set) var user: BoardUser?

    init(baseURL: URL, auth: SignInEndpoints, session: URLSession) {
        forum = ForumSession(databaseURL: baseURL, identityToolkitURL: auth.identityToolkitURL,
                             secureTokenURL: auth.secureTokenURL, apiKey: auth.apiKey, session: session)
    }

    func signIn(email: String, password: String, timeout: TimeInterval,
                completion: @escaping (Result<BoardUser, BoardFailure>) -> Void) {
        let forum = self.forum
        LearnerCall.run(.signIn, timeout: timeout, async: {
            BoardUser(email: email, userID: try await forum.signIn(email: email, password: password).userID)
        }, completion: { [weak self] result in
            if case .success(let user) = result { self?.user = user }
            completion(result)
        })
    }

    /// POSTs the message to the thread's messages as the signed-in user: its `uid`, and the timestamp in the board's
    /// unit (whole seconds since 2001, Lesson 1's; whole, so that Lesson 10 reads it too).
    func post(text: String, sender: String, to thread: BoardThread, timeout: TimeInterval,
              completion: @escaping (Result<BoardMessage?, BoardFailure>) -> Void) {
        let forum = self.forum
        let seconds = Date().timeIntervalSinceReferenceDate.rounded(.down)
        let message = BoardMessage(text: text, sender: sender, timestamp: Date(timeIntervalSinceReferenceDate: seconds))
        let body = try? JSONSerialization.data(withJSONObject: [
            "sender": sender, "text": text, "timestamp": Int(seconds), "uid": user?.userID ?? "",
        ])
        LearnerCall.run(.signedInPost, timeout: timeout, async: {
            _ = try await forum.database("POST", "\(thread.identifier)/messages", body: body)
            return message
        }, completion: completion)
    }
}

/// Lesson 9's errors in the board's words: a refusal by status, and the others by their case, as the learner typed
/// them ("SignInError.wrongPassword"), so the board shows what their code said.
extension SignInError: LessonTypedError {
    var boardProblem: BoardFailure.Problem {
        switch self {
        case .permissionDenied: return .httpStatus(401, message: "Permission denied")
        case .status(let status, let text): return .httpStatus(status, message: text)
        case .transport(let error): return .transport(error.code)
        case .decoding(let reason): return .undecodable(reason)
        default: return .other("your code threw SignInError.\(self)")
        }
    }
}
