// Lesson 6 — strongly-typed GET and POST, typed errors, server-assigned ids. Your exercises are in
// TodoAPI+Completion.swift and TodoAPI+Async.swift. LESSONS.md §6 explains them.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's one door to the /todos API: it speaks in `Todo`s and `TodoAPIError`s. Code that calls it never
/// mentions a URL, a request or JSON:
/// ```
/// api.todo(id: 4) { result in
///     switch result {
///     case .success(let todo): show(todo)
///     case .failure(.status(404)): showGone()
///     case .failure(let error): showProblem(error)
///     }
/// }
/// let saved = try await api.save(Todo(userId: 1, title: "Learn REST"))   // saved.id is the server's
/// ```
public final class TodoAPI {
    /// The real service. The tests pass an emulator's URL instead, so they never touch the network.
    public static let jsonPlaceholderURL = URL(string: "https://jsonplaceholder.typicode.com/")!

    public let baseURL: URL
    /// Send every request through this session: the tests hand you one that talks to their emulator.
    public let session: URLSession

    public init(baseURL: URL = TodoAPI.jsonPlaceholderURL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }
}
