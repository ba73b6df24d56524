import Foundation

/// Runs `count` jobs on `width` workers; worker `w` only ever runs on its own thread, so it can own a grading copy
/// (a build folder cannot be shared by two builds at once). Jobs are taken in order; results keep that order.
enum ParallelGrading {
    static func run<Row>(_ count: Int, width: Int, _ job: (_ index: Int, _ worker: Int) throws -> Row) throws -> [Row] {
        let shared = Shared<Row>()
        try withoutActuallyEscaping(job) { job in
            // Threads of our own: GCD's concurrentPerform would run no more workers than there are cores.
            let done = DispatchGroup()
            for worker in 0..<max(1, min(width, count)) {
                done.enter()
                Thread {
                    defer { done.leave() }
                    while true {
                        shared.lock.lock()
                        let index = shared.next
                        shared.next += 1
                        let stop = index >= count || shared.failure != nil
                        shared.lock.unlock()
                        if stop { return }
                        let outcome = Result { try job(index, worker) }
                        shared.lock.lock()
                        switch outcome {
                        case .success(let row): shared.rows[index] = row
                        case .failure(let error): shared.failure = shared.failure ?? error
                        }
                        shared.lock.unlock()
                    }
                }.start()
            }
            done.wait()
            if let failure = shared.failure { throw failure }
        }
        return (0..<count).compactMap { shared.rows[$0] }
    }
}

/// The jobs' common state, touched under `lock` only.
private final class Shared<Row>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var rows: [Int: Row] = [:]
    var failure: Error?
}
