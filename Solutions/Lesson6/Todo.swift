// Given: already written for you. The model of one todo, exactly as the /todos API writes it (LESSONS.md §6.2).
import Foundation

/// One todo, e.g. `{"userId": 1, "id": 4, "title": "et porro tempora", "completed": true}`.
///
/// `id` is the server's: nil for a todo made in the app and not yet saved, then the number the server assigned.
/// Its Codable is synthesised, so a nil `id` is left out of the JSON (not written as `null`): a new todo goes to the
/// server without an id, and the server chooses one.
public struct Todo: Codable, Equatable {
    public var id: Int?
    public var userId: Int
    public var title: String
    public var completed: Bool

    public init(id: Int? = nil, userId: Int, title: String, completed: Bool = false) {
        self.id = id
        self.userId = userId
        self.title = title
        self.completed = completed
    }
}
