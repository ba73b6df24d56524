import Foundation
import TodoEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One recorded exchange from Fixtures/todos/exchanges (format in Fixtures/README.md): the published todos, an
/// optional fault, one request, the answer, and what the store holds afterwards.
struct TodoExchange {
    let file: String
    let description: String
    let fault: Fault?
    let method: String
    let path: String
    let requestHeaders: [String: String]
    let requestBody: Data?
    let status: Int
    let headers: [String: String]
    let body: JSONValue?
    /// id → the todo stored under it afterwards, or `.null` for none.
    let after: [String: JSONValue]
    let count: Int?

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/todos")

    static func all() throws -> [TodoExchange] {
        let exchanges = folder.appendingPathComponent("exchanges")
        return try FileManager.default.contentsOfDirectory(at: exchanges, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map(load)
    }

    static func publishedTodos() throws -> [JSONValue] {
        try JSONValue(data: Data(contentsOf: folder.appendingPathComponent("jsonplaceholder-todos.json"))).arrayValue ?? []
    }

    static func load(_ url: URL) throws -> TodoExchange {
        let file = url.lastPathComponent
        func problem(_ text: String) -> Problem { Problem(description: "Fixtures/todos/exchanges/\(file): \(text)") }
        let root: JSONValue
        do {
            root = try JSONValue(data: Data(contentsOf: url))
        } catch {
            throw problem("is not valid JSON: \(error)")
        }
        let request = root["request"], response = root["response"]
        guard let description = root["description"].stringValue, root["source"].stringValue != nil,
              let method = request["method"].stringValue, let path = request["path"].stringValue, path.hasPrefix("/"),
              let status = response["status"].numberValue
        else { throw problem("needs \"description\", \"source\", request.method, request.path (from /) and response.status") }
        return TodoExchange(
            file: file, description: description, fault: try fault(root["fault"], problem), method: method, path: path,
            requestHeaders: strings(request["headers"]), requestBody: request.objectValue?["body"].map(\.jsonData),
            status: Int(status), headers: strings(response["headers"]), body: response.objectValue?["body"],
            after: root["after"].objectValue ?? [:], count: root["count"].numberValue.map { Int($0) })
    }

    private static func strings(_ value: JSONValue) -> [String: String] {
        (value.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    private static func fault(_ value: JSONValue, _ problem: (String) -> Problem) throws -> Fault? {
        if value == .null { return nil }
        if let status = value["status"].numberValue, let message = value["message"].stringValue {
            return .httpError(status: Int(status), message: message)
        }
        if let text = value["malformedBody"].stringValue { return .malformedBody(text) }
        throw problem("\"fault\" must be {\"status\": n, \"message\": s} or {\"malformedBody\": s}")
    }

    /// A fresh emulator with the published todos and the exchange's fault.
    func makeEmulator() throws -> TodoEmulator {
        let emulator = TodoEmulator(todos: try Self.publishedTodos())
        if let fault = fault { emulator.inject(fault) }
        return emulator
    }

    /// The exchange's request, sent to `base` (an emulator's URL or a server's).
    func urlRequest(base: URL) -> URLRequest {
        var request = URLRequest(url: URL(string: String(base.absoluteString.dropLast()) + path)!)
        request.httpMethod = method
        for (name, value) in requestHeaders { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = requestBody
        return request
    }

    /// Every way an answer and the store afterwards differ from the recording; empty when they match.
    func mismatches(status actualStatus: Int, headers actualHeaders: [String: String], body actualBody: Data,
                    emulator: TodoEmulator) -> [String] {
        var problems: [String] = []
        if actualStatus != status { problems.append("expected status \(status), got \(actualStatus)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let actual = actualHeaders.first { $0.key.lowercased() == name.lowercased() }?.value
            if actual != value { problems.append("expected header \(name): \(value), got \(actual ?? "none")") }
        }
        if let body = body, (try? JSONValue(data: actualBody)) != body {
            problems.append("expected body \(body), got \(String(decoding: actualBody, as: UTF8.self))")
        }
        for (id, expected) in after.sorted(by: { $0.key < $1.key }) {
            let stored = Int(id).flatMap(emulator.todo(id:)) ?? .null
            if stored != expected { problems.append("expected todo \(id) afterwards to be \(expected), got \(stored)") }
        }
        if let count = count, emulator.todos.count != count {
            problems.append("expected \(count) todos afterwards, got \(emulator.todos.count)")
        }
        return problems
    }
}
