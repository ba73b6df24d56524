import Foundation

/// What `lab grade` was asked: the checkouts, where reports go, which lessons, how many at once, and the
/// autograding outputs for a single learner's run in CI.
struct GradeOptions {
    var checkouts: [String] = []
    var outFolder = "lab-grades"
    /// Lessons as typed (`Lesson1`, `1`, …); empty: all of them.
    var lessons: [String] = []
    /// Learners graded at once, each in a grading copy of its own.
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Append `result=<base64 JSON>` to `$GITHUB_OUTPUT` (GitHub's autograding reporter) and exit 0.
    var githubOutput = false
    /// Write a Classroom 50 `result.json` here, and exit 0.
    var classroom50: String?

    /// Whether the run feeds a grader that expects an answer whatever happened (exit 0, an error result if need be).
    var forAutograder: Bool { githubOutput || classroom50 != nil }

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(of option: String) throws -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("-") else { throw UsageError("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--out": outFolder = try value(of: argument)
            case "--lesson":
                // `--lesson ""` (an unset shell variable, say) would otherwise grade every lesson.
                let named = try value(of: argument).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard !named.isEmpty, !named.contains(where: \.isEmpty) else {
                    throw UsageError("--lesson needs a lesson: --lesson Lesson1, or several: --lesson 1,2")
                }
                lessons += named
            case "-j", "--jobs": jobs = try Self.count(try value(of: argument))
            case "--github-output": githubOutput = true
            case "--classroom50": classroom50 = try value(of: argument)
            default:
                if argument.hasPrefix("-j"), argument.count > 2 {
                    jobs = try Self.count(String(argument.dropFirst(2)))
                } else if argument.hasPrefix("-") {
                    throw UsageError("unknown option \(argument)")
                } else {
                    checkouts.append(argument)
                }
            }
        }
        guard !checkouts.isEmpty else { throw UsageError("`lab grade` needs at least one learner's checkout") }
        if forAutograder, checkouts.count != 1 {
            throw UsageError("--github-output and --classroom50 grade one checkout (the learner's repository), not \(checkouts.count)")
        }
    }

    private static func count(_ text: String) throws -> Int {
        guard let number = Int(text), number >= 1 else { throw UsageError("-j needs a number of jobs, 1 or more (not \(text))") }
        return number
    }
}
