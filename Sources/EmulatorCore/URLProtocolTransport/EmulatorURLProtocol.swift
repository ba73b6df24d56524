import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves `Emulator.session` for every service: finds the emulator by the request's host and delivers its answer.
/// It never passes a request on to the network: an unknown host is recorded as stray and fails.
/// Delivery follows what works on Linux and Darwin alike (shared/networking-on-linux.md): response, ONE
/// `didLoad` with the whole body (Linux keeps only the last chunk), finish; never a redirect callback.
///
/// The client is called only while holding `lock`, which `stopLoading` takes too: a cancellation either comes first
/// (and nothing is delivered) or waits until the whole answer is (URLSession then drops its own late failure). Its
/// client calls only queue work, so holding the lock cannot deadlock; the lock is recursive in case a client calls
/// `stopLoading` back on the same thread. (Calling the client after or during `stopLoading` crashed
/// FoundationNetworking on Swift 6.0.)
public final class EmulatorURLProtocol: URLProtocol {
    private let lock = NSRecursiveLock()
    private var pendingDelivery: DispatchWorkItem?
    private var isDone = false
    /// The emulator and log entry of the answer not yet delivered, to mark it cancelled if the task is.
    private var answering: (emulator: RequestProcessing, number: Int)?

    /// Every http(s) request: the session is emulator-only, so nothing may fall through to the network.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
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
        guard let gate = processed.gate else { return deliver(response, after: processed.latency) }
        gate.whenOpen { [weak self] in self?.deliver(response, after: processed.latency) }
    }

    private func deliver(_ response: EmulatorResponse, after latency: TimeInterval) {
        guard latency > 0 else { return finish(with: response) }
        // An async delay rather than sleeping on the session's queue, so `task.cancel()` can stop it.
        let delivery = DispatchWorkItem { [weak self] in self?.finish(with: response) }
        lock.lock()
        pendingDelivery = delivery
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + latency, execute: delivery)
    }

    /// Called on cancel (URLSession then reports URLError.cancelled itself) and after finishing.
    override public func stopLoading() {
        lock.lock()
        let cancelled = isDone ? nil : answering
        isDone = true
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
