import Foundation

/// What a crashed test process's own report says, read from its output: Swift's runtime prints
/// `*** Program crashed: <reason> ***` and the crashed thread's frames, each with its function and
/// `at <file>:<line>` (Linux, Swift 5.9 and later). It finds the learner's frame — the first in `Exercises/` — and an
/// endless recursion, which shows as the same frame over and over; nil when the output holds no such report.
struct CrashReport: Equatable {
    /// "Bad pointer dereference at 0x…", "Fatal error: Unexpectedly found nil…".
    var reason: String
    /// The learner's frame: its function, and where it is ("Exercises/Lesson5/X.swift:37").
    var function: String?
    var place: String?
    /// Whether the crashed thread repeats that frame: a function that calls itself until the stack runs out.
    var isRecursion = false
    /// The collection (or the runtime's check of its storage) the learner's code was changing when memory broke
    /// (`Dictionary.removeValue(forKey:)`): safe Swift breaks that way only when two threads change it at once.
    var collection: String?
    /// Whether the crashed thread was in libdispatch's check of a `sync` onto the serial queue it was already
    /// running on: a wait for itself that would never end, which libdispatch stops with a trap.
    var isSyncOnItsOwnQueue = false
    /// Whether the crashed thread was in the runtime's check of an isolation the code only assumed
    /// (`MainActor.assumeIsolated`, `dispatchPrecondition(condition: .onQueue(…))`) while running elsewhere — in a data
    /// task's handler, on the session's queue, say: the check stops the program, it does not hop.
    var isIsolationAssumption = false

    /// What Swift's runtime prints before it stops a program on purpose: a fatalError or a failed runtime check
    /// ("Fatal error: …"), and a failed `assert` or `precondition`, with the code's own message.
    static let stopMarkers = ["Fatal error: ", "Assertion failed", "Precondition failed"]

    /// What Swift's runtime prints when a forced cast (`as!`) fails.
    static let castFailure = "Could not cast value of type"

    /// Whether the program was stopped on purpose (`stopMarkers`), not by a memory fault.
    var isDeliberateStop: Bool { Self.stopMarkers.contains { reason.hasPrefix($0) } }

    init(reason: String, function: String? = nil, place: String? = nil, isRecursion: Bool = false) {
        self.reason = reason
        self.function = function
        self.place = place
        self.isRecursion = isRecursion
    }

    init?(output: String) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.lastIndex(where: { $0.hasPrefix("*** Program crashed: ") }) else { return nil }
        reason = String(lines[start].dropFirst("*** Program crashed: ".count).dropLast(4))
        if let stop = lines[..<start].last(where: { line in Self.stopMarkers.contains { line.contains($0) } }),
           let range = Self.stopMarkers.lazy.compactMap({ stop.range(of: $0) }).first {
            reason = String(stop[range.lowerBound...])
        }
        // A failed forced cast (`as!`) says what it could not cast just before the report: keep that as the reason,
        // without the types' addresses.
        if let cast = lines[..<start].last(where: { $0.contains(Self.castFailure) }), let range = cast.range(of: Self.castFailure) {
            reason = String(cast[range.lowerBound...]).replacingOccurrences(of: #" \(0x[0-9a-fA-F]+\)"#, with: "", options: .regularExpression)
        }
        // Every thread's frames, from "Thread N …:" to the next thread; the crashed one says "crashed:".
        var threads: [(crashed: Bool, frames: [(function: String, place: String)])] = []
        for line in lines[start...] {
            if line.hasPrefix("Registers:") { break }
            if line.hasPrefix("Thread ") { threads.append((line.hasSuffix("crashed:"), [])); continue }
            if !threads.isEmpty, let frame = Self.frame(String(line)) { threads[threads.count - 1].frames.append(frame) }
        }
        let crashedFrames = threads.first(where: \.crashed)?.frames
        isSyncOnItsOwnQueue = crashedFrames?.first?.function == "__DISPATCH_WAIT_FOR_QUEUE__"
        isIsolationAssumption = crashedFrames?.contains { frame in
            ["swift_task_isCurrentExecutor", "_swift_task_checkIsolated", "dispatch_assert_queue", "_dispatch_assert_queue_fail"]
                .contains { frame.function.hasPrefix($0) }
        } ?? false
        guard let frames = crashedFrames,
              let mine = frames.firstIndex(where: { $0.place.hasPrefix("Exercises/") }) else { return }
        function = frames[mine].function
        place = frames[mine].place
        if !isDeliberateStop, !isIsolationAssumption, !reason.hasPrefix(Self.castFailure) {
            // In the collection's code, or in the runtime's reference counting while another thread is in a
            // collection's code for the learner: either way, one changed from two threads.
            let inCollection = { (frames: [(function: String, place: String)]) -> String? in
                guard let learner = frames.firstIndex(where: { $0.place.hasPrefix("Exercises/") }) else { return nil }
                return frames[..<learner].last { frame in ["Dictionary", "Array", "Set."].contains { frame.function.contains($0) } }?.function
            }
            collection = inCollection(frames)
            // Safe Swift breaks memory there only when two threads change one value at once (an inlined
            // Dictionary or Array change checks its storage with swift_isUniquelyReferenced…).
            if collection == nil, let runtime = frames[..<mine].last(where: { $0.function.hasPrefix("swift_") }) {
                collection = threads.lazy.filter { !$0.crashed }.compactMap { inCollection($0.frames) }.first ?? runtime.function
            }
        }
        let repeated = frames.filter { $0.function == frames[mine].function && $0.place.hasPrefix("Exercises/") }
        // The runtime prints the top and the bottom of a deep stack only ("..." between them): a recursion through a
        // library (encode(to:) → JSONEncoder → encode(to:)) shows the learner's frame only every eight frames or so.
        var depth = 0, inCrashedThread = false
        for line in lines[start...] {
            if line.hasPrefix("Registers:") { break }
            if line.hasPrefix("Thread ") { inCrashedThread = line.hasSuffix("crashed:"); continue }
            if inCrashedThread, Self.frame(String(line)) != nil, let number = line.split(separator: " ").first.flatMap({ Int($0) }) {
                depth = max(depth, number)
            }
        }
        isRecursion = repeated.count >= 8 || (repeated.count >= 3 && depth >= 1_000)
        if isRecursion {  // the call that recurses, not the function's first line where the stack ran out
            let counts = Dictionary(grouping: repeated.map(\.place)) { $0 }.mapValues(\.count)
            place = counts.max { $0.value < $1.value }?.key ?? place
        }
    }

    /// "== infix(_:_:)", "Exercises/Lesson5/X.swift:37" from a frame line
    /// `  1 [ra]  0x… == infix(_:_:) + 36 in Binary at /path/Exercises/Lesson5/X.swift:37:16`; a frame of a library
    /// without its sources (`0x… swift_release in libswiftCore.so`) has no place.
    static func frame(_ line: String) -> (function: String, place: String)? {
        guard let address = line.range(of: #"0x[0-9a-f]+ "#, options: .regularExpression),
              let end = line.range(of: " + ", range: address.upperBound..<line.endIndex)
                ?? line.range(of: " in ", range: address.upperBound..<line.endIndex) else { return nil }
        let function = String(line[address.upperBound..<end.lowerBound])
        guard let at = line.range(of: " at ", options: .backwards, range: end.upperBound..<line.endIndex) else { return (function, "") }
        var place = String(line[at.upperBound...])
        if let exercises = place.range(of: "/Exercises/") { place = String(place[place.index(after: exercises.lowerBound)...]) }
        let parts = place.split(separator: ":")
        if parts.count >= 2, parts[0].hasSuffix(".swift") { place = "\(parts[0]):\(parts[1])" }
        return (function, place)
    }

    /// " in your code, in `f` at Exercises/…:12" when the crash is placed in the learner's code; "" otherwise.
    private var whereText: String {
        function.flatMap { function in place.map { " in your code, in `\(function)` at \($0)" } } ?? ""
    }

    /// What the test's failure says about it, after "the test crashed".
    var explanation: String {
        if isRecursion, let function = function, let place = place, function.hasSuffix("encode(to:)") || function.hasSuffix("init(from:)") {
            return ": `\(function)` (\(place)) calls itself, again and again, until the stack runs out — through the coder: encoding `self` (or decoding its own type) inside its own encode(to:) or init(from:) hands the value back to the coder, which calls the same function again. Encode (or decode) each property through a keyed container instead."
        }
        if isRecursion, let function = function, let place = place {
            return ": `\(function)` (\(place)) calls itself, again and again, until the stack runs out — an operator or method that calls itself where it should compare or compute the values?"
        }
        if let collection = collection, let function = function, let place = place {
            return " in `\(collection)`, called by your `\(function)` at \(place): memory breaks like this in Swift only when two threads change one value (a Dictionary, an Array) at once, or one reads it while another changes it — guard every read and write of the shared state with a lock (or a serial queue)."
        }
        let reasonText = isDeliberateStop ? " (\(reason))" : ""
        if reason.contains("CONTINUATION MISUSE"), function != nil, place != nil {
            return "\(whereText)\(reasonText): a continuation must be resumed exactly once on every path — `return` after each `resume(…)`, or resume once with a `Result`."
        }
        if isIsolationAssumption {
            return "\(whereText): `MainActor.assumeIsolated` (or a `dispatchPrecondition`) ran on a thread that is not the main one, and the runtime stops the program — it checks the assumption, it does not make it true. A data task's handler runs on the session's own queue, not the main queue: hop there first (`DispatchQueue.main.async { … }`, or `Task { @MainActor in … }`) and do the work inside."
        }
        if isSyncOnItsOwnQueue {
            return "\(whereText): `sync` onto a serial queue from work already running on that queue — it would wait for itself forever, so libdispatch stops the program. Often a closure called inside `queue.sync { }` calls back into your code (an app's callback that calls your stop(), say): take what you need inside `sync`, and call the closures after it. `DispatchQueue.main.sync` called on the main thread is the same wait — tests, like an app's screens, run there: read the value directly, or guard it with a lock or a private serial queue of its own."
        }
        if reason.contains("Top-level object was not NSArray or NSDictionary") {
            return "\(whereText)\(reasonText): JSONSerialization.data(withJSONObject:) writes an array or a dictionary, and stops the program for anything else at the top — a bare number or string — unless given `options: .fragmentsAllowed` (`try?` does not catch it). Encode a bare value with JSONEncoder, or send its text: Data(String(count).utf8)."
        }
        if reason.hasPrefix(Self.castFailure) {
            return "\(whereText) (\(reason)): a forced cast (`as!`) met a value of another type, and Swift stops the program — a cast does not throw. Cast with `as?` and handle what does not match: an error of another type is still an error to report, as its own case."
        }
        if reason.contains("Session invalidated") {
            return "\(whereText)\(reasonText): a task was made on a URLSession that had been invalidated — by `finishTasksAndInvalidate()` or `invalidateAndCancel()` — and Foundation stops the program then. Do not invalidate the session you were given: it is not yours to end, and every later request through it crashes."
        }
        if function != nil, place != nil, !reason.hasPrefix("Fatal error") && isDeliberateStop {
            return "\(whereText)\(reasonText): an `assert` or `precondition` of yours stopped the program — the test gave your code a value it refuses. Check what the exercise says it must accept, and keep the check (if any) for the screens."
        }
        if function != nil, place != nil {
            return "\(whereText)\(reasonText): often a force unwrap (!) of nil, an index out of range, or a fatalError."
        }
        return "\(reasonText): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError."
    }
}
