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
    public func injectedSessionSent<Service>(since requestsBefore: Int, on emulator: Emulator<Service>) -> Bool? {
        let deadline = Date(timeIntervalSinceNow: 0.3)
        while emulator.requests.count <= requestsBefore, Date() < deadline {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002))
        }
        guard let request = emulator.requests.dropFirst(requestsBefore).first,
              let tasks = emulator.session.tasks(within: 0.3),
              Date() < request.receivedAt.addingTimeInterval(emulator.latency - 0.1) else { return nil }
        return !tasks.isEmpty
    }

    /// The message for a request that reached the emulator through a session other than the injected one.
    public static func sentThroughAnotherSession(_ exercise: Exercise, _ request: RecordedRequest) -> String {
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
