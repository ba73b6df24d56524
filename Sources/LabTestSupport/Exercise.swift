/// One function a learner writes, and the LESSONS.md section that teaches it. Tests name it in every message.
public struct Exercise: CustomStringConvertible {
    /// As Swift spells it: `createMessageThread(title:completion:)`.
    public let function: String
    /// The LESSONS.md section, e.g. "1.3".
    public let section: String

    public init(_ function: String, section: String) {
        self.function = function
        self.section = section
    }

    /// "LESSONS.md §1.3", for the end of a failure message.
    public var reference: String { "LESSONS.md §\(section)" }
    public var description: String { function }
}
