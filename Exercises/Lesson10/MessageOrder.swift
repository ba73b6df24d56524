// Lesson 10 — pages of a long thread. Your exercise here is the function marked EXERCISE (LESSONS.md §10.2).
import Foundation
import LabSupport

extension Message {
    /// EXERCISE 10.2 — a page as Firebase answers it (a JSON object keyed by push ID, decoded as a dictionary,
    /// which has no order) turned into the app's list: every message with its key, oldest first by timestamp, and
    /// messages with the same timestamp in the order of their keys — the order in which Firebase's query put them.
    public static func inOrder(_ page: [String: Message.Body]) -> [Message] {
        _ = NotImplemented("Message.inOrder(_:)", section: "10.2")
        return []
    }
}
