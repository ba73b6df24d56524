// Lesson 6 — the model. Your exercise is the part marked EXERCISE (LESSONS.md §6.2).
import Foundation
import LabSupport

/// One todo, e.g. `{"userId": 1, "id": 4, "title": "et porro tempora", "completed": true}`.
///
/// `id` is the server's: nil for a todo made in the app and not yet saved, then the number the server assigned.
public struct Todo: Codable, Equatable {
    // EXERCISE 6.2 (part 1) — One `public var` per key of the API's todo (`userId`, `id`, `title`, `completed`, named
    // exactly as the keys), with the type its values have. `id` is optional: a new todo has none until the server
    // assigns it, and JSONEncoder leaves a nil optional out of the JSON (§6.2).
    // BEGIN SOLUTION
    public var id: Int?
    public var userId: Int
    public var title: String
    public var completed: Bool
    // END SOLUTION

    /// EXERCISE 6.2 (part 2) — A todo holds exactly what it was given. Left out, there is no id (a new todo) and it
    /// is not completed (the defaults in the signature). Replace the `NotImplemented` line.
    public init(id: Int? = nil, userId: Int, title: String, completed: Bool = false) {
        // BEGIN SOLUTION
        self.id = id
        self.userId = userId
        self.title = title
        self.completed = completed
        // END SOLUTION
        // STUB: _ = NotImplemented("Todo.init(id:userId:title:completed:)", section: "6.2")
    }
}
