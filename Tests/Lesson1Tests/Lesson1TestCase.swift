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

    func requireSuccess(_ error: Error?, of exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws {
        try requireSuccess(error, of: exercise, on: emulator, file: file, line: line)
    }

    func onlyRequest(from exercise: Exercise, file: StaticString = #filePath, line: UInt = #line) throws -> RecordedRequest {
        try onlyRequest(from: exercise, on: emulator, file: file, line: line)
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
