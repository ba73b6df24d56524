import Foundation
import FirebaseEmulator

extension LabTestCase {
    /// Stops the test unless the call succeeded (its completion got no error), saying what the emulator saw and why
    /// the call most likely failed.
    public func requireSuccess(_ error: Error?, of exercise: Exercise, on emulator: FirebaseEmulator,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let traffic = TrafficReport(emulator)
        if let wrongPlace = traffic.wrongPlace(exercise, baseURL: emulator.baseURL) {
            throw fail(wrongPlace, file: file, line: line)
        }
        guard let error = error else { return }
        var message = "\(exercise.function) passed an error to its completion: \(oneLine(error)). Requests: \(traffic.summary)."
        if let withoutSuffix = traffic.received.first(where: { !$0.hasJSONSuffix }) {
            message += " The URL \(withoutSuffix.url.absoluteString) lacks `.json`: Firebase's REST API answers only paths ending in .json (§1.2)."
        } else if let refused = traffic.received.first(where: { !(200...299).contains($0.response.statusCode) }) {
            message += " The emulator refused \(refused.method) \(refused.path).json with \(refused.response.statusCode): the request itself is wrong — the tests of its method, URL and body say how."
        } else if traffic.received.isEmpty {
            message += " No request reached the emulator: the error came from your own code."
        } else {
            message += " The emulator accepted every request, so completion should get nil."
        }
        throw fail(message + " See \(exercise.reference).", file: file, line: line)
    }

    /// The one request the exercise sent; stops the test when it sent none, several, or sent it to the wrong place.
    public func onlyRequest<Service>(from exercise: Exercise, on emulator: Emulator<Service>,
                            file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        let traffic = TrafficReport(emulator)
        if let wrongPlace = traffic.wrongPlace(exercise, baseURL: emulator.baseURL) {
            throw fail(wrongPlace, file: file, line: line)
        }
        guard traffic.received.count == 1, let request = traffic.received.first else {
            throw fail("""
                \(exercise.function) should send exactly one request; the emulator received \(traffic.received.count): \
                \(traffic.summary). See \(exercise.reference).
                """, file: file, line: line)
        }
        return request
    }

    /// The body of `request`; stops the test when it has none, saying exactly why when an upload task hid it.
    public func requireBody(of request: RecordedRequest, from exercise: Exercise,
                            file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        if let body = request.body, !body.isEmpty { return body }
        if request.uploadBodyHidden {
            throw fail("""
                \(exercise.function) sent its body with an upload task (\(request.summary)). That is correct REST, but on \
                this platform a URLProtocol — and so the kit's emulator — cannot see an upload task's body, so the tests \
                cannot check it. Put the body in `request.httpBody` and use `session.dataTask(with: request)`. \
                See LESSONS.md §0.5 and \(exercise.reference).
                """, file: file, line: line)
        }
        throw fail("""
            \(exercise.function)'s request has no body (\(request.summary)): the server gets nothing to store. \
            Encode the value with JSONEncoder and put the data in `request.httpBody` before the data task is made from \
            the request: URLRequest is a struct, so a task made earlier keeps the copy it was given, without the body. \
            See \(exercise.reference).
            """, file: file, line: line)
    }
}
