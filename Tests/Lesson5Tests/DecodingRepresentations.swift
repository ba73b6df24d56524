import Foundation
import XCTest
import FirebaseEmulator
import LabTestSupport
import Lesson5

/// Making `EntryRepresentation`s the only way there is: decoding JSON with the learner's `Decodable`.
extension Lesson5TestCase {
    /// `json` decoded as one EntryRepresentation; stops the test with the decoding error in words. `setup`, when
    /// given, says what another exercise's test needed it for (the message then starts "setup: ").
    func representation(of json: JSONValue, setup: String? = nil,
                        file: StaticString = #filePath, line: UInt = #line) throws -> EntryRepresentation {
        do {
            return try JSONDecoder().decode(EntryRepresentation.self, from: json.jsonData)
        } catch {
            // A stub's NotImplemented is reported as "not started yet" by LabTestCase.
            throw fail("\(setup.map { "setup: \($0) needs EntryRepresentation to decode an entry, and " } ?? "")\(Self.explain(error, decoding: json))", file: file, line: line)
        }
    }

    func representation(of record: EntryStore.Record, setup: String? = nil,
                        file: StaticString = #filePath, line: UInt = #line) throws -> EntryRepresentation {
        try representation(of: Self.json(of: record), setup: setup, file: file, line: line)
    }

    /// Whether `json` decodes as EntryRepresentation once its timestamp is rounded down to a whole second.
    static func decodesWithAWholeTimestamp(_ json: JSONValue) -> Bool {
        guard var object = json.objectValue, let seconds = object["timestamp"]?.numberValue,
              seconds != seconds.rounded(.down) else { return false }
        object["timestamp"] = .number(seconds.rounded(.down))
        return (try? JSONDecoder().decode(EntryRepresentation.self, from: JSONValue.object(object).jsonData)) != nil
    }

    /// Why JSONDecoder could not decode `json` (one entry) as EntryRepresentation, in a learner's words.
    static func explain(_ error: Error, decoding json: JSONValue) -> String {
        let head = "JSONDecoder could not decode the entry \(json.description) as EntryRepresentation:"
        let tail = "EntryRepresentation must decode an entry's five keys as the journal spells them; one way is a `public let` per key, named exactly as the key, with Decodable written by the compiler (your own CodingKeys or init(from:) work too). See LESSONS.md §5.5."
        switch error {
        case DecodingError.keyNotFound(let key, _):
            let keys = json.objectValue.map { $0.keys.sorted() } ?? []
            let twin = keys.first { $0.lowercased() == key.stringValue.lowercased() }
            return "\(head) it wants a key \"\(key.stringValue)\", and the entry's keys are \(keys)\(twin.map { "; \"\($0)\" differs only in capitals, and JSON keys are case-sensitive" } ?? ""). \(tail)"
        case DecodingError.typeMismatch(let type, let context):
            let key = context.codingPath.last?.stringValue ?? "?"
            let why = key == "timestamp" ? " The timestamp is a number of seconds since 2001: declare it `Date` (a plain JSONDecoder reads that number as a Date)." : ""
            return "\(head) at \"\(key)\" it asks for \(type), but the entry holds \(json[key].description).\(why) \(tail)"
        case DecodingError.dataCorrupted where decodesWithAWholeTimestamp(json):
            // A number that does not fit the declared type (an Int for 5.84113900789E8) is "corrupted data", often
            // with no coding path (Linux): the same entry with a whole-second timestamp decoding tells where it is.
            return "\(head) at \"timestamp\" the entry holds \(json["timestamp"].description), seconds since 2001 with a fraction of a second, which the type you declared cannot hold (\(oneLine(error))): declare it `Date` (a plain JSONDecoder reads that number as a Date). \(tail)"
        default:
            return "\(head) \(oneLine(error)). \(tail)"
        }
    }
}
