// Lesson 10 — what every call of this lesson does with Firebase's answer. Write these helpers as part of
// §10.3; §10.4, §10.6 and §10.7 use them again (LESSONS.md §10.3).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// BEGIN SOLUTION
/// Sends `request` through `session` and gives the answer whatever its status; only "no answer at all" throws,
/// as a `ThreadAPIError`.
func firebaseAnswer(to request: URLRequest, through session: URLSession) async throws -> (Data, HTTPURLResponse) {
    let data: Data, response: URLResponse
    do {
        (data, response) = try await session.data(for: request)
    } catch let error as URLError {
        throw ThreadAPIError.transport(error)
    } catch {
        throw ThreadAPIError.unexpected(error)
    }
    guard let http = response as? HTTPURLResponse else { throw ThreadAPIError.unexpected(URLError(.badServerResponse)) }
    return (data, http)
}

/// The typed error for an answer whose status is outside 200...299: a 400 says why in Firebase's error body.
func failure(status: Int, body: Data) -> ThreadAPIError {
    guard status == 400 else { return .status(status) }
    let message = (try? JSONDecoder().decode(FirebaseErrorBody.self, from: body))?.error ?? ""
    return message.hasPrefix("Index not defined") ? .indexNotDefined(message) : .badQuery(message)
}

/// Decodes a 2xx body; a body that does not decode throws `.decoding`.
func decoded<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value {
    do {
        return try JSONDecoder().decode(type, from: body)
    } catch let error as DecodingError {
        throw ThreadAPIError.decoding(error)
    } catch {
        throw ThreadAPIError.unexpected(error)
    }
}
// END SOLUTION
