import Foundation
import XCTest
import LabSupport
import LabTestSupport
import FirebaseEmulator
import Lesson8

/// Lesson 8's tests share this: the exercises, the recorded forum, and events written as Firebase writes them.
/// The listener's own helpers (a server per test) are in ListenerTestCase.swift.
class Lesson8TestCase: LabTestCase {
    static let parse = Exercise("EventStreamParser.parse(_:)", section: "8.2")
    static let model = Exercise("ForumModel.apply(_:) and messages", section: "8.3")
    static let listener = Exercise("ForumListener.start(onUpdate:onEnd:) and stop()", section: "8.4")

    /// The thread's messages as the recorded forum holds them (Fixtures/lesson8/README.md).
    static func forumJSON() throws -> String {
        String(decoding: try Fixtures.data("lesson8/forum.json"), as: UTF8.self)
    }

    /// The recorded forum's messages, read without any learner code, oldest first.
    static func forumMessages() throws -> [ForumMessage] {
        let object = try Fixtures.json("lesson8/forum.json").objectValue ?? [:]
        return object.map { key, value in
            ForumMessage(key: key, text: value["text"].stringValue ?? "", sender: value["sender"].stringValue ?? "",
                         timestamp: Date(timeIntervalSinceReferenceDate: value["timestamp"].numberValue ?? 0))
        }.sorted { $0.timestamp < $1.timestamp }
    }

    /// A message's JSON, on one line, as Firebase sends it in an event.
    static func json(_ message: ForumMessage) -> String {
        let text = String(decoding: (try? JSONEncoder().encode(message.text)) ?? Data(), as: UTF8.self)
        let sender = String(decoding: (try? JSONEncoder().encode(message.sender)) ?? Data(), as: UTF8.self)
        return #"{"sender":\#(sender),"text":\#(text),"timestamp":\#(message.timestamp.timeIntervalSinceReferenceDate)}"#
    }

    /// `event: <name>` / `data: {"path":…,"data":…}`, as Firebase frames a put or a patch.
    static func event(_ name: String, _ path: String, _ data: String) -> ServerSentEvent {
        ServerSentEvent(name: name, data: #"{"path":"\#(path)","data":\#(data.replacingOccurrences(of: "\n", with: ""))}"#)
    }

    static let keepAlive = ServerSentEvent(name: "keep-alive", data: "null")
    static let cancel = ServerSentEvent(name: "cancel", data: "null")
    static let authRevoked = ServerSentEvent(name: "auth_revoked", data: #""credential is no longer valid""#)

    /// The bytes of `events` on the wire.
    static func wire(_ events: [ServerSentEvent]) -> Data {
        Data(events.map { "event: \($0.name)\ndata: \($0.data)\n\n" }.joined().utf8)
    }

    /// Stops the test when a stub ran (the base class then reports "not started yet").
    func requireStarted(file: StaticString = #filePath, line: UInt = #line) throws {
        if let stub = StubLog.recorded.first { throw fail("\(stub)", file: file, line: line) }
    }

    /// "Ana: Is the stream up?, Ben: …" — messages in a failure message.
    static func describe(_ messages: [ForumMessage]) -> String {
        messages.isEmpty ? "(none)" : messages.map { "\($0.sender) \"\($0.text)\" @\($0.timestamp.timeIntervalSinceReferenceDate)" }.joined(separator: ", ")
    }
}
