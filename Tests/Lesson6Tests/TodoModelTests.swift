import Foundation
import XCTest
import TodoEmulator
import LabTestSupport
import Lesson6

/// Exercise 6.2: `Todo` — one property per key of the API's todo, `id` optional, and an initialiser that keeps what
/// it is given. Judged only through the initialiser, JSONEncoder/JSONDecoder and `==`, never by property names, so
/// the tests compile whatever the learner named them; a wrong name shows up as a JSON key, and the message says so.
final class TodoModelTests: Lesson6TestCase {
    let exercise = Lesson6TestCase.model

    func test_todo_decodesTheRecordedTodo() throws {
        let made = Self.todo4, madeAgain = Self.todo4
        if made != madeAgain {
            throw fail("""
                Todo(id: 4, userId: 1, title: "et porro tempora", completed: true), made twice from the same values, \
                gives two todos that are not ==: \(made) and \(madeAgain). Either an `==` of your own compares something \
                else than the four fields — `lhs === rhs`, "the same object", when Todo is a class: a todo decoded from the \
                server's answer is never the same object as the one it is compared with; compare the fields — or a stored \
                property that takes a value of its own \
                each time a todo is made — `let uuid = UUID()`, `let createdAt = Date()` — makes every todo differ from \
                every other, the one decoded from the server's answer too, and JSONEncoder sends it to the server as a key \
                the API does not have. A todo holds the API's four fields and nothing else; its identity (for SwiftUI's \
                `Identifiable`, say) is the server's `id`. See LESSONS.md §6.2.
                """)
        }
        let decoded = try decode(Todo.self, #"{"userId": 1, "id": 4, "title": "et porro tempora", "completed": true}"#)
        if decoded != Self.todo4, try encode(decoded)["id"] == .null {
            throw fail("""
                The recorded todo 4 decoded as \(decoded): without its id, 4. The decoder dropped the id — a `CodingKeys` \
                enum without `case id` leaves the id out both ways (never decoded, never encoded: a todo from the server \
                would lose its id), and so does a constant with a value (`let id: Int? = nil`). List every key in \
                `CodingKeys`, `id` too: a nil id is left out of the JSON anyway. See LESSONS.md §6.2.
                """)
        }
        XCTAssertEqual(decoded, Self.todo4, """
            The recorded todo 4 decoded as \(decoded), but Todo(id: 4, userId: 1, title: "et porro tempora", \
            completed: true) is \(Self.todo4): a todo holds exactly what it was given or decoded. See LESSONS.md §6.2.
            """)
    }

    func test_todo_encodesTheAPIsKeys() throws {
        let json = try encode(Self.todo4)
        let expected: JSONValue = ["userId": 1, "id": 4, "title": "et porro tempora", "completed": true]
        XCTAssertEqual(json, expected, """
            Todo(id: 4, userId: 1, title: "et porro tempora", completed: true) encodes as \(json); the API's todo is \
            \(expected). \(Self.keyAdvice(json, expected)) See LESSONS.md §6.2.
            """)
    }

    func test_todo_newTodo_encodesNoID() throws {
        let json = try encode(Self.newTodo)
        if json["id"] != .null {
            XCTFail("""
                A new todo, Todo(userId: 7, title: …) with no id, encodes as \(json): it has an id (\(json["id"])). \
                The client does not know a new todo's id — the server assigns it — so `id` must be an optional that is \
                nil, which JSONEncoder leaves out. Don't store a made-up id (0 or any other). See LESSONS.md §6.2.
                """)
        }
    }

    func test_todo_decodesATodoWithoutAnID() throws {
        let decoded = try decode(Todo.self, #"{"userId": 7, "title": "Learn \"REST\" with typed errors ✅", "completed": true}"#)
        let id = try encode(decoded)["id"]
        if id != .null {
            throw fail("""
                JSON without an id decoded as \(decoded): a todo with an id (\(id)). A todo the server has not numbered has \
                no id — nil — and decoding must keep it so: read the id with `decodeIfPresent` and don't invent one \
                (`?? 0`): a todo with an id says the server knows it. See LESSONS.md §6.2.
                """)
        }
        XCTAssertEqual(decoded, Self.newTodo, """
            A todo without an id decoded as \(decoded), and Todo(userId: 7, title: …, completed: true) is \(Self.newTodo): \
            a todo holds exactly what it was given or decoded. See LESSONS.md §6.2.
            """)
    }

    func test_todo_jsonWithoutItsFields_isNotATodo() throws {
        _ = Self.todo4  // the initialiser first: while it is still a stub, the test says "not started"
        let json = #"{"id": 4}"#
        if let decoded = try? JSONDecoder().decode(Todo.self, from: Data(json.utf8)) {
            XCTFail("""
                \(json), JSON without a todo's `userId`, `title` and `completed`, decoded as \(decoded). Every todo has \
                those three, so they are not optionals (only `id` is: a new todo has none): JSON without them is not a \
                todo, and JSONDecoder must say so — a 200 with such a body is reported as .decoding (§6.4). See LESSONS.md §6.2.
                """)
            return
        }
        // Then each of the three alone: a default (`?? false`, `?? 0`, `?? ""`) or an optional hides one missing field.
        let todo4: [String: JSONValue] = ["userId": 1, "id": 4, "title": "et porro tempora", "completed": true]
        for key in ["userId", "title", "completed"] {
            let without = JSONValue.object(todo4.filter { $0.key != key }).description
            if let decoded = try? JSONDecoder().decode(Todo.self, from: Data(without.utf8)) {
                XCTFail("""
                    \(without), the recorded todo 4 without its `\(key)`, decoded as \(decoded). `\(key)` is not optional: \
                    every todo has it, so JSON without it is not a todo, and decoding must fail (a 200 with such a body is \
                    .decoding, §6.4). Declare it without `?`, and decode it with `decode`, not `decodeIfPresent` or \
                    `try?` with a default. See LESSONS.md §6.2.
                    """)
                return
            }
        }
    }

    func test_todo_initDefaults_noIDAndNotCompleted() throws {
        var json = try encode(Todo(userId: 3, title: "Defaults"))
        if json["id"] == .null { json = .object(json.objectValue?.filter { $0.key != "id" } ?? [:]) }  // `"id": null` is no id too
        XCTAssertEqual(json, ["userId": 3, "title": "Defaults", "completed": false], """
            Todo(userId: 3, title: "Defaults") encodes as \(json): left out, there is no id and `completed` is false \
            (the defaults in the signature); keep them as given. See LESSONS.md §6.2.
            """)
    }

    func test_todo_init_keepsWhatItIsGiven() throws {
        let title = "  Buy milk, \"2 L\" 🥛\n"
        let json = try encode(Todo(id: 12, userId: 5, title: title, completed: true))
        XCTAssertEqual(json, ["userId": 5, "id": 12, "title": .string(title), "completed": true], """
            Todo(id: 12, userId: 5, title: \(JSONValue.string(title)), completed: true) encodes as \(json): the initialiser \
            changed what it was given. A todo holds every value as given — the title with its spaces and new line too: \
            tidy text in the screen that takes it, not in the model (the server's todos are decoded without your \
            initialiser, so they would not be tidied anyway). See LESSONS.md §6.2.
            """)
    }

    func test_todo_everyPublishedTodo_roundTrips() throws {
        let published = JSONValue.array(try Self.publishedTodos())
        let todos = try decode([Todo].self, published.description)
        XCTAssertEqual(todos.count, 200, "JSONPlaceholder's 200 todos decoded as \(todos.count). See LESSONS.md §6.2.")
        XCTAssertEqual(todos.dropFirst(3).first, Self.todo4, "The fourth published todo decoded as \(todos.dropFirst(3).first.map { "\($0)" } ?? "nothing"); expected \(Self.todo4). See LESSONS.md §6.2.")
        let again = try encode(todos)
        XCTAssertEqual(again, published, "JSONPlaceholder's 200 todos, decoded and encoded again, are not the same JSON. \(Self.keyAdvice(again.arrayValue?.first ?? .null, published.arrayValue?.first ?? .null)) See LESSONS.md §6.2.")
    }

    func test_todo_equality_comparesEveryField() throws {
        let todo = Self.todo4
        let others = [Todo(id: 4, userId: 2, title: "et porro tempora", completed: true),
                      Todo(id: 4, userId: 1, title: "another title", completed: true),
                      Todo(id: 4, userId: 1, title: "et porro tempora", completed: false)]
        for other in others where other == todo {
            XCTFail("""
                \(other) == \(todo): two todos with the same id and different fields are equal. `==` compares every \
                field (the synthesised one does): an edited todo must not equal the todo it was — and the tests compare \
                the todo your calls give with `==`. Don't write your own `==` by id. See LESSONS.md §6.2.
                """)
            return
        }
        let renumbered = [Todo(id: 5, userId: 1, title: "et porro tempora", completed: true),
                          Todo(userId: 1, title: "et porro tempora", completed: true)]
        for other in renumbered where other == todo {
            XCTFail("""
                \(other) == \(todo): two todos with different ids are equal. `==` compares every field, the id too (the \
                synthesised one does): a saved todo, with the id the server gave it, must not equal the todo that was sent \
                without one — and the tests compare the todo your calls give with `==`. Don't leave the id out of your own \
                `==`. See LESSONS.md §6.2.
                """)
            return
        }
        XCTAssertEqual(Self.todo157, Self.todo157, "\(Self.todo157) is not == to itself. See LESSONS.md §6.2.")
    }

    // MARK: Helpers with messages

    private func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw fail("JSONEncoder could not encode \(value): \(oneLine(error)). See LESSONS.md §6.2.")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw fail("JSONDecoder could not decode \(json.count > 120 ? "the published todos" : json) as \(type): \(Self.explain(error)) See LESSONS.md §6.2.")
        }
    }

    /// A decoding error in words, naming the key.
    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _) where key.stringValue == "id":
            return """
                it asked for the key `id`, which a new todo does not have: make `id` optional (`Int?`), and if you wrote \
                `init(from:)`, read it with `decodeIfPresent(Int.self, forKey: .id)` — `decode(Int?.self, forKey: .id)` \
                accepts null but still requires the key.
                """
        case .keyNotFound(let key, _):
            return "it asked for the key `\(key.stringValue)`, which the API's todo does not have: name each property exactly as its key (`userId`, `id`, `title`, `completed`)."
        case .typeMismatch(let type, let context):
            return "`\(context.codingPath.map(\.stringValue).joined(separator: "."))` is not a \(type) in the data: give each property the type its value has (a number is Int, true/false is Bool)."
        case .valueNotFound(_, let context):
            return "`\(context.codingPath.map(\.stringValue).joined(separator: "."))` has no value."
        default:
            return oneLine(error)
        }
    }

    /// Which keys differ between an encoded todo and the API's.
    static func keyAdvice(_ json: JSONValue, _ expected: JSONValue) -> String {
        let keys = Set(json.objectValue?.keys.map { $0 } ?? []), wanted = Set(expected.objectValue?.keys.map { $0 } ?? [])
        guard keys != wanted else {
            if let expectedID = expected["id"].numberValue, let id = json["id"].numberValue, id != expectedID,
               json.objectValue?.filter({ $0.key != "id" }) == expected.objectValue?.filter({ $0.key != "id" }) {
                return """
                    The id is \(json["id"]), not the \(expected["id"]) the todo was made with: the id given was not kept — by the \
                    initialiser, or by a constant with a value (`let id: Int = 0`), which neither the initialiser nor \
                    JSONDecoder can ever set, and which sends a made-up id. Declare `var id: Int?` and keep the id given.
                    """
            }
            return "The keys are right; a value differs: keep each value as given."
        }
        if wanted.subtracting(keys) == ["id"], keys.subtracting(wanted).isEmpty {
            return """
                The todo has an id (\(expected["id"])), and its JSON has none: the id was dropped — by the initialiser, \
                by a constant with a value (`let id: Int? = nil`), which neither the initialiser nor JSONDecoder can ever \
                set, or by a `CodingKeys` enum without `case id`, which leaves it out of the JSON both ways. Declare \
                `var id: Int?` (or `let id: Int?`, no value), keep the id given, and list `id` in any `CodingKeys`.
                """
        }
        return "Keys not in the API: \(keys.subtracting(wanted).sorted()); missing: \(wanted.subtracting(keys).sorted()). Name each property exactly as its key."
    }
}
