import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FirebaseEmulator

extension LabTestCase {
    /// Whether the injected session itself sent the request of a call just started. A session made from its
    /// configuration (`URLSession(configuration: session.configuration)`) reaches the same emulator — the emulator's
    /// protocol class is in that configuration — so only the injected session's own list of tasks, read while the
    /// emulator holds the answer back, tells the two apart. Call it right after starting the call, with the emulator's
    /// latency at 0.5 s or more. False when the session had no task while the request waited for its answer; nil when
    /// that could not be seen (no request within 0.3 s, or the list came too late on a busy machine): no verdict.
    func injectedSessionSent<Service>(since requestsBefore: Int, on emulator: Emulator<Service>) -> Bool? {
        let deadline = Date(timeIntervalSinceNow: 0.3)
        while emulator.requests.count <= requestsBefore, Date() < deadline {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002))
        }
        guard let request = emulator.requests.dropFirst(requestsBefore).first,
              let tasks = emulator.session.tasks(within: 0.3),
              Date() < request.receivedAt.addingTimeInterval(emulator.latency - 0.1) else { return nil }
        return !tasks.isEmpty
    }

    /// Calls `start` (the learner's call, handed its completion) with the emulator's answer held 0.5 s, and stops the
    /// test when its request reached the emulator through a session other than the injected one. Judged only on a
    /// call that succeeded: a task cancelled (the session invalidated, say) is no longer listed either.
    public func requireSentByTheInjectedSession<Service>(_ exercise: Exercise, on emulator: Emulator<Service>,
                                                         file: StaticString = #filePath, line: UInt = #line,
                                                         _ start: (@escaping (Error?) -> Void) -> Void) throws {
        emulator.latency = 0.5
        let before = emulator.requests.count
        let sentByIt = Box<Bool>()
        let error = try awaitCompletion(of: exercise, on: emulator, file: file, line: line) { (done: @escaping (Error?) -> Void) in
            start(done)
            if let sent = injectedSessionSent(since: before, on: emulator) { sentByIt.set(sent) }
        }
        let request = try onlyRequest(from: exercise, on: emulator, file: file, line: line)
        if sentByIt.get() == false, error == nil {
            throw fail(Self.sentThroughAnotherSession(exercise, request), file: file, line: line)
        }
    }

    /// The message for a request that reached the emulator through a session other than the injected one.
    static func sentThroughAnotherSession(_ exercise: Exercise, _ request: RecordedRequest) -> String {
        """
        \(exercise.function)'s request (\(request.summary)) reached the emulator, but not as a task of the injected \
        `session`: while it waited for its answer, `session` had no task at all. It went through another URLSession — \
        one made with `URLSession(configuration: session.configuration)`, say, which reaches the same server here but \
        is not the session you were given: it has none of that session's delegate or settings made after it, and one \
        made on every call and never invalidated is leaked. Send the request with the injected session itself: \
        `session.dataTask(with:)` (or `session.data(for:)`). See \(exercise.reference).
        """
    }
}
