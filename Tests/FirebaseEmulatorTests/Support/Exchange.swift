import Foundation
import FirebaseEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One recorded request/response exchange from Fixtures/exchanges (format in Fixtures/README.md).
struct Exchange {
    struct Request {
        let method: String
        let path: String
        let headers: [String: String]
        let body: Data?
    }

    let file: String
    let description: String
    let source: String
    let now: Date
    let randomCharacters: String
    let fault: Fault?
    let before: JSONValue
    let request: Request
    let status: Int
    let headers: [String: String]
    let body: JSONValue?
    let bodyText: String?
    let after: JSONValue?

    /// A problem with an exchange file, naming the file: a malformed fixture fails its test, never crashes.
    struct Problem: Error, CustomStringConvertible {
        let file: String
        let problem: String
        var description: String { "Fixtures/exchanges/\(file): \(problem)" }
    }

    /// 2018-08-08T07:24:32.088Z: the time of the sample's push ID, so POSTs reproduce it by default.
    static let defaultNow = Date(timeIntervalSince1970: 1_533_713_072.088)
    static let topLevelKeys: Set<String> = [
        "description", "source", "environment", "fault", "before", "beforeDatabase", "request", "response", "after",
        "afterDatabase",
    ]

    static func load(_ url: URL, databases: URL = FixturePaths.databases) throws -> Exchange {
        let name = url.lastPathComponent
        guard let data = try? Data(contentsOf: url) else { throw Problem(file: name, problem: "cannot be read") }
        return try parse(data, file: name, databases: databases)
    }

    static func parse(_ data: Data, file: String, databases: URL = FixturePaths.databases) throws -> Exchange {
        func problem(_ text: String) -> Problem { Problem(file: file, problem: text) }
        let json: JSONValue
        do {
            json = try JSONValue(data: data)
        } catch {
            throw problem("is not valid JSON: \(error)")
        }
        guard let root = json.objectValue else { throw problem("must be a JSON object, found \(json)") }
        if let unknown = root.keys.sorted().first(where: { !topLevelKeys.contains($0) }) {
            throw problem("unknown key \"\(unknown)\" (allowed: \(topLevelKeys.sorted().joined(separator: ", ")))")
        }
        func string(_ value: JSONValue?, _ what: String) throws -> String {
            guard let string = value?.stringValue else { throw problem("\(what) must be a string") }
            return string
        }
        func database(_ inline: String, _ named: String) throws -> JSONValue? {
            if root[inline] != nil && root[named] != nil { throw problem("give either \"\(inline)\" or \"\(named)\", not both") }
            if let value = root[inline] { return value }
            guard let fileName = root[named] else { return nil }
            let url = databases.appendingPathComponent(try string(fileName, "\"\(named)\""))
            do {
                return try JSONValue(data: Data(contentsOf: url))
            } catch {
                throw problem("\"\(named)\" cannot be loaded from Fixtures/databases: \(error)")
            }
        }

        let description = try string(root["description"], "\"description\"")
        let source = try string(root["source"], "\"source\"")

        var now = defaultNow
        var randomCharacters = "-"
        if let environment = root["environment"] {
            guard let object = environment.objectValue else { throw problem("\"environment\" must be an object") }
            if let text = object["now"] {
                guard let date = parseDate(text) else {
                    throw problem("\"environment.now\" must be an ISO 8601 time with milliseconds or milliseconds since 1970")
                }
                now = date
            }
            if let characters = object["randomCharacters"] {
                randomCharacters = try string(characters, "\"environment.randomCharacters\"")
            }
        }

        guard let requestObject = root["request"]?.objectValue else { throw problem("\"request\" must be an object") }
        let method = try string(requestObject["method"], "\"request.method\"")
        let path = try string(requestObject["path"], "\"request.path\"")
        guard path.hasPrefix("/") else { throw problem("\"request.path\" must start with /, found \(path)") }
        let requestHeaders = try headers(requestObject["headers"], "request.headers", problem)
        if requestObject["body"] != nil && requestObject["bodyText"] != nil {
            throw problem("\"request\" has both \"body\" and \"bodyText\"; give one")
        }
        var requestBody: Data?
        if let body = requestObject["body"] { requestBody = body.jsonData }
        if let text = requestObject["bodyText"] { requestBody = Data(try string(text, "\"request.bodyText\"").utf8) }

        guard let responseObject = root["response"]?.objectValue else { throw problem("\"response\" must be an object") }
        guard let status = responseObject["status"]?.numberValue, status == status.rounded(), status >= 100, status < 600
        else { throw problem("\"response.status\" must be an HTTP status code") }
        if responseObject["body"] != nil && responseObject["bodyText"] != nil {
            throw problem("\"response\" has both \"body\" and \"bodyText\"; give one")
        }
        let bodyText = try responseObject["bodyText"].map { try string($0, "\"response.bodyText\"") }

        return Exchange(
            file: file, description: description, source: source, now: now, randomCharacters: randomCharacters,
            fault: try fault(root["fault"], problem), before: try database("before", "beforeDatabase") ?? .null,
            request: Request(method: method, path: path, headers: requestHeaders, body: requestBody),
            status: Int(status), headers: try headers(responseObject["headers"], "response.headers", problem),
            body: responseObject["body"], bodyText: bodyText, after: try database("after", "afterDatabase"))
    }

    private static func headers(_ value: JSONValue?, _ what: String, _ problem: (String) -> Problem) throws -> [String: String] {
        guard let value = value else { return [:] }
        guard let object = value.objectValue else { throw problem("\"\(what)\" must be an object of strings") }
        return try object.mapValues { header in
            guard let text = header.stringValue else { throw problem("\"\(what)\" must be an object of strings") }
            return text
        }
    }

    private static func fault(_ value: JSONValue?, _ problem: (String) -> Problem) throws -> Fault? {
        guard let value = value else { return nil }
        switch value {
        case "permissionDenied": return .permissionDenied
        case "internalError": return .internalError
        default:
            if let status = value["status"].numberValue, let message = value["message"].stringValue {
                return .httpError(status: Int(status), message: message)
            }
            if let text = value["malformedBody"].stringValue { return .malformedBody(text) }
            throw problem(
                "\"fault\" must be \"permissionDenied\", \"internalError\", {\"status\": n, \"message\": s} or {\"malformedBody\": s}")
        }
    }

    private static func parseDate(_ value: JSONValue) -> Date? {
        if let milliseconds = value.numberValue { return Date(timeIntervalSince1970: milliseconds / 1000) }
        guard let text = value.stringValue else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The URLRequest this exchange sends to `emulator`.
    func urlRequest(for emulator: FirebaseEmulator) -> URLRequest? {
        let base = emulator.baseURL.absoluteString.dropLast()  // no trailing slash: paths start with one
        guard let url = URL(string: base + request.path) else { return nil }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// A fresh emulator in the exchange's starting state, deterministic clock and randomness.
    func makeEmulator() -> FirebaseEmulator {
        let now = self.now
        let emulator = FirebaseEmulator(
            database: before, clock: { now }, randomness: .characters(randomCharacters))
        if let fault = fault { emulator.inject(fault) }
        return emulator
    }

    /// Every way `status`/`headers`/`body` and the emulator's database differ from this exchange; empty when it matches.
    func mismatches(status actualStatus: Int, headers actualHeaders: [String: String], body actualBody: Data,
                    database: JSONValue) -> [String] {
        var problems: [String] = []
        if actualStatus != status { problems.append("expected status \(status), got \(actualStatus)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let actual = actualHeaders.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
            if actual != value { problems.append("expected header \(name): \(value), got \(actual ?? "none")") }
        }
        let actualText = String(decoding: actualBody, as: UTF8.self)
        if let bodyText = bodyText, actualText != bodyText {
            problems.append("expected body bytes \(bodyText.debugDescription), got \(actualText.debugDescription)")
        }
        if let body = body {
            let actual = try? JSONValue(data: actualBody)
            if actual != body {
                problems.append("expected body (as JSON) \(body), got \(actual.map { "\($0)" } ?? "invalid JSON \(actualText.debugDescription)")")
            }
        }
        if let after = after, database != after {
            problems.append("expected database afterwards \(after), got \(database)")
        }
        return problems
    }
}
