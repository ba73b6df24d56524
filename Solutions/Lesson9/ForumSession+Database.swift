// Lesson 9 — every database request as the signed-in user, with a token kept fresh. Your exercise is the function
// marked EXERCISE (LESSONS.md §9.4).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LabSupport

extension ForumSession {
    /// EXERCISE 9.4 — Sends one request to the database as the signed-in user and returns the body of its 2xx answer.
    ///
    /// - `method` ("GET", "PUT", "POST", "PATCH", "DELETE") of `<databaseURL>/<path>.json?auth=<ID token>` through
    ///   `session`, with `body` (JSON) as given. Nobody signed in: throw `.notSignedIn` and send nothing.
    /// - 401 `Auth token is expired`: refresh the ID token once (`POST <secureTokenURL>?key=<apiKey>`, the form
    ///   `grant_type=refresh_token&refresh_token=<refresh token>`), keep the new `id_token` and `refresh_token`, and
    ///   send the request again, once. A retry refused as `Auth token is expired` again is `.signInExpired`: never a
    ///   loop. A refused refresh (`INVALID_REFRESH_TOKEN`…) is `.signInExpired` too, and forgets the credentials.
    /// - Requests that find the token expired together refresh it **once** and all retry with the new one.
    /// - 401 `Permission denied` (the rules): `.permissionDenied`, with no refresh. Another status:
    ///   `.status(code, the body's "error" text)`; no answer: `.transport`.
    public func database(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        // BEGIN SOLUTION
        guard let first = locked({ signedIn }) else { throw SignInError.notSignedIn }
        let answer = try await send(method, path, body: body, idToken: first.idToken)
        guard answer.isExpiredToken else { return try answer.result() }
        let fresh = try await freshCredentials(replacing: first.idToken)
        let again = try await send(method, path, body: body, idToken: fresh.idToken)
        if again.isExpiredToken { throw SignInError.signInExpired }
        return try again.result()
        // END SOLUTION
        // STUB: throw NotImplemented("database(_:_:body:)", section: "9.4")
    }

    // BEGIN SOLUTION
    /// One database answer: its status, and its body.
    struct DatabaseAnswer {
        let status: Int
        let body: Data
        var errorText: String {
            struct Body: Decodable { let error: String }
            return (try? JSONDecoder().decode(Body.self, from: body))?.error ?? String(decoding: body, as: UTF8.self)
        }
        var isExpiredToken: Bool { status == 401 && errorText == "Auth token is expired" }

        func result() throws -> Data {
            if (200...299).contains(status) { return body }
            if status == 401 && errorText == "Permission denied" { throw SignInError.permissionDenied }
            throw SignInError.status(status, errorText)
        }
    }

    private func send(_ method: String, _ path: String, body: Data?, idToken: String) async throws -> DatabaseAnswer {
        var components = URLComponents(url: databaseURL.appendingPathComponent(path).appendingPathExtension("json"),
                                       resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "auth", value: idToken)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.httpBody = body
        do {
            let (data, response) = try await session.data(for: request)
            return DatabaseAnswer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        } catch let error as URLError {
            throw SignInError.transport(error)
        }
    }

    /// Credentials with an ID token other than `stale` (§9.6's streams refresh through it too): the ones kept, when another request refreshed meanwhile;
    /// else the refresh under way; else a new refresh, which every other request then waits for.
    func freshCredentials(replacing stale: String) async throws -> Credentials {
        let refresh: Task<Credentials, Error> = try locked {
            if let running = refreshing { return running }
            guard let current = signedIn else { throw SignInError.notSignedIn }
            if current.idToken != stale { return Task { current } }
            let task = Task { try await self.refreshed(current) }
            refreshing = task
            return task
        }
        return try await refresh.value
    }

    /// Trades the refresh token for new tokens, keeps them and ends the shared refresh; a refused refresh signs out.
    private func refreshed(_ current: Credentials) async throws -> Credentials {
        var components = URLComponents(url: secureTokenURL, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=refresh_token&refresh_token=\(current.refreshToken)".utf8)
        do {
            let data = try await answer(to: request)
            struct Answer: Decodable { let id_token: String, refresh_token: String, user_id: String }
            guard let new = try? JSONDecoder().decode(Answer.self, from: data) else {
                throw SignInError.decoding("no id_token, refresh_token and user_id in the answer")
            }
            let fresh = Credentials(userID: new.user_id, idToken: new.id_token, refreshToken: new.refresh_token)
            locked {
                if signedIn == current { signedIn = fresh }
                refreshing = nil
            }
            return fresh
        } catch {
            locked {
                if signedIn == current, error as? SignInError == .signInExpired { signedIn = nil }
                refreshing = nil
            }
            throw error
        }
    }
    // END SOLUTION
}
