import Foundation
import Lesson7
import LabTestSupport

/// What one call of the learner's service ended with: its success closure's value, or its failure.
enum Outcome<Value> {
    case success(Value)
    case failure(ChatCaveError)

    /// "success with [Room(…)]" / "failure(.unauthorized)", for failure messages.
    var described: String {
        switch self {
        case .success(let value): return value is Void ? "success()" : "success with \(value)"
        case .failure(let error): return "failure(\(Outcome.describe(error)))"
        }
    }

    static func describe(_ error: ChatCaveError) -> String {
        switch error {
        case .transport(let underlying): return ".transport(\(oneLineError(underlying)))"
        case .unauthorized: return ".unauthorized"
        case .server(let status, let body): return ".server(statusCode: \(status), body: \(body.prefix(120).debugDescription))"
        case .decoding(let underlying): return ".decoding(\(oneLineError(underlying)))"
        }
    }

    private static func oneLineError(_ error: Error) -> String {
        if let urlError = error as? URLError { return "URLError(\(urlError.code.rawValue))" }
        if let decoding = error as? DecodingError { return briefly(decoding) }
        return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ").prefix(240).description
    }
}

/// Every call of one learner call's two closures, from whatever queue, and when each came.
final class CallLog<Value> {
    private let lock = NSLock()
    private var recorded: [(outcome: Outcome<Value>, at: Date)] = []

    func record(_ outcome: Outcome<Value>) {
        lock.lock()
        recorded.append((outcome, Date()))
        lock.unlock()
    }

    var calls: [(outcome: Outcome<Value>, at: Date)] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    var success: (Value) -> Void { { self.record(.success($0)) } }
    var failure: (ChatCaveError) -> Void { { self.record(.failure($0)) } }
}
