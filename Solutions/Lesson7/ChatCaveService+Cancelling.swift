// Lesson 7 — cancelling a request. LESSONS.md §7.6 explains it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ChatCaveService {
    /// EXERCISE 7.6 — Cancels the call that returned `id` (LESSONS.md §7.6): its task is cancelled (the server sees
    /// the request abandoned), and afterwards neither of its closures is ever called — not even with
    /// URLError.cancelled. Other calls in flight go on. An id that finished already, or is unknown: nothing happens.
    public func cancelRequest(_ id: RequestID) {
        // BEGIN SOLUTION
        lock.lock()
        let task = tasks.removeValue(forKey: id)
        lock.unlock()
        task?.cancel()
        // END SOLUTION
        // STUB: _ = NotImplemented("cancelRequest(_:)", section: "7.6")
    }
}
