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
        if let fatal = lines[..<start].last(where: { $0.contains("Fatal error: ") }),
           let range = fatal.range(of: "Fatal error: ") {
            reason = String(fatal[range.lowerBound...])
        }
        // The crashed thread's frames: from "Thread N … crashed:" to the next thread.
        guard let thread = lines[start...].firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) else { return }
        var frames: [(function: String, place: String)] = []
        for line in lines[(thread + 1)...] {
            if line.hasPrefix("Thread ") || line.hasPrefix("Registers:") { break }
            if let frame = Self.frame(String(line)) { frames.append(frame) }
        }
        guard let mine = frames.firstIndex(where: { $0.place.hasPrefix("Exercises/") }) else { return }
        function = frames[mine].function
        place = frames[mine].place
        let repeated = frames.filter { $0.function == frames[mine].function && $0.place.hasPrefix("Exercises/") }
        isRecursion = repeated.count >= 8
        if isRecursion {  // the call that recurses, not the function's first line where the stack ran out
            let counts = Dictionary(grouping: repeated.map(\.place)) { $0 }.mapValues(\.count)
            place = counts.max { $0.value < $1.value }?.key ?? place
        }
    }

    /// "== infix(_:_:)", "Exercises/Lesson5/X.swift:37" from a frame line
    /// `  1 [ra]  0x… == infix(_:_:) + 36 in Binary at /path/Exercises/Lesson5/X.swift:37:16`.
    static func frame(_ line: String) -> (function: String, place: String)? {
        guard let address = line.range(of: #"0x[0-9a-f]+ "#, options: .regularExpression),
              let plus = line.range(of: " + ", range: address.upperBound..<line.endIndex),
              let at = line.range(of: " at ", options: .backwards) else { return nil }
        let function = String(line[address.upperBound..<plus.lowerBound])
        var place = String(line[at.upperBound...])
        if let exercises = place.range(of: "/Exercises/") { place = String(place[place.index(after: exercises.lowerBound)...]) }
        let parts = place.split(separator: ":")
        if parts.count >= 2, parts[0].hasSuffix(".swift") { place = "\(parts[0]):\(parts[1])" }
        return (function, place)
    }

    /// What the test's failure says about it, after "the test crashed".
    var explanation: String {
        if isRecursion, let function = function, let place = place {
            return ": `\(function)` (\(place)) calls itself, again and again, until the stack runs out — an operator or method that calls itself where it should compare or compute the values?"
        }
        let reasonText = reason.hasPrefix("Fatal error") ? " (\(reason))" : ""
        if let function = function, let place = place {
            return " in your code, in `\(function)` at \(place)\(reasonText): often a force unwrap (!) of nil, an index out of range, or a fatalError."
        }
        return "\(reasonText): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError."
    }
}
