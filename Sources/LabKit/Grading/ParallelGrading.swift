import Foundation

/// Runs `count` jobs on `width` workers: learners on grading copies, or a run's test processes. Worker `w` only ever
/// runs on its own thread, so it can own a grading copy (a build folder cannot be shared by two builds at once). Jobs
/// start in order (a run starts its longest test processes first); results keep that order.
enum ParallelGrading {
    static func run<Row>(_ count: Int, width: Int, _ job: (_ index: Int, _ worker: Int) throws -> Row) throws -> [Row] {
        try withoutActuallyEscaping(job) { job in
            let shared = Shared<Row>(job: job)
            // Threads of our own: GCD's concurrentPerform would run no more workers than there are cores. They hold
            // `shared`, never `job` itself, and `job` is dropped from `shared` before this returns: a thread still
            // winding down (Foundation releases its block late) must not outlive `job`.
            defer { shared.dropJob() }
            let done = DispatchGroup()
            for worker in 0..<max(1, min(width, count)) {
                done.enter()
                Thread {
                    shared.work(as: worker, count: count)
                    done.leave()
                }.start()
            }
            done.wait()
            if let failure = shared.failure { throw failure }
            return (0..<count).compactMap { shared.rows[$0] }
        }
    }
}

/// The jobs' common state, touched under `lock` only.
private final class Shared<Row>: @unchecked Sendable {
    private let lock = NSLock()
    private var job: ((Int, Int) throws -> Row)?
    private var next = 0
    private(set) var rows: [Int: Row] = [:]
    private(set) var failure: Error?

    init(job: @escaping (Int, Int) throws -> Row) { self.job = job }

    /// Takes jobs until none is left or one failed.
    func work(as worker: Int, count: Int) {
        while let (index, job) = take(count: count) {
            let outcome = Result { try job(index, worker) }
            lock.lock()
            switch outcome {
            case .success(let row): rows[index] = row
            case .failure(let error): failure = failure ?? error
            }
            lock.unlock()
        }
    }

    private func take(count: Int) -> (Int, (Int, Int) throws -> Row)? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count, failure == nil, let job = job else { return nil }
        next += 1
        return (next - 1, job)
    }

    func dropJob() {
        lock.lock()
        job = nil
        lock.unlock()
    }
}
