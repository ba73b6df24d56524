import Foundation

/// Proof that a test result was written by the kit's own test code, not by the learner's code running in the same
/// process. `lab` makes a fresh random key for every test process and hands it over in a file that the test process
/// reads and deletes when its first test starts — before any learner code has run. Each result then carries an
/// HMAC-SHA256 of what it says (test, outcome, message, stubs) under that key; `lab` keeps only results whose seal
/// it can verify. A learner's code can read the results file, but not forge a seal for a result it did not earn.
/// (What it cannot stop — code that reads the test process's own memory — README § Grading integrity.)
public struct ResultSeal {
    private let key: [UInt8]

    /// A new random key (the system's secure generator).
    public init() {
        var generator = SystemRandomNumberGenerator()
        key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The key as written in the key file: 64 hex digits.
    public init?(hex: String) {
        let digits = Array(hex.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        key = bytes
    }

    public var hex: String { key.map { String(format: "%02x", $0) }.joined() }

    /// `result` with its seal set.
    public func sealed(_ result: TestResult) -> TestResult {
        var result = result
        result.seal = signature(of: result)
        return result
    }

    /// Whether `result` carries the seal this key gives what it says.
    public func verifies(_ result: TestResult) -> Bool {
        guard let seal = result.seal else { return false }
        return seal == signature(of: result)
    }

    private func signature(of result: TestResult) -> String {
        // Unit separators keep "a|b" + "c" apart from "a" + "b|c".
        let said = [result.testCode, result.outcome.rawValue, result.message ?? "", (result.stubs ?? []).joined(separator: "\n")]
            .joined(separator: "\u{1F}")
        return SHA256.hmac(key: key, message: Array(said.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
