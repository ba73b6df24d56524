// The embedded emulator's long thread, for "load older" (Lesson 10): longer than three pages of 20.
import Foundation
import FirebaseEmulator

/// "A long thread": 64 messages, a few minutes apart, built the same on every run. Its timestamps are whole seconds
/// since 2001 — Lesson 1's unit, so Lessons 1, 4 and 8 show the right dates, and whole, so Lesson 10's `Int` reads
/// them too. Its keys are shaped like push IDs (time, then a counter), so they sort as the messages were posted.
/// Messages 44 and 45 share a second: the boundary of the newest page and the next, where a page can go wrong.
enum LongThread {
    static let identifier = "B0A2D6E4-5C1F-4E8A-9D3B-7F60C1A2E964"
    static let title = "A long thread"
    static let count = 64
    /// 2026-11-02 08:00:00 UTC, in seconds since 2001.
    static let start = 815_299_200

    static var thread: JSONValue {
        var messages: [String: JSONValue] = [:]
        var second = start
        for number in 1...count {
            if number != 45 { second += 60 + (number * 37) % 240 }
            messages[key(second: second, number: number)] = .object([
                "sender": .string(["Ana", "Ben", "Chen", "Dana", "Eli"][number % 5]),
                "text": .string("Message \(number) of \(count)" + (number == 45 ? ", posted in the same second as 44" : "")),
                "timestamp": .number(Double(second)),
            ])
        }
        return .object(["identifier": .string(identifier), "title": .string(title), "messages": .object(messages)])
    }

    /// 8 characters of the time in milliseconds since 1970, then 12 of the message's number: Firebase's push-ID shape.
    static func key(second: Int, number: Int) -> String {
        let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        func digits(_ value: Int, _ width: Int) -> String {
            var value = value, text = ""
            for _ in 0..<width {
                text.insert(alphabet[value % 64], at: text.startIndex)
                value /= 64
            }
            return text
        }
        let milliseconds = (second + 978_307_200) * 1000
        return digits(milliseconds, 8) + digits(number, 12)
    }

    /// `database` with the long thread added at the top.
    static func added(to database: JSONValue) -> JSONValue {
        var threads = database.objectValue ?? [:]
        threads[identifier] = thread
        return .object(threads)
    }
}
