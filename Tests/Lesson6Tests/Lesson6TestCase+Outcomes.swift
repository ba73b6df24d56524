import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// The outcome a call should end with, and the words for every other outcome a learner's code produces.
enum WantedFailure {
    case status(Int)
    case transport(URLError.Code)
    case decoding

    var caseText: String {
        switch self {
        case .status(let code): return ".status(\(code))"
        case .transport(let code): return ".transport(URLError(\(code.rawValue)))"
        case .decoding: return ".decoding(DecodingError)"
        }
    }
}

extension Lesson6TestCase {
    /// A call's outcome in words: `success(Todo(id: 4, …))`, `.status(404)`, `URLError(-1009)`…
    static func describe(_ outcome: Result<Todo, Error>) -> String {
        switch outcome {
        case .success(let todo): return "success(\(todo))"
        case .failure(let error): return describe(error)
        }
    }

    static func describe(_ error: Error) -> String {
        guard let apiError = error as? TodoAPIError else { return "\(type(of: error)): \(oneLine(error))" }
        switch apiError {
        case .transport(let urlError): return ".transport(URLError(\(urlError.code.rawValue)))"
        case .status(let code): return ".status(\(code))"
        case .decoding(let decoding): return ".decoding(\(oneLine(decoding)))"
        case .encoding(let encoding): return ".encoding(\(oneLine(encoding)))"
        case .unexpected(let other): return ".unexpected(\(type(of: other)): \(oneLine(other)))"
        }
    }

    /// Stops the test unless the call succeeded with `expected` (compared field by field).
    func checkTodo(_ outcome: Result<Todo, Error>, is expected: Todo, from exercise: Exercise,
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let todo: Todo
        switch outcome {
        case .success(let value): todo = value
        case .failure(let error): throw fail(Self.failedWhereSuccess(error, exercise: exercise, traffic: TrafficReport(emulator)), file: file, line: line)
        }
        XCTAssertEqual(todo, expected, """
            \(exercise.function) gave \(todo); the server answered \(expected) (\(TrafficReport(emulator).summary)). \
            Hand back the todo decoded from the answer's body, unchanged. See \(exercise.reference).
            """, file: file, line: line)
    }

    /// The message for a call that failed although the server answered with a todo.
    static func failedWhereSuccess(_ error: Error, exercise: Exercise, traffic: TrafficReport) -> String {
        if let download = traffic.downloadTaskOnLinux(exercise, see: "LESSONS.md §6.4") { return download }
        let status = traffic.received.last?.response.statusCode
        if case .status(let code)? = error as? TodoAPIError, code == status, (200...299).contains(code) {
            return """
                The server answered \(code) with the todo (\(traffic.summary)), and \(exercise.function) reported \
                .status(\(code)) as a failure. Every status in 200...299 is a success — this server answers a POST \
                with 201 Created, others answer 200: check `(200...299).contains(statusCode)`, not one status. \
                See \(exercise.reference).
                """
        }
        if case .decoding(.typeMismatch(let type, let context))? = error as? TodoAPIError, context.codingPath.isEmpty,
           "\(type)".hasPrefix("Array") {
            return """
                The server answered \(traffic.summary) with one todo, a JSON object, and \(exercise.function) decoded it \
                as an array ([Todo]), which failed. An array is the collection's answer (GET /todos); one todo's answer is \
                the todo itself: decode `Todo.self`. See \(exercise.reference).
                """
        }
        if case .decoding(.keyNotFound(let key, let context))? = error as? TodoAPIError, context.codingPath.isEmpty,
           !["userId", "id", "title", "completed"].contains(key.stringValue) {
            return """
                The server answered \(traffic.summary) with the todo itself, and \(exercise.function) failed with \
                \(describe(error)): it decoded the answer as a wrapper around a todo and looked for the key \
                "\(key.stringValue)", which this API does not send. Some APIs wrap what they answer ({"data": …}); \
                json-server does not: decode `Todo.self` from the body as it is. See \(exercise.reference).
                """
        }
        return """
            The server answered \(traffic.summary), and \(exercise.function) failed with \(describe(error)). A 2xx \
            answer whose body is a todo is a success. See \(exercise.reference).
            """
    }

    /// Stops the test unless the call failed with `wanted`, naming the mistake from what it did instead.
    /// `answer`: what the server did, in words ("answered 404 with {}").
    func checkFailure(_ outcome: Result<Todo, Error>, is wanted: WantedFailure, after answer: String, of exercise: Exercise,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let function = exercise.function
        let error: Error
        switch outcome {
        case .success(let todo):
            var why = ""
            if case .status(let code) = wanted {
                why = (300...399).contains(code)
                    ? " Success is 200...299 and nothing else: a 3xx is not one (nor is any status that `statusCode < 400` or a range up to 300 lets through) — check `(200...299).contains(statusCode)` before decoding."
                    : " The status decides, whatever the body holds: check it before decoding (outside 200...299 is a failure), not only once decoding has failed."
            }
            throw fail("""
                The server \(answer), and \(function) reported success with \(todo). That is a failure: \
                report \(wanted.caseText).\(why) See LESSONS.md §6.3.
                """, file: file, line: line)
        case .failure(let failure):
            error = failure
        }
        guard let apiError = error as? TodoAPIError else {
            throw fail("""
                The server \(answer), and \(function) threw \(Self.describe(error)): it leaked a non-typed error. The async \
                version throws only TodoAPIError: catch URLSession's and JSONDecoder's errors and throw the matching case, \
                here \(wanted.caseText). See \(exercise.reference) and §6.3.
                """, file: file, line: line)
        }
        if let wrong = Self.mistake(apiError, wanted: wanted, answer: answer, function: function) {
            throw fail(wrong + " See \(exercise.reference) and §6.3.", file: file, line: line)
        }
    }

    /// Why `got` is the wrong case for `wanted`, or nil when it is the right one.
    static func mistake(_ got: TodoAPIError, wanted: WantedFailure, answer: String, function: String) -> String? {
        let head = "The server \(answer), and \(function) reported \(describe(got))."
        if case .unexpected(let inner) = got, inner is TodoAPIError {
            return """
                \(head) That is a TodoAPIError of your own, wrapped again in .unexpected — by a catch-all `catch`, or by \
                a `mapError` on a Result that already holds TodoAPIErrors — and the caller cannot switch over it. Pass \
                your own errors on as they are (`catch let error as TodoAPIError { throw error }` before the catch-all; \
                `continuation.resume(with: result)` unchanged), so that this is \(wanted.caseText).
                """
        }
        switch (wanted, got) {
        case (.status(let code), .status(let actual)):
            guard actual != code else { return nil }
            let guess = actual == 404
                ? " A .status(404) the server did not send is a guess: a fixed 404 for every refusal, or a `try?` that swallowed the real error and took nil to mean \"not found\" — keep each failure as it came."
                : ""
            return "\(head) Pass the response's statusCode as it is: .status(\(code)).\(guess)"
        case (.status(let code), .decoding):
            return """
                \(head) A \(code) answer's body is not a todo (this server sends `{}` or an error object), so decoding it \
                fails and hides the real cause. Check the status before decoding: outside 200...299 it is .status(\(code)).
                """
        case (.status(let code), .transport(let urlError)) where urlError.code == .unknown:
            return """
                \(head) But the server did answer, with \(code), and URLSession reported no error: that URLError(-1), \
                .unknown, is one your own code made — a catch-all `catch` that also caught your own .status(\(code)) and \
                turned it into .transport. Rethrow your own TodoAPIError as it is (`catch let error as TodoAPIError { throw error }` \
                before the catch-all), and keep .transport for a URLError URLSession gave: report .status(\(code)).
                """
        case (.status(let code), .transport):
            return "\(head) But the server did answer, with \(code): .transport is for no answer at all. Report .status(\(code))."
        case (.status(let code), _):
            return "\(head) A status outside 200...299 has its own case: .status(\(code))."
        case (.transport(let code), .transport(let urlError)):
            return urlError.code == code ? nil : "\(head) The request failed with URLError(\(code.rawValue)): pass the data task's `error` on as it is, inside .transport."
        case (.transport(let code), .status):
            return """
                \(head) No answer came at all (URLError(\(code.rawValue))), so there is no status to report: when the \
                data task's `error` is set, report .transport(error) and return — check `error` first.
                """
        case (.transport, .decoding):
            return "\(head) No answer came at all, yet the code went on to decode: check the data task's `error` first, and report .transport(error)."
        case (.transport, .unexpected(let inner)) where inner is URLError:
            return """
                \(head) A URLError is a transport failure: report .transport(urlError) (cast with `as? URLError`), not \
                .unexpected. If your code looked for it as an NSError (`as? NSError`, `is NSError`, `catch let error as \
                NSError` with NSURLErrorDomain): on Linux those casts never match a URLError — only Apple's platforms bridge \
                every Error to NSError — so test `as? URLError` (§6.3).
                """
        case (.transport, .unexpected):
            return "\(head) A URLError is a transport failure: report .transport(urlError) (cast with `as? URLError`), not .unexpected."
        case (.transport, _):
            return "\(head) No answer came at all: that is .transport(the URLError)."
        case (.decoding, .decoding):
            return nil
        case (.decoding, .status(404)) where answer.contains("`null`"):
            return """
                \(head) But the server answered 200, not 404. `null` is how Firebase says "nothing here" (Lessons 1–4); \
                this API says it with a 404 (§6.1), and a 2xx whose body is not a todo — `null` too — is a body that does \
                not decode: decode `Todo.self`, not `Todo?.self`, and report the decoder's error, .decoding(error).
                """
        case (.decoding, .status(let actual)) where (200...299).contains(actual):
            return """
                \(head) That status is a success; the body is what failed to decode — and that error was swallowed \
                (as `try?` does) and replaced by the status. Decode with `do { try … } catch` and report \
                .decoding(error): it says where the answer broke.
                """
        case (.decoding, .unexpected(let other)) where other is DecodingError:
            return "\(head) A DecodingError has its own case: .decoding(error)."
        case (.decoding, _):
            return "\(head) The answer came (2xx) but its body is not a todo: report the decoder's error, .decoding(error)."
        }
    }
}
