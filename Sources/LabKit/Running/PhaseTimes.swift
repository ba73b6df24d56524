import Foundation

/// `LAB_TIMES=1`: `lab` says on standard error when each phase of a run begins or ends, as seconds since the epoch
/// (the shell's `date +%s.%N` compares with them) and since `lab` started — to find where a check's time goes
/// (`.ci/benchmark`). Nothing else reads these lines; without the variable nothing is written.
enum PhaseTimes {
    static let isOn = ProcessInfo.processInfo.environment["LAB_TIMES"] == "1"
    private static let start = Date()

    static func mark(_ phase: @autoclosure () -> String) {
        guard isOn else { return }
        let now = Date()
        let line = String(format: "lab-times %.3f +%.3f %@\n", now.timeIntervalSince1970, now.timeIntervalSince(start), phase())
        FileHandle.standardError.write(Data(line.utf8))
    }
}
