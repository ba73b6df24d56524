import XCTest
import ChatCaveEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What Lesson 7's cancellation tests rely on: answers held until released, and a task cancelled meanwhile marked
/// `wasCancelled` in the log, its answer never delivered.
final class CancellationTests: XCTestCase {
    let signedIn = "Basic " + Data("ada:lovelace".utf8).base64EncodedString()

    private func roomsRequest(_ base: URL) -> URLRequest {
        var request = URLRequest(url: base.appendingPathComponent("rooms"))
        request.setValue(signedIn, forHTTPHeaderField: "Authorization")
        return request
    }

    func test_cancelledWhileHeld_isMarkedCancelledAndNeverAnswered() {
        let emulator = ChatCaveEmulator()
        emulator.holdResponses()
        let endedWith = Locked<Error?>(nil)
        let task = emulator.session.dataTask(with: roomsRequest(emulator.baseURL)) { _, _, error in
            endedWith.value = error
        }
        task.resume()
        XCTAssertTrue(eventually { emulator.requests.count == 1 }, "Expected the held request to reach the emulator")
        XCTAssertEqual(emulator.requests.first?.wasCancelled, false, "Expected a held request not to count as cancelled yet")
        task.cancel()
        XCTAssertTrue(eventually { emulator.requests.first?.wasCancelled == true }, "Expected the log to mark the cancelled request")
        XCTAssertTrue(eventually { endedWith.value != nil }, "Expected the cancelled task to end")
        XCTAssertEqual((endedWith.value as? URLError)?.code, .cancelled)
        emulator.releaseHeldResponses()
        XCTAssertTrue(emulator.requests.first?.summary.contains("cancelled") ?? false, "Expected the summary to say so")
    }

    func test_heldAnswer_arrivesOnRelease_andIsNotCancelled() {
        let emulator = ChatCaveEmulator()
        emulator.holdResponses()
        let status = Locked<Int?>(nil)
        emulator.session.dataTask(with: roomsRequest(emulator.baseURL)) { _, response, _ in
            status.value = (response as? HTTPURLResponse)?.statusCode ?? 0
        }.resume()
        XCTAssertFalse(eventually(within: 0.2) { status.value != nil }, "Expected the answer to be held")
        emulator.releaseHeldResponses()
        XCTAssertTrue(eventually { status.value != nil }, "Expected the held answer once released")
        XCTAssertEqual(status.value, 200)
        XCTAssertEqual(emulator.requests.map(\.wasCancelled), [false])
    }

    func test_holdingOnlyTheAnswersSoFar_letsLaterRequestsThrough_andKeepsTheEarlierHeld() {
        let emulator = ChatCaveEmulator()
        emulator.holdResponses()
        let first = Locked<Int?>(nil), second = Locked<Int?>(nil)
        emulator.session.dataTask(with: roomsRequest(emulator.baseURL)) { _, response, _ in
            first.value = (response as? HTTPURLResponse)?.statusCode ?? 0
        }.resume()
        XCTAssertTrue(eventually { emulator.requests.count == 1 }, "Expected the first request to reach the emulator")
        let held = emulator.holdOnlyTheResponsesSoFar()
        emulator.session.dataTask(with: roomsRequest(emulator.baseURL)) { _, response, _ in
            second.value = (response as? HTTPURLResponse)?.statusCode ?? 0
        }.resume()
        XCTAssertTrue(eventually { second.value != nil }, "Expected a later request to be answered at once")
        XCTAssertNil(first.value, "Expected the first answer to stay held until release()")
        held.release()
        XCTAssertTrue(eventually { first.value != nil }, "Expected the held answer once released")
        XCTAssertEqual([first.value, second.value], [200, 200])
    }

    func test_heldAnswer_overASocket_arrivesOnRelease() throws {
        let emulator = ChatCaveEmulator()
        let server = try serve(emulator)
        let client = URLSession(configuration: .ephemeral)
        defer { client.invalidateAndCancel() }
        emulator.holdResponses()
        let answered = Locked(false)
        client.dataTask(with: roomsRequest(server.baseURL)) { _, _, _ in answered.value = true }.resume()
        XCTAssertFalse(eventually(within: 0.3) { answered.value }, "Expected the answer to be held")
        emulator.releaseHeldResponses()
        XCTAssertTrue(eventually { answered.value }, "Expected the held answer once released")
    }

    func test_cancelledWhileHeld_overASocket_isMarkedCancelled() throws {
        let emulator = ChatCaveEmulator()
        let server = try serve(emulator)
        let client = URLSession(configuration: .ephemeral)
        defer { client.invalidateAndCancel() }
        emulator.holdResponses()
        let task = client.dataTask(with: roomsRequest(server.baseURL))
        task.resume()
        XCTAssertTrue(eventually { emulator.requests.count == 1 }, "Expected the held request to reach the emulator")
        task.cancel()
        XCTAssertTrue(eventually { emulator.requests.first?.wasCancelled == true }, "Expected the log to mark the abandoned request")
    }

    func test_serverStoppedWhileHeld_marksTheRequestNeverAnswered() throws {
        let emulator = ChatCaveEmulator()
        let server = try serve(emulator)
        let client = URLSession(configuration: .ephemeral)
        defer { client.invalidateAndCancel() }
        emulator.holdResponses()
        client.dataTask(with: roomsRequest(server.baseURL)).resume()
        XCTAssertTrue(eventually { emulator.requests.count == 1 }, "Expected the held request to reach the emulator")
        server.stop()
        XCTAssertTrue(eventually { emulator.requests.first?.wasCancelled == true }, "Expected the log to mark it never answered")
    }
}
