import Foundation
import LabSupport

/// Runs one call into the learner's code so that no mistake in it can freeze or crash the board quietly:
/// - off the main queue, so an endless loop in it leaves the screen alive (and a hop to the main queue still runs);
/// - answered once: a second call of the completion (a missing `return`) is ignored;
/// - given up after `timeout`, when the completion never comes (a forgotten `resume()`, a path without `completion`);
/// - named to `CrashGuard` while it runs, so a crash in it is reported as the learner's, with the section.
enum LearnerCall {
    /// One queue for every call: the lessons' controllers are not thread-safe, so the calls into them take turns.
    static let queue = DispatchQueue(label: "board.learner-code")

    static func run<Value>(
        _ feature: BoardFeature, timeout: TimeInterval,
        body: @escaping (_ finish: @escaping (Result<Value, Error>) -> Void) -> Void,
        completion: @escaping (Result<Value, BoardFailure>) -> Void
    ) {
        let once = Once()
        let answer: (Result<Value, BoardFailure>) -> Void = { result in
            guard once.claim() else { return }
            CrashGuard.leaving(feature)
            completion(result)
        }
        queue.async {
            CrashGuard.entering(feature)
            body { result in
                answer(result.mapError { BoardFailure(feature, problem(for: $0, feature)) })
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            answer(.failure(BoardFailure(feature, .noAnswer(seconds: timeout))))
        }
    }

    /// `run` for a learner's `async throws` function (Lessons 9 and 10): its value, or the error it threw.
    static func run<Value>(
        _ feature: BoardFeature, timeout: TimeInterval,
        async call: @escaping () async throws -> Value,
        completion: @escaping (Result<Value, BoardFailure>) -> Void
    ) {
        run(feature, timeout: timeout, body: { finish in
            Task {
                do { finish(.success(try await call())) } catch { finish(.failure(error)) }
            }
        }, completion: completion)
    }

    /// The errors every lesson shares: the stub's `NotImplemented`, a lesson's own error type, a lesson's
    /// `HTTPStatusError`, URLSession's `URLError`, a `DecodingError`.
    static func problem(for error: Error, _ feature: BoardFeature) -> BoardFailure.Problem {
        switch error {
        case let stub as NotImplemented:
            return .notStarted(section: stub.section)
        case let typed as LessonTypedError:
            return typed.boardProblem
        case let refused as LessonStatusError:
            return .httpStatus(refused.statusCode, message: serverMessage(in: refused.body))
        case let urlError as URLError:
            return .transport(urlError.code)
        case let decoding as DecodingError:
            return .undecodable(describe(decoding))
        default:
            return .other(String(describing: error))
        }
    }

    /// Firebase's error body is `{"error": "Permission denied"}`: its text alone, else the body as it came.
    static func serverMessage(in body: String) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let text = (object?["error"] as? String) ?? body
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A `DecodingError` in a few words: the key or type, and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).filter { !$0.isEmpty }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context): return "no key \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "no \(type) value\(path(context))"
        case .dataCorrupted(let context): return "not JSON, or a bad value\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}

/// Each lesson module has its own `HTTPStatusError` type; each adapter file makes its lesson's one of these.
protocol LessonStatusError: Error {
    var statusCode: Int { get }
    var body: String { get }
}

/// A lesson's typed error (Lesson 9's `SignInError`, Lesson 10's `ThreadAPIError`), in the board's words: each
/// adapter file makes its lesson's one of these.
protocol LessonTypedError: Error {
    var boardProblem: BoardFailure.Problem { get }
}

/// True the first time only, from any thread.
private final class Once {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
