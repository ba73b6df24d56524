import Foundation
import FirebaseEmulator

/// One recorded event stream from Fixtures/streams (format in Fixtures/README.md): a starting database, where to
/// listen, the writes to make, and the events a listener receives.
struct RecordedStream {
    struct Write {
        let method: String
        let path: String
        let body: JSONValue?
    }

    let file: String
    let description: String
    let now: Date
    let randomCharacters: String
    let before: JSONValue
    let listen: String
    let writes: [Write]
    /// Each event's name and its data as JSON.
    let events: [(name: String, data: JSONValue)]

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func load(_ url: URL) throws -> RecordedStream {
        let file = url.lastPathComponent
        func problem(_ text: String) -> Problem { Problem(description: "Fixtures/streams/\(file): \(text)") }
        let root = try JSONValue(data: Data(contentsOf: url))
        guard let listen = root["listen"].stringValue, let description = root["description"].stringValue,
            case .array(let writes) = root["writes"], case .array(let events) = root["events"]
        else { throw problem("needs \"description\", \"listen\", \"writes\" and \"events\"") }
        var now = Exchange.defaultNow
        if let text = root["environment"]["now"].stringValue {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = formatter.date(from: text) else { throw problem("\"environment.now\" is not ISO 8601 with ms") }
            now = date
        }
        return RecordedStream(
            file: file, description: description, now: now,
            randomCharacters: root["environment"]["randomCharacters"].stringValue ?? "-", before: root["before"],
            listen: listen,
            writes: try writes.map { write in
                guard let method = write["method"].stringValue, let path = write["path"].stringValue else {
                    throw problem("each write needs \"method\" and \"path\"")
                }
                return Write(method: method, path: path, body: write.objectValue?["body"])
            },
            events: try events.map { event in
                guard let name = event["event"].stringValue, event.objectValue?["data"] != nil else {
                    throw problem("each event needs \"event\" and \"data\"")
                }
                return (name, event["data"])
            })
    }

    func makeEmulator() -> FirebaseEmulator {
        let now = self.now
        return FirebaseEmulator(database: before, clock: { now }, randomness: .characters(randomCharacters))
    }
}
