// The load generator of .ci/bench-server: compiled with the kit's own socket and test-client files into one
// program (no package needed), run against `lab serve` on 127.0.0.1. Prints requests/s and latency percentiles
// for small GETs and PUTs and for a query (the first 10 of 100 children by key) over keep-alive with 1, 16 and 64
// clients, and how long a write takes to reach 1 and 64 event-stream listeners.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = UInt16(arguments[1]) else {
    print("usage: bench-client <port> [seconds per run] [only: GET:16, PUT:64, SSE:64 …]")
    exit(2)
}
let seconds = arguments.count >= 3 ? Double(arguments[2]) ?? 3 : 3
/// One scenario only, for profiling: `PUT:16`, `QUERY:16`.
let only = arguments.count >= 4 ? arguments[3] : nil
func selected(_ kind: String, _ count: Int) -> Bool { only == nil || only == "\(kind):\(count)" }

@Sendable func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1e6
}

/// Runs `body` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}

/// Latencies (or arrival times) gathered from many threads.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var latencies: [UInt64] = []
    private(set) var errors = 0
    func add(_ values: [UInt64], errors: Int = 0) {
        lock.lock()
        latencies += values
        self.errors += errors
        lock.unlock()
    }
}

/// `clients` keep-alive connections each sending `method` requests back to back for `seconds`.
func load(_ method: String, clients: Int) {
    let results = Results()
    let start = now()
    let end = start + UInt64(seconds * 1e9)
    onThreads(clients) { client in
        guard let connection = LoopbackConnection(port: port) else {
            results.add([], errors: 1)
            return
        }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(100_000)
        var errors = 0
        var count = 0
        while now() < end {
            let sent = now()
            if method == "GET" {
                connection.send("GET", "/bench/small.json")
            } else if method == "QUERY" {
                connection.send("GET", queryTarget)
            } else {
                connection.send("PUT", "/bench/c\(client).json", body: Data("{\"n\":\(count)}".utf8))
            }
            guard let response = try? connection.readResponse(timeout: 5), response.status == 200 else {
                errors += 1
                break
            }
            latencies.append(now() - sent)
            count += 1
        }
        results.add(latencies, errors: errors)
    }
    let elapsed = Double(now() - start) / 1e9
    let sorted = results.latencies.sorted()
    let line = String(format: "%-4@ %3d clients  %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  (%d requests, %d errors)",
                      method as NSString, clients, Double(sorted.count) / elapsed, percentile(sorted, 0.5),
                      percentile(sorted, 0.99), sorted.count, results.errors)
    print(line)
}

/// `listeners` event streams at /fanout; each round one PUT, timed until every listener has its event.
func fanOut(listeners: Int, rounds: Int = 30) {
    var readers: [EventStreamReader] = []
    var connections: [LoopbackConnection] = []
    for _ in 0..<listeners {
        guard let connection = LoopbackConnection(port: port) else { print("fan-out: cannot connect"); return }
        connection.send("GET", "/fanout.json", headers: ["Accept": "text/event-stream"])
        guard (try? connection.readHead())?.status == 200 else { print("fan-out: stream refused"); return }
        let reader = EventStreamReader(connection)
        _ = try? reader.next()  // the snapshot
        connections.append(connection)
        readers.append(reader)
    }
    guard let writer = LoopbackConnection(port: port) else { return }
    var reachAll: [UInt64] = []
    var each: [UInt64] = []
    for round in 0..<rounds {
        let arrivals = Results()
        let ready = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for reader in readers {
            group.enter()
            Thread {
                ready.signal()
                let event = try? reader.next(timeout: 5)
                let arrived = now()
                if event != nil { arrivals.add([arrived]) }
                group.leave()
            }.start()
        }
        for _ in readers { ready.wait() }
        let sent = now()
        writer.send("PUT", "/fanout/value.json", body: Data("\(round)".utf8))
        _ = try? writer.readResponse()
        group.wait()
        let heard = arrivals.latencies
        guard heard.count == listeners else { print("fan-out: only \(heard.count) of \(listeners) listeners heard round \(round)"); return }
        reachAll.append(heard.max()! - sent)
        each += heard.map { $0 - sent }
    }
    reachAll.sort()
    each.sort()
    print(String(format: "SSE  %3d listeners  write reaches all: p50 %6.2f ms  max %6.2f ms  (each listener p50 %.2f ms, %d rounds)",
                 listeners, percentile(reachAll, 0.5), Double(reachAll.last!) / 1e6, percentile(each, 0.5), rounds))
    connections.forEach { $0.close() }
}

/// The query scenario: the first 10 of 100 children by key (`$key` needs no index, so any rules will do).
let queryTarget = "/bench/list.json?orderBy=%22$key%22&limitToFirst=10"

// Seed the small document the GETs read, and the list the queries read.
guard let setup = LoopbackConnection(port: port) else {
    print("cannot connect to 127.0.0.1:\(port)")
    exit(1)
}
setup.send("PUT", "/bench/small.json", body: Data("{\"title\":\"REST APIs\",\"n\":1}".utf8))
_ = try? setup.readResponse()
let list = (0..<100).map { "\"item\($0)\":{\"n\":\($0)}" }.joined(separator: ",")
setup.send("PUT", "/bench/list.json", body: Data("{\(list)}".utf8))
_ = try? setup.readResponse()
setup.close()

for method in ["GET", "PUT", "QUERY"] {
    for clients in [1, 16, 64] where selected(method, clients) { load(method, clients: clients) }
}
for listeners in [1, 64] where selected("SSE", listeners) { fanOut(listeners: listeners) }
