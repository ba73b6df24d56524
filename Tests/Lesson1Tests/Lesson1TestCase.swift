import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson1

/// Lesson 1's tests share this: an emulator loaded with the course's sample database, and a controller pointed at it.
class Lesson1TestCase: LabTestCase {
    static let createThread = Exercise("createMessageThread(title:completion:)", section: "1.3")
    static let createMessage = Exercise("createMessage(messageThread:text:sender:completion:)", section: "1.4")
    /// The thread in Fixtures/databases/message-board-sample.json.
    static let sampleThreadID = "695398C4-498C-40A8-AA76-CB2B20DFD9FA"
    static let sampleMessageID = "-LJNQ2zNeL4bwG1qpwYB"

    var emulator: FirebaseEmulator!
    var controller: MessageThreadController!

    override func setUpWithError() throws {
        try super.setUpWithError()
        emulator = FirebaseEmulator(database: try Fixtures.database("message-board-sample"))
        controller = MessageThreadController(baseURL: emulator.baseURL, session: emulator.session)
    }

    override func tearDown() {
        emulator?.invalidate()
        super.tearDown()
    }

    // MARK: Calling the learner's functions

    func createThread(title: String = "PUT vs POST", file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        try awaitCompletion(of: Self.createThread, on: emulator, file: file, line: line) { done in
            controller.createMessageThread(title: title, completion: done)
        }
    }

    /// The sample thread as the app knows it locally (no messages loaded).
    func sampleThread() -> MessageThread {
        MessageThread(title: "REST APIs", identifier: Self.sampleThreadID)
    }

    func createMessage(in thread: MessageThread, text: String = "PUT puts, POST appends", sender: String = "Ada",
                       file: StaticString = #filePath, line: UInt = #line) throws -> Error? {
        try awaitCompletion(of: Self.createMessage, on: emulator, file: file, line: line) { done in
            controller.createMessage(messageThread: thread, text: text, sender: sender, completion: done)
        }
    }

    // MARK: Checking what happened

    /// Stops the test unless the call succeeded, saying what the emulator saw.
    func requireSuccess(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        let traffic = TrafficReport(emulator)
        if let wrongPlace = traffic.wrongPlace(exercise, baseURL: emulator.baseURL) {
            throw fail(wrongPlace, file: file, line: line)
        }
        guard let error = error else { return }
        var message = "\(exercise.function) passed an error to its completion: \(error). Requests: \(traffic.summary)."
        if let missingSuffix = traffic.received.first(where: { !$0.hasJSONSuffix }) {
            message += " The URL \(missingSuffix.url.absoluteString) lacks `.json`: Firebase's REST API answers only paths ending in .json (§1.2)."
        } else {
            message += " The emulator accepted the request, so expected nil."
        }
        throw fail(message + " See \(exercise.reference).", file: file, line: line)
    }

    /// The one request the exercise sent; stops the test when it sent none, several, or sent it to the wrong place.
    func onlyRequest(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
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

    /// Sends `recorded` to the emulator once more, as if the app had retried it.
    func replay(_ recorded: RecordedRequest) {
        var request = URLRequest(url: recorded.url)
        request.httpMethod = recorded.httpMethod
        request.httpBody = recorded.body
        recorded.headers.forEach { request.setValue($0.value, forHTTPHeaderField: $0.key) }
        _ = emulator.handle(request)
    }
}
