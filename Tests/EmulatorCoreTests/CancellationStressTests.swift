import XCTest
import EmulatorCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLProtocol never calls its client after `stopLoading`, nor twice, whatever the timing: hundreds of delayed
/// requests, each cancelled at a moment of its own around its answer's delivery. (On Swift 6.0.3 one run in six
/// died with signal 11 in FoundationNetworking when a delayed answer met a cancellation.)
final class CancellationStressTests: XCTestCase {
    func test_cancellingDelayedRequestsAroundTheirDelivery_endsEachOnce_withoutCrashing() {
        let emulator = Emulator(CounterService())
        emulator.latency = 0.005
        final class Endings: @unchecked Sendable {
            let lock = NSLock()
            var byTask: [Int: [String]] = [:]
            func add(_ ending: String, to index: Int) { lock.lock(); byTask[index, default: []].append(ending); lock.unlock() }
        }
        let endings = Endings()
        let count = 2000
        let done = expectation(description: "every task ended")
        done.expectedFulfillmentCount = count
        for index in 0..<count {
            let task = emulator.session.dataTask(with: emulator.baseURL.appendingPathComponent("counter")) { _, response, error in
                let ending = (error as? URLError)?.code == .cancelled ? "cancelled"
                    : error.map { "error \($0)" } ?? "status \((response as? HTTPURLResponse)?.statusCode ?? 0)"
                endings.add(ending, to: index)
                done.fulfill()
            }
            task.resume()
            // Cancel from another thread, from before the answer is due to just after it (0-10 ms).
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds((index * 37) % 10_000)) { task.cancel() }
        }
        wait(for: [done], timeout: 10)  // 2,000 tasks end in half a second here
        endings.lock.lock()
        defer { endings.lock.unlock() }
        let twice = endings.byTask.filter { $0.value.count > 1 }
        XCTAssertTrue(twice.isEmpty, "\(twice.count) tasks ended more than once, e.g. \(twice.first.map { "\($0.value)" } ?? "")")
        let odd = endings.byTask.values.flatMap { $0 }.filter { $0 != "cancelled" && $0 != "status 200" }
        XCTAssertTrue(odd.isEmpty, "tasks ended neither cancelled nor answered: \(odd.prefix(3))")
    }
}
