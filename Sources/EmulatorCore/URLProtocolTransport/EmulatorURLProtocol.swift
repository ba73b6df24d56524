import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves `Emulator.session` for every service: finds the emulator by the request's host and delivers its answer.
/// It never passes a request on to the network: an unknown host is recorded as stray and fails.
/// Delivery follows what works on Linux and Darwin alike (shared/networking-on-linux.md): response, ONE
/// `didLoad` with the whole body (Linux keeps only the last chunk), finish; never a redirect callback.
///
/// When the client is called matters. swift-corelibs-foundation calls `startLoading` on the task's own queue and
/// reads the session's task registry, unguarded, in every client call: a client call from another thread races the
/// session's own work (with many tasks at once it crashed in `URLSession.behaviour(for:)`, and on Swift 6.0 once in
/// six runs of the cancelling tests). So on Linux an answer that must wait — a latency, a held response — is
/// delivered by suspending and resuming the task, which has corelibs call `startLoading` again on that queue, where
/// the answer then goes out. A cancellation either comes first (nothing is delivered) or after the whole answer;
/// `lock`, which `stopLoading` takes too, keeps the two apart. (On Darwin the client may be called from any thread.)
public final class EmulatorURLProtocol: URLProtocol {
    private let lock = NSRecursiveLock()
    private var pendingDelivery: DispatchWorkItem?
    private var isDone = false
    /// The emulator and log entry of the answer not yet delivered, to mark it cancelled if the task is.
    private var answering: (emulator: RequestProcessing, number: Int)?
    /// An answer whose time has come, waiting for `startLoading` to be called again on the task's queue.
    private var ready: EmulatorResponse?

    /// Every http(s) request: the session is emulator-only, so nothing may fall through to the network.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
        lock.lock()
        let due = ready
        ready = nil
        lock.unlock()
        if let due = due { return finish(with: due) }  // called again, on the task's queue, to deliver

        let incoming = ServiceRequest(request, task: task)
        guard let emulator = HostRegistry.shared.emulator(forHost: request.url?.host) else {
            let error = URLError(.cannotFindHost, userInfo: [NSURLErrorFailingURLErrorKey: incoming.url])
            HostRegistry.shared.recordStray(RecordedRequest(incoming, response: EmulatorResponse(statusCode: 0, transportError: error)))
            finish(with: EmulatorResponse(statusCode: 0, transportError: error))
            return
        }
        let processed = emulator.process(incoming, over: .inProcess)
        let response = processed.reply.logged  // the core turns a stream into a refusal for this transport
        lock.lock()
        let cancelledMeanwhile = isDone
        if !cancelledMeanwhile { answering = (emulator, processed.number) }
        lock.unlock()
        if cancelledMeanwhile { return emulator.noteCancelled(processed.number) }
        guard let gate = processed.gate else {
            return processed.latency > 0 ? deliver(response, after: processed.latency) : finish(with: response)
        }
        gate.whenOpen { [weak self] in self?.deliver(response, after: processed.latency) }
    }

    /// Delivers `response` after `latency`, from the task's queue where the platform needs it (see above).
    private func deliver(_ response: EmulatorResponse, after latency: TimeInterval) {
        // An async delay rather than sleeping on the session's queue, so `task.cancel()` can stop it.
        let delivery = DispatchWorkItem { [weak self] in self?.deliverOnTheTasksQueue(response) }
        lock.lock()
        pendingDelivery = delivery
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + max(latency, 0), execute: delivery)
    }

    private func deliverOnTheTasksQueue(_ response: EmulatorResponse) {
        #if canImport(FoundationNetworking)
        lock.lock()
        guard !isDone, let task = task else { return lock.unlock() }
        ready = response
        lock.unlock()
        task.suspend()  // corelibs: stopLoading on the task's queue (ignored below while `ready`)…
        task.resume()   // …then startLoading there, which delivers `ready`
        #else
        finish(with: response)
        #endif
    }

    /// Called on cancel (URLSession then reports URLError.cancelled itself), after finishing, and — on Linux — when
    /// the task is suspended to deliver a waiting answer, which is not a cancellation.
    override public func stopLoading() {
        lock.lock()
        if ready != nil, task?.state != .canceling { return lock.unlock() }
        let cancelled = isDone ? nil : answering
        isDone = true
        ready = nil
        pendingDelivery?.cancel()
        pendingDelivery = nil
        answering = nil
        lock.unlock()
        if let (emulator, number) = cancelled { emulator.noteCancelled(number) }
    }

    private func finish(with response: EmulatorResponse) {
        lock.lock()
        defer { lock.unlock() }
        let alreadyDone = isDone
        isDone = true
        pendingDelivery = nil
        answering = nil
        guard !alreadyDone, let client = client else { return }

        if let error = response.transportError {
            client.urlProtocol(self, didFailWithError: error)
            return
        }
        guard let url = request.url,
            let httpResponse = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: response.headers)
        else {
            client.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client.urlProtocol(self, didReceive: httpResponse, cacheStoragePolicy: .notAllowed)
        if !response.body.isEmpty { client.urlProtocol(self, didLoad: response.body) }
        client.urlProtocolDidFinishLoading(self)
    }
}
