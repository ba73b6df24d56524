@_exported import EmulatorCore  // one `import TodoEmulator` gives tests the log, faults, JSON and the transports
import Foundation

/// A JSONPlaceholder-style `/todos` API with json-server's semantics: the Todo service on the emulator core.
///
/// Give learner code `baseURL` and `session`; then assert on `requests` and `todo(id:)`. Serve it on a port with
/// `EmulatorServer` for curl and apps.
public typealias TodoEmulator = Emulator<TodoService>

extension Emulator where Service == TodoService {
    /// Starts with `todos` (JSON objects with a numeric `id`), e.g. JSONPlaceholder's 200 from Fixtures/todos.
    public convenience init(todos: [JSONValue] = []) {
        self.init(TodoService(todos: todos))
    }

    /// Every stored todo, in id order, as `GET /todos` returns it.
    public var todos: [JSONValue] { withService { $0.store.all } }

    /// The stored todo with this id, as `GET /todos/<id>` returns it; nil when there is none.
    public func todo(id: Int) -> JSONValue? {
        withService { $0.store.find(String(id)) }
    }

    /// The id the next POST without an id gets: one more than the largest numeric id (1 when empty).
    public var nextID: Int { withService { $0.store.nextID } }
}
